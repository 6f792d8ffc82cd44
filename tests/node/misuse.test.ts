// Misuse of the parser's APIs, message by message: every mistake is a TypeError thrown at the call (or, for what
// only a later step can see, a chunk of the wrong type, at that step), and every message follows one grammar:
//   <api>: <subject> must be <expected>, got <actual>   |   <api>: <subject> <what is wrong>
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { createParser, init, JsonArrayStream, parseJsonArray, type ParserOptions } from '../../dist/index.js';
import { asyncIterableOf, collect, collectStream } from '../support/sources.js';

const OPTIONS = 'path, paths, output, reviver, withPath, ndjson, maxDepth, maxElementBytes';
const SOURCES =
  'a ReadableStream, a Response, an AsyncIterable of Uint8Array or string chunks, a Uint8Array or a string';

/** What `run` threw; toEqual then compares its class and message. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

const identity = (_key: string, value: unknown) => value;

/** A parser with `maxDepth` that was given `text`. */
function fed(maxDepth: number, text: string): ReturnType<typeof createParser> {
  const parser = createParser({ maxDepth, path: '$[9]' });
  parser.push(text);
  return parser;
}

// [what, options, the message after "<api>: "]
const OPTION_MISTAKES: [string, unknown, string][] = [
  ['a string', 'x', 'options must be an object, got "x"'],
  ['null', null, 'options must be an object, got null'],
  ['an array', [1], 'options must be an object, got Array'],
  ['a misspelt key', { outptu: 'bytes' }, `options.outptu is not an option; the options are ${OPTIONS}`],
  ['a misspelt key next to valid ones', { path: '$', maxdepth: 3 }, `options.maxdepth is not an option; the options are ${OPTIONS}`],
  ['a misspelt key set to undefined', { outptu: undefined }, `options.outptu is not an option; the options are ${OPTIONS}`],
  ['path not a string', { path: 5 }, 'options.path must be a string, got 5'],
  ['an unsupported path', { path: '$..a' }, `options.path "$..a" is not a supported path: unexpected "." at index 2 (supported: $, .name, ['name'], ["name"], [*], .*, [N])`],
  ['paths not an array', { paths: '$' }, 'options.paths must be an array of strings, got "$"'],
  ['paths empty', { paths: [] }, 'options.paths must hold at least one path'],
  ['a path in paths not a string', { paths: ['$', 1] }, 'options.paths[1] must be a string, got 1'],
  ['an unsupported path in paths', { paths: ['$', '$['] }, `options.paths[1] "$[" is not a supported path: unexpected end at index 2 (supported: $, .name, ['name'], ["name"], [*], .*, [N])`],
  ['33 paths', { paths: new Array(33).fill('$') }, 'options.paths holds 33 paths; at most 32 are supported'],
  ['path and paths together', { path: '$', paths: ['$'] }, 'options.path and options.paths cannot be used together'],
  ['paths with withPath: false', { paths: ['$'], withPath: false }, 'options.paths always emits { path, key, value }; remove withPath: false'],
  ['an unknown output', { output: 'json' }, `options.output must be 'value', 'bytes' or 'text', got "json"`],
  ['reviver not a function', { reviver: 5 }, 'options.reviver must be a function, got 5'],
  ['a reviver with bytes', { output: 'bytes', reviver: identity }, `options.reviver applies to output 'value' only, not 'bytes'`],
  ['a reviver with text', { output: 'text', reviver: identity }, `options.reviver applies to output 'value' only, not 'text'`],
  ['withPath not a boolean', { withPath: 'yes' }, 'options.withPath must be a boolean, got "yes"'],
  ['ndjson not a boolean', { ndjson: 1 }, 'options.ndjson must be a boolean, got 1'],
  ['maxDepth 0', { maxDepth: 0 }, 'options.maxDepth must be an integer from 1 to 1000000, got 0'],
  ['maxDepth negative', { maxDepth: -1 }, 'options.maxDepth must be an integer from 1 to 1000000, got -1'],
  ['maxDepth fractional', { maxDepth: 1.5 }, 'options.maxDepth must be an integer from 1 to 1000000, got 1.5'],
  ['maxDepth NaN', { maxDepth: NaN }, 'options.maxDepth must be an integer from 1 to 1000000, got NaN'],
  ['maxDepth a string', { maxDepth: '10' }, 'options.maxDepth must be an integer from 1 to 1000000, got "10"'],
  ['maxDepth over the range', { maxDepth: 1_000_001 }, 'options.maxDepth must be an integer from 1 to 1000000, got 1000001'],
  ['maxElementBytes 0', { maxElementBytes: 0 }, 'options.maxElementBytes must be an integer from 1 to 4294967295, got 0'],
  ['maxElementBytes Infinity', { maxElementBytes: Infinity }, 'options.maxElementBytes must be an integer from 1 to 4294967295, got Infinity'],
  ['maxElementBytes 2^32', { maxElementBytes: 2 ** 32 }, 'options.maxElementBytes must be an integer from 1 to 4294967295, got 4294967296'],
  ['maxElementBytes a BigInt', { maxElementBytes: 10n }, 'options.maxElementBytes must be an integer from 1 to 4294967295, got 10n'],
];

describe('options: a TypeError at the call, naming the API, the option, what was expected and what it got', () => {
  test.each(OPTION_MISTAKES)('%s', (_, options, message) => {
    const given = options as ParserOptions;
    expect(thrown(() => createParser(given))).toEqual(new TypeError(`createParser(): ${message}`));
    // Before the module is asked for and before the source is touched: the call itself throws.
    const source = new ReadableStream<Uint8Array>();
    expect(thrown(() => parseJsonArray(source, given))).toEqual(new TypeError(`parseJsonArray(): ${message}`));
    expect(source.locked).toBe(false);
    expect(thrown(() => new JsonArrayStream(given))).toEqual(new TypeError(`new JsonArrayStream(): ${message}`));
  });

  test('the limits at the ends of their ranges are accepted', () => {
    expect(createParser({ maxDepth: 1, path: '$' }).push('[1]')).toEqual([[1]]);
    expect(createParser({ maxDepth: 1_000_000, maxElementBytes: 4294967295 }).push('[1,')).toEqual([1]);
    expect(createParser({ maxElementBytes: 1 }).push('[1,')).toEqual([1]);
  });

  test('the native parser enforces the largest maxDepth as given (it does not clamp below it)', () => {
    const depth = 1_000_000;
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(fed(depth, nested(depth)).end()).toEqual([]);
    expect(thrown(() => fed(depth, nested(depth + 1)))).toMatchObject({ code: 'DEPTH_LIMIT', offset: depth });
  });

  test('only own enumerable string keys are options: symbols, inherited and hidden keys are not looked at', () => {
    const symbol = { path: '$.a[*]', [Symbol('note')]: 1 } as ParserOptions;
    expect(createParser(symbol).push('{"a":[1]}')).toEqual([1]);
    const inherited = Object.create({ path: '$.a[*]', note: 1 }) as ParserOptions;
    expect(createParser(inherited).push('{"a":[2]}')).toEqual([2]);
    const hidden = Object.defineProperty({ path: '$.a[*]' }, 'note', { value: 1, enumerable: false });
    expect(createParser(hidden).push('{"a":[3]}')).toEqual([3]);
    expect(createParser({ path: undefined, maxDepth: undefined }).push('[4]')).toEqual([4]);
  });
});

describe('chunks: a TypeError naming the API that read the chunk', () => {
  const CHUNKS: [string, unknown, string][] = [
    ['a number', 123, '123'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['an object', {}, 'object'],
    ['an array', [1, 2], 'Array'],
    ['a Uint16Array', new Uint16Array(2), 'Uint16Array'],
    ['a DataView', new DataView(new ArrayBuffer(2)), 'DataView'],
  ];

  test.each(CHUNKS)('parser.push() of %s, and the parser stays usable', (_, chunk, got) => {
    const parser = createParser();
    expect(thrown(() => parser.push(chunk as Uint8Array))).toEqual(
      new TypeError(`parser.push(): chunk must be a Uint8Array, ArrayBuffer or string, got ${got}`),
    );
    expect(parser.push('[1]')).toEqual([1]);
    parser.close();
  });

  test('a chunk of a parseJsonArray source, after the elements before it', async () => {
    const result = await collect(parseJsonArray(asyncIterableOf<unknown>(['[1,', 2]) as AsyncIterable<string>));
    expect(result.values).toEqual([1]);
    expect(result.error).toEqual(
      new TypeError('parseJsonArray(): each chunk of source must be a Uint8Array, ArrayBuffer or string, got 2'),
    );
  });

  test('a chunk written to a JsonArrayStream', async () => {
    const stream = new JsonArrayStream();
    const writer = stream.writable.getWriter();
    writer.write(3 as unknown as string).catch(() => {});
    expect((await collectStream(stream.readable)).error).toEqual(
      new TypeError('JsonArrayStream.writable: each chunk must be a Uint8Array, ArrayBuffer or string, got 3'),
    );
  });
});

describe('sources: a TypeError at the call', () => {
  test.each([
    ['a number', 42, '42'],
    ['undefined', undefined, 'undefined'],
    ['an array of chunks (not async iterable)', [new Uint8Array(1)], 'Array'],
    ['a sync iterable', new Set(['[]']), 'Set'],
  ])('parseJsonArray() of %s', (_, source, got) => {
    expect(thrown(() => parseJsonArray(source as unknown as string))).toEqual(
      new TypeError(`parseJsonArray(): source must be ${SOURCES}, got ${got}`),
    );
  });

  test('a locked stream and a Response already read', async () => {
    const stream = new ReadableStream();
    stream.getReader();
    expect(thrown(() => parseJsonArray(stream))).toEqual(
      new TypeError('parseJsonArray(): source is a locked ReadableStream (another reader holds it)'),
    );
    const response = new Response('[]');
    await response.text();
    expect(thrown(() => parseJsonArray(response))).toEqual(
      new TypeError('parseJsonArray(): source is a Response whose body was already read'),
    );
  });
});

describe('calls in the wrong state', () => {
  test('push() and end() after end() or close()', () => {
    const ended = createParser();
    ended.push('[]');
    ended.end();
    expect(thrown(() => ended.push('[]'))).toEqual(new TypeError('parser.push(): the parser was closed by end()'));
    expect(thrown(() => ended.end())).toEqual(new TypeError('parser.end(): the parser was closed by end()'));
    const closed = createParser();
    closed.close();
    expect(thrown(() => closed.push('[]'))).toEqual(new TypeError('parser.push(): the parser was closed by close()'));
  });

  test('createParser() before init(): in a fresh process', () => {
    const script = `
      const { createParser } = await import(${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)});
      try { createParser(); } catch (error) { console.log(JSON.stringify([error.constructor.name, error.message])); }`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([
      'TypeError',
      'createParser(): the WebAssembly module is not loaded yet: call `await init()` first',
    ]);
  });

  test('init() of something that is no module rejects with a TypeError, and the loaded module stays', async () => {
    const message = 'init(): module must be a WebAssembly.Module, a URL, a URL string, a Response or bytes, got';
    await expect(init(42 as unknown as string)).rejects.toEqual(new TypeError(`${message} 42`));
    await expect(init(Promise.resolve(null as unknown as string))).rejects.toEqual(new TypeError(`${message} null`));
    expect(createParser().push('[1]')).toEqual([1]);
  });
});
