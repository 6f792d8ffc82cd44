// Proves readModelStream's public types: the snapshot's shape, `value` typed by the type argument, the error's
// fields, and that a missing or unknown format does not compile. Compiled with `tsc --noEmit -p tests/types`.
import {
  type ModelStreamError,
  readModelStream,
  type ModelEvent,
  type ModelSnapshot,
  type ModelStreamFormat,
  type ModelToolCall,
  type PartialValue,
} from 'sluice';

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
