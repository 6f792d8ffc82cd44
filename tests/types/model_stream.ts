// Proves readModelStream's public types: the snapshot's shape, `value` typed by the type argument or by `schema`
// (a deep partial of its input, the last one its output), `tools` taking Standard Schemas (arguments stay
// unknown), the error's fields, and that a missing or unknown format does not compile. Compiled with
// `tsc --noEmit -p tests/types`.
import {
  type ModelStreamError,
  readModelStream,
  type ModelEvent,
  type ModelSnapshot,
  type ModelStreamFormat,
  type ModelToolCall,
  type PartialValue,
} from 'sluice';
import * as z from 'zod';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): void {}
type ElementOf<I> = I extends AsyncIterable<infer E> ? E : never;

declare const response: Response;
declare const events: ModelEvent[];

interface Recipe {
  title: string;
  steps: string[];
}

const fromBody = readModelStream(response, { format: 'anthropic' });
expectType<Equal<ElementOf<typeof fromBody>, ModelSnapshot<unknown>>>();
const typed = readModelStream<Recipe>(events, { format: 'gemini', text: 'json', maxDepth: 32 });
expectType<Equal<ElementOf<typeof typed>, ModelSnapshot<Recipe>>>();
declare const snapshot: ModelSnapshot<Recipe>;
expectType<Equal<typeof snapshot.value, PartialValue<Recipe> | undefined>>();
expectType<Equal<typeof snapshot.toolCalls, readonly ModelToolCall[]>>();
expectType<Equal<ModelToolCall['id'], string | undefined>>();
expectType<Equal<ModelToolCall['complete'], boolean>>();

declare const error: ModelStreamError;
expectType<Equal<typeof error.format, ModelStreamFormat>>();
expectType<Equal<typeof error.code, string | number | undefined>>();

// @ts-expect-error: format is required
readModelStream(events, {});
// @ts-expect-error: not a format
readModelStream(events, { format: 'openai' });
// @ts-expect-error: text is 'string' or 'json'
readModelStream(events, { format: 'openai-chat', text: 'yaml' });
// @ts-expect-error: events need a string data
readModelStream([{ event: 'x', data: 1 }], { format: 'openai-chat' });

// options.schema types `value`: a deep partial of the schema's input, or (the last snapshot) its output.
const Plan = z.object({ title: z.string(), serves: z.string().transform(Number) });
const planned = readModelStream(response, { format: 'openai-responses', text: 'json', schema: Plan });
type Planned = ElementOf<typeof planned>;
expectType<Equal<Planned, ModelSnapshot<z.input<typeof Plan>, z.output<typeof Plan>>>>();
expectType<Equal<Planned['value'], PartialValue<z.input<typeof Plan>> | z.output<typeof Plan> | undefined>>();

// options.tools takes Standard Schemas by name; a call's arguments stay unknown (a call of a tool not listed is
// not checked, so no union over the listed tools would be true).
const tooled = readModelStream(response, { format: 'openai-chat', tools: { get_weather: Plan } });
expectType<Equal<ElementOf<typeof tooled>['toolCalls'][number]['arguments'], PartialValue<unknown> | undefined>>();
// @ts-expect-error a tool's schema is a Standard Schema
readModelStream(response, { format: 'openai-chat', tools: { get_weather: { parse: () => 1 } } });
