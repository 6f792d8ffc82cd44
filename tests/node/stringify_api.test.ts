// The encoder's contract case by case: option validation, JSON.stringify's semantics that the differential
// corpus cannot show on its own (the replacer's `this` and keys, toJSON's key, BigInt, cycles, values without JSON
// text at the root), what counts as a source, and nesting deeper than JSON.stringify can go.
import { describe, expect, test } from 'vitest';
import { Readable } from 'node:stream';
import {
  JsonArrayStringifyStream,
  JsonLinesStringifyStream,
  StreamedJsonResponse,
  stringifyStream,
} from '../../dist/encode/index.js';
import { readAll, textOf } from '../support/stringify_read.js';

const write = (value: unknown, options?: object) => textOf(stringifyStream(value, options));
async function* asyncOf<T>(...items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

describe('options', () => {
  const invalid: [string, object][] = [
    ['space', { space: true }],
    ['space', { space: {} }],
    ['replacer', { replacer: 'a' }],
    ['replacer', { replacer: 1 }],
    ['bigint', { bigint: 'big' }],
    ['bigint', { bigint: true }],
    ['chunkBytes', { chunkBytes: 0 }],
    ['chunkBytes', { chunkBytes: 15 }],
    ['chunkBytes', { chunkBytes: 1.5 }],
    ['chunkBytes', { chunkBytes: '16' }],
    ['chunkBytes', { chunkBytes: 2 ** 27 }],
  ];

  test.each(invalid)('options.%s: a TypeError at the call, naming the option (%o)', async (name, options) => {
    expect(() => stringifyStream(1, options)).toThrow(new RegExp(`options\\.${name}`));
    expect(() => stringifyStream(1, options)).toThrow(TypeError);
    expect(() => new StreamedJsonResponse(1, undefined, options)).toThrow(TypeError);
    expect(() => new JsonArrayStringifyStream(options)).toThrow(TypeError);
    expect(() => new JsonLinesStringifyStream(options)).toThrow(TypeError);
    await expect(StreamedJsonResponse.from(1, undefined, options)).rejects.toThrow(TypeError);
  });

  test('options must be an object', () => {
    for (const bad of [1, 'x', null, [1]]) expect(() => stringifyStream(1, bad as never)).toThrow(TypeError);
  });

  test('the forms JSON.stringify accepts are accepted', async () => {
    const value = { a: [1, { b: 2 }] };
    for (const space of [null, undefined, 4, '  ', new Number(2), new String('-')]) {
      expect(await write(value, { space })).toBe(JSON.stringify(value, null, space as never));
    }
    expect(await write(value, { replacer: null })).toBe(JSON.stringify(value));
  });
});

describe('JSON.stringify semantics', () => {
  test('values without JSON text: omitted in objects, null in arrays, an error at the root', async () => {
    const f = () => 1;
    const s = Symbol('s');
    expect(await write({ a: undefined, b: f, c: s, d: 1 })).toBe('{"d":1}');
    expect(await write([undefined, f, s])).toBe('[null,null,null]');
    expect(await write(asyncOf<unknown>(undefined, f, s))).toBe('[null,null,null]');
    for (const root of [undefined, f, s, Promise.resolve(undefined), { toJSON: () => undefined }]) {
      const output = await readAll(stringifyStream(root));
      expect(output.error).toBeInstanceOf(TypeError);
      expect(output.bytes.length).toBe(0);
    }
  });

  test('numbers, strings and boxed primitives as JSON.stringify writes them', async () => {
    const values = [
      -0,
      NaN,
      Infinity,
      -Infinity,
      1e21,
      1e-7,
      5e-324,
      '\ud800',
      '\udc00\ud800',
      '😀',
      '\u2028',
      '\u0000\u001f\u007f',
      new Number(-0),
      new String('\ud83d'),
      new Boolean(false),
      Object(1n) as never,
    ];
    for (const value of values.slice(0, -1)) {
      expect(await write([value, { v: value }])).toBe(JSON.stringify([value, { v: value }]));
    }
  });

  test('the replacer function is called as JSON.stringify calls it: same holders, keys and values', async () => {
    const date = new Date(0);
    // toJSON returns the same object every time, so that its members' holder is one object in both runs.
    const result = { key: 'd', n: [2] };
    const value = { a: [1, { b: 'x', c: date }, [undefined]], d: { toJSON: () => result }, e: null };
    const log = (calls: unknown[][]) =>
      function replacer(this: unknown, key: string, v: unknown) {
        calls.push([this, key, v]);
        return typeof v === 'number' ? v + 1 : v;
      };
    const expectedCalls: unknown[][] = [];
    const expected = JSON.stringify(value, log(expectedCalls));
    for (const chunkBytes of [16, 16384]) {
      const calls: unknown[][] = [];
      expect(await write(value, { replacer: log(calls), chunkBytes })).toBe(expected);
      expect(calls.length).toBe(expectedCalls.length);
      for (let i = 0; i < calls.length; i++) {
        const [holder, key, v] = calls[i]!;
        const [expectedHolder, expectedKey, expectedValue] = expectedCalls[i]!;
        expect(key).toBe(expectedKey);
        expect(v).toEqual(expectedValue);
        if (i === 0)
          expect(holder).toEqual(expectedHolder); // JSON.stringify's wrapper {"": value}
        else expect(holder).toBe(expectedHolder);
      }
    }
  });

  test("for elements of a source, the replacer's `this` is the source and the key the element index", async () => {
    const rows = asyncOf('a', 'b');
    const calls: unknown[][] = [];
    const replacer = function (this: unknown, key: string, value: unknown) {
      calls.push([this, key]);
      return value;
    };
    expect(await write({ rows }, { replacer })).toBe('{"rows":["a","b"]}');
    expect(calls.slice(2)).toEqual([
      [rows, '0'],
      [rows, '1'],
    ]);
  });

  test('toJSON gets the key: member name, index, "" at the root, index in a source', async () => {
    const keyed = { toJSON: (key: string) => `k=${key}` };
    expect(await write({ m: keyed, a: [keyed], s: asyncOf(keyed, keyed), p: Promise.resolve(keyed) })).toBe(
      '{"m":"k=m","a":["k=0"],"s":["k=0","k=1"],"p":"k=p"}',
    );
    expect(await write(keyed)).toBe('"k="');
    // Not called again on what it returns, even when that has a toJSON too.
    const inner = { toJSON: () => 'inner', x: 1 };
    expect(await write({ o: { toJSON: () => inner } })).toBe(JSON.stringify({ o: { toJSON: () => inner } }));
    const date = new Date(86_400_000);
    expect(await write({ d: { toJSON: () => date } })).toBe(JSON.stringify({ d: { toJSON: () => date } }));
  });

  test('an array replacer picks members everywhere, sources included, and keeps its order', async () => {
    const replacer = ['b', 'a', 1];
    const value = { a: 1, b: { a: 2, c: 3, 1: 'one' }, c: 4 };
    expect(await write({ ...value, rows: asyncOf(value) }, { replacer })).toBe(
      JSON.stringify({ ...value, rows: [value] }, replacer),
    );
  });

  test('BigInt: a TypeError unless options.bigint says how to write it', async () => {
    for (const value of [1n, { a: [2n] }, asyncOf({ id: 3n }), Object(4n)]) {
      const output = await readAll(stringifyStream(value));
      expect(output.error).toBeInstanceOf(TypeError);
    }
    const value = { id: 12345678901234567890n, list: [-1n, 0n], rows: asyncOf({ id: 7n }), boxed: Object(5n) };
    expect(await write(value, { bigint: 'number' })).toBe(
      '{"id":12345678901234567890,"list":[-1,0],"rows":[{"id":7}],"boxed":5}',
    );
    const again = { id: 12345678901234567890n, list: [-1n, 0n], rows: asyncOf({ id: 7n }), boxed: Object(5n) };
    expect(await write(again, { bigint: 'string', space: 1 })).toBe(
      JSON.stringify(
        {
          id: '12345678901234567890',
          list: ['-1', '0'],
          rows: [{ id: '7' }],
          boxed: '5',
        },
        null,
        1,
      ),
    );
  });

  test('BigInt.prototype.toJSON, when defined, wins over options.bigint, as JSON.stringify calls it', async () => {
    const proto = BigInt.prototype as { toJSON?: () => string };
    proto.toJSON = function (this: bigint) {
      return `big:${this}`;
    };
    try {
      expect(await write({ a: 1n, b: asyncOf(2n) }, { bigint: 'number' })).toBe('{"a":"big:1","b":["big:2"]}');
      expect(await write([3n])).toBe(JSON.stringify([3n]));
    } finally {
      delete proto.toJSON;
    }
  });

  test('cycles are a TypeError, also through sources; repeated references are not cycles', async () => {
    const direct: Record<string, unknown> = { a: 1 };
    direct.self = direct;
    const array: unknown[] = [1];
    array.push([array]);
    const viaGenerator: Record<string, unknown> = {};
    viaGenerator.rows = (function* rows() {
      yield { back: viaGenerator };
    })();
    const viaPromise: Record<string, unknown> = {};
    viaPromise.later = Promise.resolve([viaPromise]);
    const viaToJSON: Record<string, unknown> = {};
    viaToJSON.x = { toJSON: () => viaToJSON };
    const itself = { generator: undefined as unknown };
    const generator = (function* yieldsItself(): Generator<unknown> {
      yield itself.generator;
    })();
    itself.generator = generator;
    const deepCycle: Record<string, unknown> = {};
    let node = deepCycle;
    for (let i = 0; i < 300; i++) node = (node.next = {}) as Record<string, unknown>;
    node.next = deepCycle;
    for (const value of [
      direct,
      array,
      viaGenerator,
      viaPromise,
      viaToJSON,
      generator,
      deepCycle,
      { rows: asyncOf(direct) },
    ]) {
      const output = await readAll(stringifyStream(value));
      expect(output.error).toBeInstanceOf(TypeError);
      expect((output.error as Error).message).toMatch(/circular/);
    }
    const shared = { s: 1 };
    expect(await write({ a: shared, b: [shared, shared], c: asyncOf(shared) })).toBe(
      '{"a":{"s":1},"b":[{"s":1},{"s":1}],"c":[{"s":1}]}',
    );
  });

  test('nesting deeper than JSON.stringify can go, with a source at the bottom', async () => {
    const depth = 50_000;
    let value: unknown = asyncOf(1, 2);
    for (let i = 0; i < depth; i++) value = [value];
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    // Past the default maxDepth (1024, what the parsers read back by default): raised to let it through.
    expect(await write(value, { maxDepth: depth + 1 })).toBe(`${'['.repeat(depth)}[1,2]${']'.repeat(depth)}`);
  });
});

describe('sources', () => {
  test('what is written as an array, and what is not', async () => {
    const value = {
      map: new Map([['a', 1]]),
      set: new Set([1, 2]),
      typed: new Uint8Array([1, 2]),
      string: new String('ab'),
      generatorFunction: function* g() {
        yield 1;
      },
      stream: new ReadableStream({
        start(c) {
          c.enqueue({ x: 1 });
          c.enqueue(Promise.resolve(2));
          c.close();
        },
      }),
      node: Readable.from([{ y: 1 }, 'z']),
      iterable: {
        *[Symbol.iterator]() {
          yield 1;
        },
      },
      asyncIterable: {
        async *[Symbol.asyncIterator]() {
          yield 2;
        },
      },
      promise: Promise.resolve([Promise.resolve(3)]),
      thenable: { then: (resolve: (v: unknown) => void) => resolve('t') },
    };
    expect(await write(value)).toBe(
      '{"map":[["a",1]],"set":[1,2],"typed":{"0":1,"1":2},"string":"ab",' +
        '"stream":[{"x":1},2],"node":[{"y":1},"z"],"iterable":[1],"asyncIterable":[2],"promise":[3],"thenable":"t"}',
    );
  });

  test('a String object is told by its internal slot, not by a method name or a tag', async () => {
    const withCharAt = {
      charAt: () => 'a',
      *[Symbol.iterator]() {
        yield 1;
      },
    };
    const forgedTag = {
      [Symbol.toStringTag]: 'String',
      *[Symbol.iterator]() {
        yield 2;
      },
    };
    const hiddenTag = Object.defineProperty(new String('s'), Symbol.toStringTag, { value: 'Other' });
    const numberHiddenTag = Object.defineProperty(new Number(7), Symbol.toStringTag, { value: 'Other' });
    for (const value of [[withCharAt], { forgedTag }, [hiddenTag, numberHiddenTag], { n: [numberHiddenTag] }]) {
      const plain = JSON.parse(
        JSON.stringify(value, (_key, item) => (item === withCharAt ? [1] : item === forgedTag ? [2] : item)),
      );
      expect(await write(value)).toBe(JSON.stringify(plain));
    }
    expect(await write([hiddenTag, numberHiddenTag])).toBe(JSON.stringify([hiddenTag, numberHiddenTag]));
    // The same brand checks for `space` and the items of an array replacer.
    expect(await write({ a: [1] }, { space: numberHiddenTag })).toBe(JSON.stringify({ a: [1] }, null, 7));
    expect(await write({ s: 1, t: 2 }, { replacer: [hiddenTag] })).toBe('{"s":1}');
  });

  test('sources nest, and indentation stays right across them', async () => {
    const value = () => ({
      a: asyncOf<unknown>({ b: [1, asyncOf<unknown>(2, { c: asyncOf() })] }, []),
      d: (function* d() {
        yield { e: Promise.resolve({ f: [] }) };
      })(),
    });
    const plain = { a: [{ b: [1, [2, { c: [] }]] }, []], d: [{ e: { f: [] } }] };
    for (const space of [1, '\t', '--'])
      expect(await write(value(), { space })).toBe(JSON.stringify(plain, null, space));
  });
});
