// Proves the element types of `withNormalizedPath`: `normalizedPath` added to the record the other options make
// (`{ value }` alone), in every API and output form, and openJson's iterate() records. Compiled with `tsc --noEmit -p tests/types`; never run.
import {
  JsonArrayStream,
  createParser,
  openJson,
  parseJsonArray,
  type ElementWithNormalizedPath,
  type ElementWithOffset,
  type ElementWithPath,
  type ParsedElement,
  type PushParser,
} from 'sluice';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): void {}
type ElementOf<I> = I extends AsyncIterable<infer E> ? E : never;
type Output<S> = S extends TransformStream<unknown, infer O> ? O : never;
type Named<V> = { value: V } & ElementWithNormalizedPath<V>;

declare const response: Response;
declare const flag: boolean;

expectType<Equal<ParsedElement<{ withNormalizedPath: true }>, Named<unknown>>>();
expectType<Equal<ParsedElement<{ withNormalizedPath: true; output: 'bytes' }>, Named<Uint8Array>>>();
expectType<
  Equal<
    ParsedElement<{ withNormalizedPath: true; withPath: true; output: 'text' }>,
    ElementWithPath<string> & ElementWithNormalizedPath<string>
  >
>();
expectType<
  Equal<
    ParsedElement<{ withNormalizedPath: true; paths: string[]; withOffset: true }>,
    ElementWithPath<unknown> & ElementWithOffset<unknown> & ElementWithNormalizedPath<unknown>
  >
>();
expectType<Equal<ParsedElement<{ withNormalizedPath: false; output: 'text' }>, string>>();
expectType<Equal<ParsedElement<{ withNormalizedPath: boolean }>, unknown>>();

const parser = createParser({ path: '$..id', order: 'arrival', withNormalizedPath: true });
expectType<Equal<typeof parser, PushParser<Named<unknown>>>>();
for (const item of parser.push('{"id":1}')) expectType<Equal<typeof item.normalizedPath, string>>();

expectType<Equal<ElementOf<typeof iterated>, Named<string>>>();
const iterated = parseJsonArray(response, { withNormalizedPath: true, output: 'text' });
expectType<Equal<Output<typeof stream>, ElementWithPath<unknown> & ElementWithNormalizedPath<unknown>>>();
const stream = new JsonArrayStream({ withNormalizedPath: true, withPath: true });

expectType<Equal<typeof undecided, PushParser<unknown>>>();
const undecided = createParser({ withNormalizedPath: flag });

interface Order {
  id: number;
}
const doc = openJson(response);
expectType<Equal<typeof orders, AsyncIterableIterator<ElementWithNormalizedPath<Order>>>>();
const orders = doc.iterate<Order>('$.orders[*]', { withNormalizedPath: true });
expectType<Equal<typeof bare, AsyncIterableIterator<Order>>>();
const bare = doc.iterate<Order>('$.orders[*]');

// @ts-expect-error withNormalizedPath is a boolean
createParser({ withNormalizedPath: 1 });
