// Proves the public types users see: element types follow `output` and `withPath`, wrong options do not compile.
// Compiled with `tsc --noEmit -p tests/types`; never run.
import {
  JsonArrayStream,
  JsonLimitError,
  JsonSyntaxError,
  SluiceLoadError,
  createParser,
  init,
  parseJsonArray,
  type ElementWithPath,
  type IntegersOption,
  type InvalidLine,
  type JsonLimitErrorCode,
  type JsonSyntaxErrorCode,
  type ParsedElement,
  type ParserOptions,
  type PushParser,
} from 'sluice';
import {
  createPartialParser,
  partialJson,
  type PartialJsonOptions,
  type PartialParser,
  type PartialValue,
} from 'sluice';

// Exact type equality (not mere assignability): `any` or a wider type fails.
type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): void {}
type ElementOf<I> = I extends AsyncIterable<infer E> ? E : never;
type Output<S> = S extends TransformStream<unknown, infer O> ? O : never;

interface Article {
  id: number;
  title: string;
}

declare const response: Response;
declare const bytes: Uint8Array;
declare const nodeStream: AsyncIterable<Uint8Array>;

// MARK: init

await init();
await init(new URL('https://example.com/sluice.simd.wasm'));
await init('https://example.com/sluice.scalar.wasm');
await init(response);
await init(fetch('https://example.com/sluice.simd.wasm'));
await init(new ArrayBuffer(8));
await init(bytes);
declare const compiled: WebAssembly.Module;
await init(compiled);
// @ts-expect-error null is not a module source (a number would pass: lib.dom declares WebAssembly.Module empty)
await init(null);

// MARK: parseJsonArray element types

expectType<Equal<ElementOf<ReturnType<typeof parseJsonArray<Article>>>, Article>>();
const articles = parseJsonArray<Article>(response.body, { path: '$._embedded.articles[*]' });
expectType<Equal<ElementOf<typeof articles>, Article>>();
expectType<Equal<ElementOf<ReturnType<typeof parseJsonArray>>, unknown>>();

expectType<Equal<ElementOf<typeof unknownDefault>, unknown>>();
const unknownDefault = parseJsonArray('[1,2]');

const raw = parseJsonArray(response, { output: 'bytes' });
expectType<Equal<ElementOf<typeof raw>, Uint8Array>>();
const texts = parseJsonArray(nodeStream, { output: 'text', ndjson: true });
expectType<Equal<ElementOf<typeof texts>, string>>();
const values = parseJsonArray<number>(bytes, { output: 'value' });
expectType<Equal<ElementOf<typeof values>, number>>();

const withPath = parseJsonArray<Article>(response.body, { path: '$.data[*]', withPath: true });
expectType<Equal<ElementOf<typeof withPath>, ElementWithPath<Article>>>();
const several = parseJsonArray(response.body, { paths: ['$.a[*]', '$.b[*]'] });
expectType<Equal<ElementOf<typeof several>, ElementWithPath<unknown>>>();
const bytesWithPath = parseJsonArray(response.body, { paths: ['$.a[*]'], output: 'bytes' });
expectType<Equal<ElementOf<typeof bytesWithPath>, ElementWithPath<Uint8Array>>>();
const textWithPath = parseJsonArray(response.body, { withPath: true, output: 'text' });
expectType<Equal<ElementOf<typeof textWithPath>, ElementWithPath<string>>>();

for await (const item of withPath) {
  expectType<Equal<typeof item.path, string>>();
  expectType<Equal<typeof item.key, string | number | null>>();
  expectType<Equal<typeof item.value, Article>>();
}

// Options known only as ParserOptions: the element type is honestly unknown.
declare const general: ParserOptions;
const generic = parseJsonArray(response.body, general);
expectType<Equal<ElementOf<typeof generic>, unknown>>();

// The iterator can be stopped early (break calls return()).
const iterator = parseJsonArray('[1]');
await iterator.return?.();

// options.integers: one name, one type, in every API that reads values.
const ids = parseJsonArray<bigint | number>('[12345678901234567890]', { integers: 'bigint' });
expectType<Equal<ElementOf<typeof ids>, bigint | number>>();
const integersOption: IntegersOption = 'string';
createPartialParser({ integers: integersOption, numbers: 'partial' });
expectType<Equal<NonNullable<ParserOptions['integers']>, NonNullable<PartialJsonOptions['integers']>>>();

const revived = parseJsonArray<Date>('["2024-01-01"]', { reviver: (_key, value) => new Date(value) });
expectType<Equal<ElementOf<typeof revived>, Date>>();

// MARK: option mistakes

// @ts-expect-error output must be 'value', 'bytes' or 'text'
parseJsonArray('[]', { output: 'json' });
// @ts-expect-error path is a string
parseJsonArray('[]', { path: ['$[*]'] });
// @ts-expect-error paths is an array of strings
parseJsonArray('[]', { paths: '$[*]' });
// @ts-expect-error maxDepth is a number
parseJsonArray('[]', { maxDepth: '10' });
// @ts-expect-error ndjson is a boolean
parseJsonArray('[]', { ndjson: 'yes' });
// @ts-expect-error a reviver is a function
parseJsonArray('[]', { reviver: 'date' });
// @ts-expect-error integers is 'number', 'bigint' or 'string'
parseJsonArray('[]', { integers: 'big' });
// @ts-expect-error integers is the partial parser's option too, with the same values
createPartialParser({ integers: true });
// @ts-expect-error withPath is a boolean
parseJsonArray('[]', { withPath: 1 });
// @ts-expect-error a number is not a source
parseJsonArray(42);
// @ts-expect-error a plain array of chunks is not a source (only async iterables are)
parseJsonArray([new Uint8Array(1)]);

// MARK: createParser

const parser = createParser<Article>({ path: '$.items[*]' });
expectType<Equal<typeof parser, PushParser<Article>>>();
expectType<Equal<ReturnType<typeof parser.push>, Article[]>>();
expectType<Equal<ReturnType<typeof parser.end>, Article[]>>();
parser.push(bytes);
parser.push('{"items":[');
parser.push(new ArrayBuffer(4));
// @ts-expect-error a number is not a chunk
parser.push(1);
parser.close();

expectType<Equal<ReturnType<typeof bytesParser.push>, Uint8Array[]>>();
const bytesParser = createParser({ output: 'bytes' });
const textParser = createParser({ output: 'text', withPath: true });
expectType<Equal<ReturnType<typeof textParser.end>, ElementWithPath<string>[]>>();
const defaultParser = createParser();
expectType<Equal<typeof defaultParser, PushParser<unknown>>>();

// MARK: one conditional type, every API

// ParsedElement computes what the signatures of all three APIs give: the same options, the same element type.
expectType<Equal<ParsedElement<{ output: 'bytes' }>, Uint8Array>>();
expectType<Equal<ParsedElement<{ output: 'text'; withPath: true }>, ElementWithPath<string>>>();
expectType<Equal<ParsedElement<{ paths: string[]; output: 'bytes' }>, ElementWithPath<Uint8Array>>>();
expectType<Equal<ParsedElement<{ path: string }, Article>, Article>>();
expectType<Equal<ParsedElement<{ withPath: true; ndjson: true }, Article>, ElementWithPath<Article>>>();
expectType<Equal<ParsedElement<Record<never, never>, Article>, Article>>();
expectType<Equal<ParsedElement<ParserOptions>, unknown>>();
// Combinations the parser rejects at run time, or does not tell statically: unknown.
expectType<Equal<ParsedElement<{ output: 'bytes'; reviver: () => unknown }>, unknown>>();
expectType<Equal<ParsedElement<{ paths: string[]; withPath: false }>, unknown>>();
expectType<Equal<ParsedElement<{ withPath: boolean }>, unknown>>();
expectType<Equal<ParsedElement<{ output: 'bytes' | 'text' }>, unknown>>();
expectType<Equal<ParsedElement<any>, unknown>>();
// A union of options: the union of their element types (the overloads gave unknown).
expectType<Equal<ParsedElement<{ output: 'bytes' } | { output: 'text' }>, Uint8Array | string>>();

declare const flag: boolean;
const either = createParser(flag ? ({ output: 'bytes' } as const) : ({ output: 'text' } as const));
expectType<Equal<typeof either, PushParser<Uint8Array | string>>>();
const undecided = createParser({ withPath: flag });
expectType<Equal<typeof undecided, PushParser<unknown>>>();
declare const anyOptions: any;
// `any` options: unknown elements (the overloads picked the first, ElementWithPath<Uint8Array>).
expectType<Equal<typeof anyParser, PushParser<unknown>>>();
const anyParser = createParser(anyOptions);
// An explicit `any` element type is kept, bare and wrapped.
expectType<Equal<ReturnType<typeof createParser<any>>, PushParser<any>>>();
expectType<Equal<typeof anyWrapped, PushParser<ElementWithPath<any>>>>();
const anyWrapped = createParser<any>({ withPath: true });

// An explicit element type with withPath or paths: ElementWithPath<T>, in every API.
expectType<Equal<typeof articleWrapped, PushParser<ElementWithPath<Article>>>>();
const articleWrapped = createParser<Article>({ paths: ['$.a[*]', '$.b[*]'] });
expectType<Equal<ElementOf<typeof articlePaths>, ElementWithPath<Article>>>();
const articlePaths = parseJsonArray<Article>(response, { paths: ['$.a[*]'] });
expectType<Equal<Output<typeof articleStream>, ElementWithPath<Article>>>();
const articleStream = new JsonArrayStream<Article>({ withPath: true, ndjson: true });
expectType<Equal<Output<typeof articleRevived>, Date>>();
const articleRevived = new JsonArrayStream<Date>({ reviver: (_key, value) => new Date(value) });
// The reviver's parameters are typed from the options without an explicit element type too.
const inferredReviver = createParser({ reviver: (key, value) => (key === '' ? value : String(value)), withPath: true });
expectType<Equal<typeof inferredReviver, PushParser<ElementWithPath<unknown>>>>();
// The same options, the same element type, whichever API reads them.
const shared = { paths: ['$.a'], output: 'text' } as const;
expectType<Equal<ReturnType<typeof createParser<unknown, typeof shared>>, PushParser<ElementWithPath<string>>>>();
expectType<Equal<ElementOf<ReturnType<typeof parseJsonArray<unknown, typeof shared>>>, ElementWithPath<string>>>();
expectType<Equal<Output<typeof sharedStream>, ElementWithPath<string>>>();
const sharedStream = new JsonArrayStream(shared);

// @ts-expect-error an explicit element type is for output 'value' (bytes elements are Uint8Array)
createParser<Article>({ output: 'bytes' });
// @ts-expect-error an explicit element type is for output 'value'
parseJsonArray<Article>('[]', { output: 'text', withPath: true });

// MARK: onInvalidLine

// The report is the error the line would have thrown, with its text; the parser counts them.
const tolerant = createParser({
  ndjson: true,
  onInvalidLine: (line) => {
    expectType<Equal<typeof line, InvalidLine>>();
    const code: JsonSyntaxErrorCode | JsonLimitErrorCode = line.code;
    const text: string = line.lineText;
    void [code, text, line.offset, line.line, line.column];
  },
});
const skippedCount: number = tolerant.skippedLines;
void skippedCount;
parseJsonArray('1\n', { ndjson: true, onInvalidLine: (line) => void line.lineText });

// MARK: misspelt options

// A key the options do not have is a compile error, next to valid keys too (runtime: a TypeError naming it).
// @ts-expect-error outptu is not an option
createParser({ outptu: 'bytes' });
// @ts-expect-error outptu is not an option
createParser({ path: '$', outptu: 'bytes' });
// @ts-expect-error maxdepth is not an option
createParser({ output: 'text', maxdepth: 3 });
// @ts-expect-error pathes is not an option
parseJsonArray('[]', { withPath: true, pathes: ['$'] });
// @ts-expect-error wat is not an option
new JsonArrayStream({ path: '$', wat: 1 });
// @ts-expect-error wat is not an option
new JsonArrayStream<Article>({ withPath: true, wat: 1 });

// MARK: JsonArrayStream

const stream = new JsonArrayStream<Article>({ path: '$.data[*]' });
expectType<Equal<Output<typeof stream>, Article>>();
const piped = response.body!.pipeThrough(new JsonArrayStream<Article>());
expectType<Equal<typeof piped, ReadableStream<Article>>>();
const bytesStream = new JsonArrayStream({ output: 'bytes' }, { highWaterMark: 4 }, { highWaterMark: 16 });
expectType<Equal<Output<typeof bytesStream>, Uint8Array>>();
const pathStream = new JsonArrayStream({ paths: ['$.a', '$.b'], output: 'text' });
expectType<Equal<Output<typeof pathStream>, ElementWithPath<string>>>();
const anyStream: TransformStream<Uint8Array | string, unknown> = new JsonArrayStream();
void anyStream;
const writable: WritableStream<Uint8Array> = stream.writable;
void writable;
// @ts-expect-error output must be 'value', 'bytes' or 'text'
new JsonArrayStream({ output: 'array' });
const isStream: boolean = (stream as unknown) instanceof JsonArrayStream;
void isStream;

// MARK: errors

declare const caught: unknown;
if (caught instanceof JsonSyntaxError) {
  expectType<Equal<typeof caught.code, JsonSyntaxErrorCode>>();
  const position: [number, number, number] = [caught.offset, caught.line, caught.column];
  void position;
  const asSyntax: SyntaxError = caught;
  void asSyntax;
  // @ts-expect-error code is readonly
  caught.code = 'EXPECTED_VALUE';
}
if (caught instanceof JsonLimitError) {
  expectType<Equal<typeof caught.code, JsonLimitErrorCode>>();
  const asRange: RangeError = caught;
  void asRange;
}
if (caught instanceof SluiceLoadError) {
  const cause: unknown = caught.cause;
  void cause;
}
const code: JsonSyntaxErrorCode = 'UNEXPECTED_END';
void code;
// @ts-expect-error not a syntax error code
const wrongCode: JsonSyntaxErrorCode = 'DEPTH_LIMIT';
void wrongCode;

// MARK: partial JSON

interface ToolArgs {
  title: string;
  tags: string[];
  meta: { score: number };
}
const partial = createPartialParser<ToolArgs>();
expectType<Equal<typeof partial, PartialParser<ToolArgs>>>();
const snapshot = partial.push('{"title":"He');
expectType<Equal<typeof snapshot, PartialValue<ToolArgs> | undefined>>();
if (snapshot !== undefined) {
  // Every member may be missing yet, at every level, and nothing can be written.
  expectType<Equal<typeof snapshot.title, string | undefined>>();
  expectType<Equal<typeof snapshot.tags, readonly string[] | undefined>>();
  expectType<Equal<typeof snapshot.meta, { readonly score?: number } | undefined>>();
  // @ts-expect-error snapshots are read-only
  snapshot.title = 'x';
  // @ts-expect-error snapshot arrays are read-only
  snapshot.tags?.push('x');
}
partial.push(bytes);
partial.push(new ArrayBuffer(2));
// @ts-expect-error a number is not a delta
partial.push(1);
expectType<Equal<ReturnType<typeof partial.end>, ToolArgs>>();
expectType<Equal<typeof partial.value, PartialValue<ToolArgs> | undefined>>();
expectType<Equal<typeof partial.pending, readonly (string | number)[] | null>>();
// @ts-expect-error pending is read-only
partial.pending = null;

const untyped = createPartialParser({ numbers: 'partial', maxDepth: 64, maxElementBytes: 1 << 20 });
expectType<Equal<ReturnType<typeof untyped.push>, unknown>>();
// @ts-expect-error numbers is 'complete' or 'partial'
createPartialParser({ numbers: 'all' });
// @ts-expect-error the partial parser has no path
createPartialParser({ path: '$' });
const partialOptions: PartialJsonOptions = { numbers: 'complete' };
void partialOptions;

const growing = partialJson<ToolArgs>(response.body, { numbers: 'partial' });
expectType<Equal<ElementOf<typeof growing>, PartialValue<ToolArgs>>>();
expectType<Equal<ElementOf<ReturnType<typeof partialJson>>, unknown>>();
partialJson(nodeStream);
partialJson('{"a":1}');
// @ts-expect-error a number is not a source
partialJson(42);
