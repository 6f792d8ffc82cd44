// User code running inside the push parser: a reviver that throws stops the parser like a syntax error (the
// elements before it delivered, none after, the same error on every later call), and a reviver that calls sluice
// itself (lazyParse growing the wasm memory, a second parser sharing the module's input window and tables) changes
// nothing in what the first parser delivers. Also `Symbol.dispose`.
import { describe, expect, test } from 'vitest';
import {
  createParser,
  JsonArrayStream,
  lazyParse,
  parseJsonArray,
  type ParserOptions,
  type PushParser,
} from '../../dist/index.js';
import { nativeModule } from '../../dist/internal.js';
import { collect, collectStream, countingSource } from '../support/sources.js';

const boom = new Error('boom');
/** A reviver that throws on the element whose value is `at`. */
const throwsAt = (at: unknown) =>
  function (this: unknown, key: string, value: unknown) {
    if (key === '' && value === at) throw boom;
    return value;
  };

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
};

describe('a reviver that throws', () => {
  test('createParser: the elements before it are returned, then every call throws its error', () => {
    const parser = createParser({ reviver: throwsAt(2) });
    expect(parser.push('[1,2,3,')).toEqual([1]);
    expect(thrown(() => parser.push('4]'))).toBe(boom);
    expect(thrown(() => parser.end())).toBe(boom);
    parser.close();
  });

  test('createParser: on the first element of a push, that push throws', () => {
    const parser = createParser({ reviver: throwsAt(1) });
    expect(thrown(() => parser.push('[1,2,3,'))).toBe(boom);
    expect(thrown(() => parser.end())).toBe(boom);
  });

  test('createParser: at end(), end() throws it', () => {
    const parser = createParser({ reviver: throwsAt(7), path: '$', ndjson: true });
    expect(parser.push('5 6 ')).toEqual([5, 6]);
    expect(parser.push('7')).toEqual([]);
    // The root number 7 completes at the end of input.
    expect(thrown(() => parser.end())).toBe(boom);
  });

  test('a chunk of many windows: every element before the failing one, none after', () => {
    const count = 60_000;
    const at = 45_000;
    const text = `[${Array.from({ length: count }, (_, i) => `{"i":${i}}`).join(',')}]`;
    expect(text.length).toBeGreaterThan(4 * 65536);
    for (const options of [{}, { withPath: true }] as ParserOptions[]) {
      const reviver = function (this: unknown, key: string, value: unknown) {
        if (key === 'i' && value === at) throw boom;
        return value;
      };
      const parser = createParser({ ...options, reviver });
      const got = parser.push(text) as unknown[];
      expect(got.length).toBe(at);
      const last = got[at - 1] as { i: number } | { value: { i: number } };
      expect('value' in last ? last.value.i : last.i).toBe(at - 1);
      expect(thrown(() => parser.end())).toBe(boom);
    }
  });

  test('parseJsonArray: yields the elements before it, then rejects with it and cancels the source', async () => {
    const source = countingSource(['[1,2,3,', '4]']);
    const { values, error } = await collect(parseJsonArray(source.stream, { reviver: throwsAt(2) }));
    expect(values).toEqual([1]);
    expect(error).toBe(boom);
    expect(source.cancelled).toBe(true);
  });

  test('JsonArrayStream: the elements before it are read, then the stream errors with it', async () => {
    const source = countingSource(['[1,2,3,', '4]']);
    const { values, error } = await collectStream(
      source.stream.pipeThrough(new JsonArrayStream({ reviver: throwsAt(2) })),
    );
    expect(values).toEqual([1]);
    expect(error).toBe(boom);
  });
});

describe('a reviver that calls sluice', () => {
  const memoryBytes = () => nativeModule().memoryBytes();
  const rows = (count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => ({ id: from + i, name: `n${from + i} é`, tags: ['a', 'b'] }));

  /**
   * A reviver reading a lazy document on each member `name`, each bigger than the last up to 4 MB, and leaving a
   * parser open ever deeper (up to 900,000 levels): lazyParse grows the lazy index's module, the open parsers the
   * parser's own module, inside the reviver, in the middle of a call's elements, detaching every view of it.
   */
  let size = 1 << 16;
  let depth = 1 << 12;
  const held: PushParser<unknown>[] = [];
  const growing = function (this: unknown, key: string, value: unknown) {
    if (key === 'name') {
      if (size < 1 << 21) size = Math.floor(size * 1.5);
      const doc = lazyParse(`[${'1,'.repeat(size)}2]`) as number[];
      if (doc[size] !== 2) throw new Error('lazyParse read wrong');
      depth = Math.min(depth * 2, 900_000);
      const deep = createParser({ path: '$', maxDepth: 1_000_000 });
      deep.push('['.repeat(depth));
      held.push(deep);
    }
    return value;
  };

  test('lazyParse and deep parsers growing memory, in every form of value output', () => {
    const before = memoryBytes();
    const data = rows(20);
    const text = JSON.stringify({ rows: data });
    for (const options of [
      { path: '$.rows[*]' },
      { path: '$.rows[*]', withPath: true },
      { paths: ['$.rows[*]', '$.rows[*].tags'] },
    ] as ParserOptions[]) {
      const plain = createParser(options);
      const expected = [...plain.push(text), ...plain.end()];
      for (const chunk of [text.length, 97, 7]) {
        const parser = createParser({ ...options, reviver: growing });
        const got: unknown[] = [];
        for (let i = 0; i < text.length; i += chunk) got.push(...parser.push(text.slice(i, i + chunk)));
        got.push(...parser.end());
        expect(got).toEqual(expected);
      }
    }
    expect(memoryBytes()).toBeGreaterThan(before);
    for (const parser of held.splice(0)) parser.close();
  }, 360_000); // 116 s on the SIMD build in a loaded CI run: a liveness test, not a timing one

  test('a second parser pushed inside the reviver (same input window, same tables)', () => {
    const outer = rows(100);
    const inner = JSON.stringify(rows(1000, 1000));
    const text = JSON.stringify(outer);
    const seen: unknown[] = [];
    const reviver = function (this: unknown, key: string, value: unknown) {
      if (key === '') {
        const second = createParser({ withPath: true });
        const got = [...second.push(inner), ...second.end()] as { value: { id: number } }[];
        seen.push(got.length === 1000 && got[999]!.value.id === 1999);
      }
      return value;
    };
    for (const chunk of [text.length, 1000, 13]) {
      seen.length = 0;
      const parser = createParser({ withPath: true, reviver });
      const got: unknown[] = [];
      for (let i = 0; i < text.length; i += chunk) got.push(...parser.push(text.slice(i, i + chunk)));
      got.push(...parser.end());
      expect(got).toEqual(outer.map((value, key) => ({ path: '$[*]', key, value })));
      expect(seen).toEqual(outer.map(() => true));
    }
  });

  test('a second parser left holding a large partial element inside the reviver', () => {
    const text = JSON.stringify(rows(50));
    const held: unknown[] = [];
    const reviver = function (this: unknown, key: string, value: unknown) {
      if (key === '') {
        const second = createParser();
        second.push(`[{"big":"${'x'.repeat(300_000)}`);
        held.push(second);
      }
      return value;
    };
    const parser = createParser({ reviver });
    expect([...parser.push(text.slice(0, 1000)), ...parser.push(text.slice(1000)), ...parser.end()]).toEqual(
      JSON.parse(text),
    );
    expect(held.length).toBe(50);
  });

  test('parseJsonArray and JsonArrayStream with a reviver growing memory', async () => {
    const data = rows(30);
    const text = JSON.stringify(data);
    const chunks = Array.from({ length: Math.ceil(text.length / 50) }, (_, i) => text.slice(i * 50, i * 50 + 50));
    const fromIterator = await collect(parseJsonArray(countingSource(chunks).stream, { reviver: growing }));
    expect(fromIterator).toEqual({ values: data, error: undefined });
    const stream = countingSource(chunks).stream.pipeThrough(new JsonArrayStream({ reviver: growing }));
    expect(await collectStream(stream)).toEqual({ values: data, error: undefined });
  });
});

describe('Symbol.dispose', () => {
  test('closes the parser: a later push is misuse, the native parser is freed', () => {
    const baseline = nativeModule().heapInUse();
    const parser = createParser();
    expect(parser.push('[1,{"a":')).toEqual([1]);
    expect(typeof parser[Symbol.dispose]).toBe('function');
    parser[Symbol.dispose]();
    expect(nativeModule().heapInUse()).toBe(baseline);
    expect(() => parser.push('1}]')).toThrow(/closed by close\(\)/);
    parser[Symbol.dispose]();
  });
});
