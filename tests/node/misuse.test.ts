// Misuse of the parser's, the lazy documents' and the encoders' APIs, message by message: every mistake is a TypeError thrown at
// the call (or, for what only a later step can see, a chunk of the wrong type, at that step), and every message
// follows one grammar:
//   <api>: <subject> must be <expected>, got <actual>   |   <api>: <subject> <what is wrong>
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import {
  createParser,
  init,
  JsonArrayStream,
  JsonArrayStringifyStream,
  JsonLinesStringifyStream,
  rawJson,
  StreamedJsonResponse,
  stringifyStream,
  type StringifyOptions,
  lazyParse,
  openJson,
  parseJsonArray,
  releaseLazy,
  type IterateOptions,
  type LazyParseOptions,
  type OpenJsonOptions,
  type ParserOptions,
} from '../../dist/index.js';
import { asyncIterableOf, collect, collectStream } from '../support/sources.js';

const OPTIONS =
  'path, paths, order, output, reviver, integers, withPath, withOffset, withNormalizedPath, ndjson, maxDepth, maxElementBytes, onInvalidLine';
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
  [
    'a misspelt key next to valid ones',
    { path: '$', maxdepth: 3 },
    `options.maxdepth is not an option; the options are ${OPTIONS}`,
  ],
  [
    'a misspelt key set to undefined',
    { outptu: undefined },
    `options.outptu is not an option; the options are ${OPTIONS}`,
  ],
  ['path not a string', { path: 5 }, 'options.path must be a string, got 5'],
  [
    'a path that needs arrival order',
    { path: '$..a' },
    `options.path "$..a" at 1: RFC 9535 order of the descendant segment puts matches of a node before those inside its descendants, so a match could wait for the end of the document; with order: 'arrival' each match comes once, as its last byte arrives`,
  ],
  [
    'a path that does not stream yet',
    { path: '$..a[?@.b]', order: 'arrival' },
    'options.path "$..a[?@.b]" at 5: a filter selector is not supported in a stream yet (a stream takes names, *, indices >= 0, slices without negative parts, .. and unions, and in the last segment of a query without .. filters comparing or testing @ queries of names and indices >= 0 with literals; any other query needs a first part of those without .. and ending in *, such a slice or a filter, the rest being evaluated on each node it selects, or a negative index or slice after a first part without .., the rest being evaluated on each element it selects)',
  ],
  ['order not one of its values', { order: 'document' }, `options.order must be 'rfc' or 'arrival', got "document"`],
  ['paths not an array', { paths: '$' }, 'options.paths must be an array of strings, got "$"'],
  ['paths empty', { paths: [] }, 'options.paths must hold at least one path'],
  ['a path in paths not a string', { paths: ['$', 1] }, 'options.paths[1] must be a string, got 1'],
  [
    'an unsupported path in paths',
    { paths: ['$', '$['] },
    `options.paths[1] "$[" at 2: expected a selector (a quoted name, "*", an index, a slice or "?" and a filter), found the end`,
  ],
  ['33 paths', { paths: new Array(33).fill('$') }, 'options.paths holds 33 paths; at most 32 are supported'],
  ['path and paths together', { path: '$', paths: ['$'] }, 'options.path and options.paths cannot be used together'],
  [
    'paths with withPath: false',
    { paths: ['$'], withPath: false },
    'options.paths always emits { path, key, value }; remove withPath: false',
  ],
  ['an unknown output', { output: 'json' }, `options.output must be 'value', 'bytes' or 'text', got "json"`],
  ['reviver not a function', { reviver: 5 }, 'options.reviver must be a function, got 5'],
  [
    'a reviver with bytes',
    { output: 'bytes', reviver: identity },
    `options.reviver applies to output 'value' only, not 'bytes'`,
  ],
  [
    'a reviver with text',
    { output: 'text', reviver: identity },
    `options.reviver applies to output 'value' only, not 'text'`,
  ],
  ['withPath not a boolean', { withPath: 'yes' }, 'options.withPath must be a boolean, got "yes"'],
  ['withOffset not a boolean', { withOffset: 1 }, 'options.withOffset must be a boolean, got 1'],
  [
    'withNormalizedPath not a boolean',
    { withNormalizedPath: 'yes' },
    'options.withNormalizedPath must be a boolean, got "yes"',
  ],
  ['ndjson not a boolean', { ndjson: 1 }, 'options.ndjson must be a boolean, got 1'],
  ['maxDepth 0', { maxDepth: 0 }, 'options.maxDepth must be an integer from 1 to 1000000, got 0'],
  ['maxDepth negative', { maxDepth: -1 }, 'options.maxDepth must be an integer from 1 to 1000000, got -1'],
  ['maxDepth fractional', { maxDepth: 1.5 }, 'options.maxDepth must be an integer from 1 to 1000000, got 1.5'],
  ['maxDepth NaN', { maxDepth: NaN }, 'options.maxDepth must be an integer from 1 to 1000000, got NaN'],
  ['maxDepth a string', { maxDepth: '10' }, 'options.maxDepth must be an integer from 1 to 1000000, got "10"'],
  [
    'maxDepth over the range',
    { maxDepth: 1_000_001 },
    'options.maxDepth must be an integer from 1 to 1000000, got 1000001',
  ],
  [
    'maxElementBytes 0',
    { maxElementBytes: 0 },
    'options.maxElementBytes must be an integer from 1 to 4294967295, got 0',
  ],
  [
    'maxElementBytes Infinity',
    { maxElementBytes: Infinity },
    'options.maxElementBytes must be an integer from 1 to 4294967295, got Infinity',
  ],
  [
    'maxElementBytes 2^32',
    { maxElementBytes: 2 ** 32 },
    'options.maxElementBytes must be an integer from 1 to 4294967295, got 4294967296',
  ],
  [
    'maxElementBytes a BigInt',
    { maxElementBytes: 10n },
    'options.maxElementBytes must be an integer from 1 to 4294967295, got 10n',
  ],
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
    // An inherited option is not the caller's: the default path applies (options_own.test.ts pollutes
    // Object.prototype itself).
    const inherited = Object.create({ path: '$.a[*]', note: 1 }) as ParserOptions;
    expect(createParser(inherited).push('[2]')).toEqual([2]);
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

  test('createParser() and lazyParse() before init(): in a fresh process', () => {
    const script = `
      const { createParser, lazyParse } = await import(${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)});
      const out = [];
      for (const call of [() => createParser(), () => lazyParse('[]')]) {
        try { call(); } catch (error) { out.push([error.constructor.name, error.message]); }
      }
      console.log(JSON.stringify(out));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([
      ['TypeError', 'createParser(): the WebAssembly module is not loaded yet: call `await init()` first'],
      ['TypeError', 'lazyParse(): the WebAssembly module is not loaded yet: call `await init()` first'],
    ]);
  });

  test('init() of something that is no module rejects with a TypeError, and the loaded module stays', async () => {
    const message = 'init(): module must be a WebAssembly.Module, a URL, a URL string, a Response or bytes, got';
    await expect(init(42 as unknown as string)).rejects.toEqual(new TypeError(`${message} 42`));
    await expect(init(Promise.resolve(null as unknown as string))).rejects.toEqual(new TypeError(`${message} null`));
    expect(createParser().push('[1]')).toEqual([1]);
  });
});

// The lazy documents: openJson() and its requests, lazyParse() and its proxies.
const OPEN_JSON_OPTIONS = 'transient, maxDepth, maxElementBytes, integers';
const SINGULAR = `openJson takes singular queries ($, .name, ['name'], ["name"], [N]), not`;
const SEVERAL = 'use doc.iterate() for several values';
const ITERATED =
  'openJson iterates one array or object (names and indices >= 0 to it, then [*], .*, a slice or a filter, then ' +
  'any segments)';
const ANYWHERE = "use parseJsonArray(source, { path, order: 'arrival' }), which reads the whole document";
const DOCUMENT = '{"total":3,"rows":[{"id":1,"lines":[1,2]},{"id":2,"lines":[3]}]}';

/** What `promise` rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('nothing was thrown');
    },
    (error: unknown) => error,
  );
}

describe('openJson(): options and source, a TypeError at the call', () => {
  const MISTAKES: [string, unknown, string][] = [
    ['a string', 'x', 'options must be an object, got "x"'],
    ['null', null, 'options must be an object, got null'],
    ['an array', [1], 'options must be an object, got Array'],
    [
      'a misspelt key',
      { transient: true, maxdepth: 3 },
      `options.maxdepth is not an option; the options are ${OPEN_JSON_OPTIONS}`,
    ],
    [
      'an option of parseJsonArray',
      { path: '$' },
      `options.path is not an option; the options are ${OPEN_JSON_OPTIONS}`,
    ],
    ['transient not a boolean', { transient: 'yes' }, 'options.transient must be a boolean, got "yes"'],
    ['maxDepth 0', { maxDepth: 0 }, 'options.maxDepth must be an integer from 1 to 1000000, got 0'],
    ['maxDepth fractional', { maxDepth: 1.5 }, 'options.maxDepth must be an integer from 1 to 1000000, got 1.5'],
    ['maxDepth a string', { maxDepth: '10' }, 'options.maxDepth must be an integer from 1 to 1000000, got "10"'],
    [
      'maxDepth over the range',
      { maxDepth: 1_000_001 },
      'options.maxDepth must be an integer from 1 to 1000000, got 1000001',
    ],
    [
      'maxElementBytes 0',
      { maxElementBytes: 0 },
      'options.maxElementBytes must be an integer from 1 to 4294967295, got 0',
    ],
    [
      'maxElementBytes 2^32',
      { maxElementBytes: 2 ** 32 },
      'options.maxElementBytes must be an integer from 1 to 4294967295, got 4294967296',
    ],
  ];

  test.each(MISTAKES)('options: %s', (_, options, message) => {
    const source = new ReadableStream<Uint8Array>();
    expect(thrown(() => openJson(source, options as OpenJsonOptions))).toEqual(new TypeError(`openJson(): ${message}`));
    expect(source.locked).toBe(false);
  });

  test.each([
    ['a number', 42, '42'],
    ['undefined', undefined, 'undefined'],
    ['an array of chunks (not async iterable)', [new Uint8Array(1)], 'Array'],
    ['a sync iterable', new Set(['[]']), 'Set'],
  ])('source: %s', (_, source, got) => {
    expect(thrown(() => openJson(source as unknown as string))).toEqual(
      new TypeError(`openJson(): source must be ${SOURCES}, got ${got}`),
    );
  });

  test('source: a locked stream and a Response already read', async () => {
    const stream = new ReadableStream();
    stream.getReader();
    expect(thrown(() => openJson(stream))).toEqual(
      new TypeError('openJson(): source is a locked ReadableStream (another reader holds it)'),
    );
    const response = new Response('[]');
    await response.text();
    expect(thrown(() => openJson(response))).toEqual(
      new TypeError('openJson(): source is a Response whose body was already read'),
    );
  });

  test('a chunk of the wrong type rejects the request that reads it, after the values before it', async () => {
    async function* chunks(): AsyncGenerator<unknown> {
      yield '{"a":1,';
      yield 2;
    }
    const doc = openJson(chunks() as AsyncIterable<string>);
    expect(await doc.get('$.a')).toBe(1);
    const expected = new TypeError(
      'openJson(): each chunk of source must be a Uint8Array, ArrayBuffer or string, got 2',
    );
    expect(await rejection(doc.get('$.b'))).toEqual(expected);
    expect(await rejection(doc.get('$.c'))).toEqual(expected);
  });
});

describe('doc.get() and doc.iterate(): paths and options', () => {
  // [what, path, the message after "<api>: "]
  const PATHS: [string, unknown, string][] = [
    ['not a string', 5, 'path must be a string, got 5'],
    [
      'not starting with $',
      'rows',
      'path "rows" at 0: expected "$" (a query starts with the root identifier), found "r"',
    ],
    [
      'unclosed',
      '$[',
      'path "$[" at 2: expected a selector (a quoted name, "*", an index, a slice or "?" and a filter), found the end',
    ],
    [
      'an index past 2^53 - 1',
      '$[9007199254740992]',
      'path "$[9007199254740992]" at 2: 9007199254740992 is outside the integers of I-JSON, ±(2^53 - 1)',
    ],
  ];

  test.each(PATHS)('a path %s', async (_, path, message) => {
    const doc = openJson(DOCUMENT);
    expect(await rejection(doc.get(path as string))).toEqual(new TypeError(`doc.get(): ${message}`));
    expect(thrown(() => doc.iterate(path as string))).toEqual(new TypeError(`doc.iterate(): ${message}`));
    expect(await doc.get('$.total')).toBe(3); // the document is still usable
  });

  test('2^53 - 1 is an index (of no value here)', async () => {
    expect(await openJson(DOCUMENT).get('$.rows[9007199254740991]')).toBe(undefined);
  });

  test('get() of a query that is not singular', async () => {
    const doc = openJson(DOCUMENT);
    const cases: [string, number, string][] = [
      ['$.rows[*]', 7, 'a wildcard selector'],
      ['$..a', 1, 'a descendant segment'],
      ["$['a','b']", 1, 'a union'],
      ['$.rows[0:1]', 7, 'a slice selector'],
      ['$.rows[?@.id]', 7, 'a filter selector'],
    ];
    for (const [path, at, what] of cases) {
      expect(await rejection(doc.get(path))).toEqual(
        new TypeError(`doc.get(): path ${JSON.stringify(path)} at ${at}: ${SINGULAR} ${what}; ${SEVERAL}`),
      );
    }
    expect(await doc.get('$.rows[-1].id')).toBe(2);
  });

  test('iterate() of a query that is no streamed container', async () => {
    const doc = openJson(DOCUMENT);
    const cases: [string, string][] = [
      ['$', `path "$" selects one value, not the elements of a container; ${ITERATED}; use doc.get() for one value`],
      [
        '$.rows',
        `path "$.rows" selects one value, not the elements of a container; ${ITERATED}; use doc.get() for one value`,
      ],
      [
        '$..a',
        `path "$..a" at 1: a descendant segment before the iterated container: its nodes may be anywhere; ${ITERATED}; ${ANYWHERE}`,
      ],
      [
        "$['a','b'][*]",
        `path "$['a','b'][*]" at 1: a union in place of the iterated container: its nodes may come in any order; ${ITERATED}; ${ANYWHERE}`,
      ],
      [
        '$.rows[-1][*]',
        `path "$.rows[-1][*]" at 7: a negative index before the iterated container: an array's length is known only at its end; ${ITERATED}`,
      ],
      [
        '$.rows[-2:]',
        `path "$.rows[-2:]" at 7: a slice counted from the end or backwards: which elements it picks depends on the array's length; ${ITERATED}; iterate [*] and keep the elements wanted`,
      ],
      [
        '$.rows[?@.id == $.total]',
        `path "$.rows[?@.id == $.total]" at 7: a filter that reads $, the whole document; ${ITERATED}; ${ANYWHERE}`,
      ],
      [
        '$.rows[*].lines[?count(@..x[?$]) > 0]',
        `path "$.rows[*].lines[?count(@..x[?$]) > 0]" at 16: a filter that reads $, the whole document; ${ITERATED}; ${ANYWHERE}`,
      ],
    ];
    for (const [path, message] of cases) {
      expect(thrown(() => doc.iterate(path))).toEqual(new TypeError(`doc.iterate(): ${message}`));
    }
    expect(thrown(() => doc.iterate('$.rows[*].id', { expand: ['lines'] }))).toEqual(
      new TypeError(
        'doc.iterate(): options.expand streams the elements of a path ending with [*] or .*, not of "$.rows[*].id" ' +
          '(a slice, a filter or segments after the container)',
      ),
    );
  });

  const ITERATE_OPTIONS: [string, unknown, string][] = [
    ['a string', 'x', 'options must be an object, got "x"'],
    ['null', null, 'options must be an object, got null'],
    [
      'a misspelt key',
      { expnad: ['lines'] },
      'options.expnad is not an option; the options are expand, withNormalizedPath',
    ],
    [
      'an option of openJson',
      { transient: true },
      'options.transient is not an option; the options are expand, withNormalizedPath',
    ],
    [
      'withNormalizedPath not a boolean',
      { withNormalizedPath: 1 },
      'options.withNormalizedPath must be a boolean, got 1',
    ],
    [
      'withNormalizedPath with expand',
      { expand: ['lines'], withNormalizedPath: true },
      'options.withNormalizedPath and options.expand cannot be used together',
    ],
    ['expand not an array', { expand: 'lines' }, 'options.expand must be an array of member names, got "lines"'],
    ['a name not a string', { expand: ['lines', 1] }, 'options.expand[1] must be a string, got 1'],
    [
      '28 names',
      { expand: Array.from({ length: 28 }, (_, i) => `m${i}`) },
      'options.expand holds 28 names; at most 27 are supported',
    ],
  ];

  test.each(ITERATE_OPTIONS)('iterate() options: %s', (_, options, message) => {
    expect(thrown(() => openJson(DOCUMENT).iterate('$.rows[*]', options as IterateOptions))).toEqual(
      new TypeError(`doc.iterate(): ${message}`),
    );
  });
});

describe('doc.get() and doc.iterate() in the wrong state', () => {
  test('a get() or a second iteration while an iteration holds the document', async () => {
    const doc = openJson(DOCUMENT);
    for await (const row of doc.iterate('$.rows[*]')) {
      void row;
      expect(await rejection(doc.get('$.total'))).toEqual(
        new TypeError(
          'doc.get(): path "$.total" cannot be read while doc.iterate() holds the document: ' +
            'finish or break the loop first',
        ),
      );
      expect(await rejection(doc.iterate('$.rows[0].lines[*]').next())).toEqual(
        new TypeError(
          'doc.iterate(): path "$.rows[0].lines[*]" cannot be iterated while another doc.iterate() holds the ' +
            'document: finish or break that loop first',
        ),
      );
      break;
    }
    expect(await doc.get('$.total')).toBe(3);
  });

  test('a child stream read after the iteration moved on', async () => {
    const doc = openJson(DOCUMENT);
    const streams: AsyncIterator<unknown>[] = [];
    for await (const row of doc.iterate<{ lines: AsyncIterator<unknown> }>('$.rows[*]', { expand: ['lines'] })) {
      streams.push(row.lines);
    }
    expect(await rejection(streams[0]!.next())).toEqual(
      new TypeError('doc.iterate(): the stream of member "lines" was skipped: the iteration moved to the next element'),
    );
  });

  test('requests of a closed document reject with an AbortError naming openJson() (cancellation, not misuse)', async () => {
    const doc = openJson(new ReadableStream());
    const pending = rejection(doc.get('$.total'));
    await doc.close();
    for (const error of [await pending, await rejection(doc.get('$.total'))]) {
      expect(error).toMatchObject({ name: 'AbortError', message: 'openJson(): the document was closed' });
    }
  });
});

describe('lazyParse(): options and input, a TypeError at the call', () => {
  const MISTAKES: [string, unknown, string][] = [
    ['a string', 'x', 'options must be an object, got "x"'],
    ['null', null, 'options must be an object, got null'],
    ['an array', [1], 'options must be an object, got Array'],
    ['a misspelt key', { maxdepth: 3 }, 'options.maxdepth is not an option; the options are maxDepth, integers'],
    [
      'an option of openJson',
      { maxElementBytes: 10 },
      'options.maxElementBytes is not an option; the options are maxDepth, integers',
    ],
    ['maxDepth 0', { maxDepth: 0 }, 'options.maxDepth must be an integer from 1 to 1000000, got 0'],
    ['maxDepth fractional', { maxDepth: 1.5 }, 'options.maxDepth must be an integer from 1 to 1000000, got 1.5'],
    ['maxDepth a string', { maxDepth: '10' }, 'options.maxDepth must be an integer from 1 to 1000000, got "10"'],
    [
      'maxDepth over the range',
      { maxDepth: 1_000_001 },
      'options.maxDepth must be an integer from 1 to 1000000, got 1000001',
    ],
  ];

  test.each(MISTAKES)('options: %s', (_, options, message) => {
    expect(thrown(() => lazyParse('[]', options as LazyParseOptions))).toEqual(
      new TypeError(`lazyParse(): ${message}`),
    );
  });

  test.each([
    ['a number', 42, '42'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['an object', {}, 'object'],
    ['a Uint16Array', new Uint16Array(2), 'Uint16Array'],
    ['a DataView', new DataView(new ArrayBuffer(2)), 'DataView'],
  ])('input: %s', (_, input, got) => {
    expect(thrown(() => lazyParse(input as string))).toEqual(
      new TypeError(`lazyParse(): input must be a Uint8Array, ArrayBuffer or string, got ${got}`),
    );
  });
});

describe('lazyParse(): writes and a released document', () => {
  type Any = Record<string | symbol, unknown> & unknown[];
  const readOnly = (change: string) => new TypeError(`lazyParse(): the document is read-only (cannot ${change})`);

  test('every write to a lazy container says which write', () => {
    const doc = lazyParse('{"a":{"b":1},"list":[1,2]}') as Any;
    expect(
      thrown(() => {
        doc.a = 1;
      }),
    ).toEqual(readOnly('set "a"'));
    expect(thrown(() => Reflect.set(doc, 'added', 1))).toEqual(readOnly('set "added"'));
    expect(
      thrown(() => {
        doc[Symbol.for('s')] = 1;
      }),
    ).toEqual(readOnly('set Symbol(s)'));
    expect(thrown(() => delete doc.a)).toEqual(readOnly('delete "a"'));
    expect(thrown(() => Object.defineProperty(doc, 'x', { value: 1 }))).toEqual(readOnly('define "x"'));
    expect(thrown(() => Object.setPrototypeOf(doc, null))).toEqual(readOnly('change its prototype'));
    expect(thrown(() => Object.freeze(doc))).toEqual(readOnly('prevent extensions'));
    const list = lazyParse(`[${'1,'.repeat(600)}1]`) as Any;
    expect(thrown(() => list.push(3))).toEqual(readOnly('set "601"'));
  });

  test('reading what was not read before releaseLazy()', () => {
    const doc = lazyParse('{"a":[1,2],"b":{"c":3}}') as Any;
    expect(releaseLazy(doc)).toBe(true);
    expect(thrown(() => doc.b)).toEqual(new TypeError('lazyParse(): the document was released by releaseLazy()'));
  });
});

describe('the encoders: options and values, a TypeError at the call', () => {
  const STRINGIFY = 'space, replacer, bigint, chunkBytes, maxDepth';
  const MISTAKES: [string, unknown, string][] = [
    ['a string', 'x', 'options must be an object, got "x"'],
    ['a misspelt key', { chunkbytes: 64 }, `options.chunkbytes is not an option; the options are ${STRINGIFY}`],
    ['a parser option', { path: '$' }, `options.path is not an option; the options are ${STRINGIFY}`],
    ['space a boolean', { space: true }, 'options.space must be a number or a string, got true'],
    ['replacer a number', { replacer: 3 }, 'options.replacer must be a function or an array, got 3'],
    ['bigint unknown', { bigint: 'hex' }, `options.bigint must be 'number' or 'string', got "hex"`],
    ['chunkBytes too small', { chunkBytes: 8 }, 'options.chunkBytes must be an integer from 16 to 67108864, got 8'],
    [
      'chunkBytes a string',
      { chunkBytes: '64' },
      'options.chunkBytes must be an integer from 16 to 67108864, got "64"',
    ],
  ];
  const APIS: [string, (options: unknown) => unknown][] = [
    ['stringifyStream()', (options) => stringifyStream([], options as StringifyOptions)],
    ['new StreamedJsonResponse()', (options) => new StreamedJsonResponse([], undefined, options as StringifyOptions)],
    ['new JsonArrayStringifyStream()', (options) => new JsonArrayStringifyStream(options as StringifyOptions)],
  ];

  for (const [api, call] of APIS) {
    test.each(MISTAKES)(`${api} options: %s`, (_, options, message) => {
      expect(thrown(() => call(options))).toEqual(new TypeError(`${api}: ${message}`));
    });
  }

  test('rawJson() of another type, and a space in JSON Lines', () => {
    expect(thrown(() => rawJson(42 as unknown as string))).toEqual(
      new TypeError('rawJson(): json must be a string, a Uint8Array or a ReadableStream of bytes, got 42'),
    );
    expect(thrown(() => new JsonLinesStringifyStream({ space: 2 } as StringifyOptions))).toEqual(
      new TypeError('new JsonLinesStringifyStream(): options.space is not supported: a line cannot be indented'),
    );
  });
});
