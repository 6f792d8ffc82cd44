// Proves the types of the partial parser's `schema` option and of isComplete: snapshots are a deep partial,
// read-only, of what the JSON text holds (the schema's input: a snapshot is JSON text no transform has run on),
// end() and the last value of partialJson the schema's output; a member the schema lacks, a write, or a misused
// isComplete does not compile. Compiled with `tsc --noEmit -p tests/types`.
import { createPartialParser, isComplete, type PartialParser, type PartialValue, partialJson } from 'sluice';
import * as z from 'zod';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): void {}
type ElementOf<I> = I extends AsyncIterable<infer E> ? E : never;

const Recipe = z.object({
  title: z.string(),
  steps: z.array(z.object({ text: z.string(), minutes: z.number() })),
  // A transform: the text holds a string, the validated output a number.
  serves: z.string().transform(Number),
});
type Input = z.input<typeof Recipe>;
type Output = z.output<typeof Recipe>;

const parser = createPartialParser({ schema: Recipe, numbers: 'partial' });
expectType<Equal<typeof parser, PartialParser<Input, Output>>>();
const snapshot = parser.push('{"title":"Pan');
expectType<Equal<typeof snapshot, PartialValue<Input> | undefined>>();
if (snapshot !== undefined) {
  expectType<Equal<typeof snapshot.title, string | undefined>>();
  expectType<Equal<typeof snapshot.serves, string | undefined>>();
  const step = snapshot.steps?.[0];
  expectType<Equal<typeof step, { readonly text?: string; readonly minutes?: number } | undefined>>();
  // @ts-expect-error the schema has no such member
  void snapshot.author;
  // @ts-expect-error snapshots are read-only
  snapshot.title = 'x';
  // @ts-expect-error so are their arrays
  snapshot.steps?.push({ text: 'x' });
  const done: boolean = isComplete(snapshot, 'title') && isComplete(snapshot) && isComplete(snapshot.steps ?? [], 0);
  void done;
}
// Before the root starts, value is undefined: isComplete takes it (false).
const early: boolean = isComplete(parser.value, 'title');
void early;
const value = parser.end();
expectType<Equal<typeof value, Output>>();
expectType<Equal<typeof value.serves, number>>();

declare const body: ReadableStream<Uint8Array>;
const snapshots = partialJson(body, { schema: Recipe });
expectType<Equal<ElementOf<typeof snapshots>, PartialValue<Input> | Output>>();

// Without a schema: what the type argument says.
const untyped = createPartialParser();
expectType<Equal<ReturnType<typeof untyped.end>, unknown>>();

// @ts-expect-error isComplete asks about an object or an array
isComplete('title');
// @ts-expect-error a member's key is a string or an index
isComplete({}, true);
// @ts-expect-error the schema is a Standard Schema
createPartialParser({ schema: { parse: () => 1 } });
