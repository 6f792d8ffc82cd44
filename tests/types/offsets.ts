// Proves the element types of `withOffset`: `{ value, offset, length }`, with `withPath` or `paths` the same
// intersected with `{ path, key, value }`, in every API and output form. Compiled with `tsc --noEmit -p
// tests/types`; never run.
import {
  JsonArrayStream,
  createParser,
  parseJsonArray,
  type ElementWithOffset,
  type ElementWithPath,
  type ParsedElement,
  type PushParser,
} from 'sluice';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): void {}
type ElementOf<I> = I extends AsyncIterable<infer E> ? E : never;
type Output<S> = S extends TransformStream<unknown, infer O> ? O : never;
type Both<V> = ElementWithPath<V> & ElementWithOffset<V>;

interface Article {
  id: number;
}

declare const response: Response;
declare const flag: boolean;

// MARK: one conditional type

expectType<Equal<ParsedElement<{ withOffset: true }>, ElementWithOffset<unknown>>>();
expectType<Equal<ParsedElement<{ withOffset: true }, Article>, ElementWithOffset<Article>>>();
expectType<Equal<ParsedElement<{ withOffset: true; output: 'bytes' }>, ElementWithOffset<Uint8Array>>>();
expectType<Equal<ParsedElement<{ withOffset: true; output: 'text'; withPath: true }>, Both<string>>>();
expectType<Equal<ParsedElement<{ withOffset: true; paths: string[]; ndjson: true }>, Both<unknown>>>();
expectType<Equal<ParsedElement<{ withOffset: false; output: 'text' }>, string>>();
expectType<Equal<ParsedElement<{ withOffset: false; withPath: true }, Article>, ElementWithPath<Article>>>();
// Not known statically, or rejected at run time: unknown.
expectType<Equal<ParsedElement<{ withOffset: boolean }>, unknown>>();
expectType<Equal<ParsedElement<{ withOffset: true; withPath: boolean }>, unknown>>();
expectType<Equal<ParsedElement<{ withOffset: true; paths: string[]; withPath: false }>, unknown>>();
expectType<Equal<ParsedElement<{ withOffset: true; output: 'bytes'; reviver: () => unknown }>, unknown>>();

// MARK: every API, inferred and with an explicit element type

const located = createParser({ withOffset: true, output: 'bytes' });
expectType<Equal<typeof located, PushParser<ElementWithOffset<Uint8Array>>>>();
for (const item of located.push('[1]')) {
  expectType<Equal<typeof item.offset, number>>();
  expectType<Equal<typeof item.length, number>>();
  expectType<Equal<typeof item.value, Uint8Array>>();
}
expectType<Equal<typeof articleParser, PushParser<ElementWithOffset<Article>>>>();
const articleParser = createParser<Article>({ path: '$.items[*]', withOffset: true });
expectType<Equal<typeof articleBoth, PushParser<Both<Article>>>>();
const articleBoth = createParser<Article>({ paths: ['$.a[*]', '$.b'], withOffset: true });
expectType<Equal<typeof articleNoOffset, PushParser<ElementWithPath<Article>>>>();
const articleNoOffset = createParser<Article>({ withPath: true, withOffset: false });

expectType<Equal<ElementOf<typeof iterated>, ElementWithOffset<Article>>>();
const iterated = parseJsonArray<Article>(response.body, { withOffset: true });
expectType<Equal<ElementOf<typeof iteratedBoth>, Both<Article>>>();
const iteratedBoth = parseJsonArray<Article>(response, { withOffset: true, withPath: true, ndjson: true });
expectType<Equal<ElementOf<typeof iteratedText>, Both<string>>>();
const iteratedText = parseJsonArray(response, { withOffset: true, withPath: true, output: 'text' });

expectType<Equal<Output<typeof stream>, ElementWithOffset<Article>>>();
const stream = new JsonArrayStream<Article>({ withOffset: true });
expectType<Equal<Output<typeof streamBoth>, Both<Uint8Array>>>();
const streamBoth = new JsonArrayStream({ paths: ['$'], withOffset: true, output: 'bytes' });

const undecided = createParser({ withOffset: flag });
expectType<Equal<typeof undecided, PushParser<unknown>>>();

// @ts-expect-error withOffset is a boolean
createParser({ withOffset: 1 });
// @ts-expect-error an explicit element type is for output 'value'
createParser<Article>({ withOffset: true, output: 'bytes' });
// @ts-expect-error withOfset is not an option
parseJsonArray('[]', { withOfset: true });
