// lazyParse() against JSON.parse: seeded random documents read along random sets of paths give JSON.parse's value
// at every path, whatever was read before; JSON.stringify, Object.keys, `in` and iteration agree; writes throw;
// broken documents throw the parser's error classes with absolute positions; releaseLazy() returns the wasm heap
// to its baseline. Each document is read twice: with the real thresholds (small documents are then mostly parsed
// in one piece) and with tiny ones, so that every nested container becomes a proxy and objects switch to their
// key map early: the paths big documents take. A failure names the seed and document number.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inspect, types } from 'node:util';
import { afterEach, describe, expect, inject, test } from 'vitest';
import { JsonLimitError, JsonSyntaxError, createParser, lazyParse, releaseLazy } from '../../dist/index.js';
import { nativeModule } from '../../dist/internal.js';
import { lazyTuning } from '../../dist/lazy/index.js';
import { firstDifference } from '../support/deep_equal.mjs';
import { createRng, mutate, randomDocument } from '../support/random_json.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x1a2e);
const DOCUMENTS = 600;
const MUTANTS = 1500;

const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const heapInUse = () => nativeModule().heapInUse();
type Rng = ReturnType<typeof createRng>;
type Path = (string | number)[];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const DEFAULT_TUNING = { ...lazyTuning };
afterEach(() => Object.assign(lazyTuning, DEFAULT_TUNING));

/** Every path of `value` (the root included), in document order. */
function allPaths(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) allPaths(value[i], [...path, i], out);
  } else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) allPaths((value as Record<string, unknown>)[key], [...path, key], out);
  }
  return out;
}

function at(value: unknown, path: Path): Any {
  let v = value as Any;
  for (const key of path) v = v[key];
  return v;
}

function shuffledSample<T>(rng: Rng, items: T[], n: number): T[] {
  const copy = items.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

function documentOptions(rng: Rng, n: number) {
  if (n % 60 === 0) return { deep: 300 };
  if (n % 8 === 0) return { maxDepth: 6, maxItems: 24, budget: 1500 };
  return { maxDepth: rng.range(1, 6), maxItems: rng.range(1, 10), budget: rng.range(1, 120) };
}

/** The input forms lazyParse takes: the text, its bytes, or an ArrayBuffer of them. */
function inputOf(rng: Rng, text: string): string | Uint8Array | ArrayBuffer {
  switch (rng.int(3)) {
    case 0:
      return text;
    case 1:
      return encoder.encode(text);
    default:
      return encoder.encode(text).buffer as ArrayBuffer;
  }
}

function tune(rng: Rng): void {
  if (rng.chance(0.5)) {
    Object.assign(lazyTuning, {
      // 64 and 128: spines (spineOf) with a few scalar members too, not only containers of containers.
      proxyMinBytes: rng.pick([1, 2, 16, 64, 128]),
      findLimit: rng.pick([0, 1, 3]),
      rowProxyMinBytes: rng.pick([1, 4, 256]),
      spineMaxMembers: rng.pick([0, 1, 8]),
    });
  } else Object.assign(lazyTuning, DEFAULT_TUNING);
}

/** The parser's verdict on a whole text (the reference for error codes and positions). */
function parserError(bytes: Uint8Array): { code: string; offset: number; line: number; column: number } | null {
  const parser = createParser({ path: '$' });
  try {
    parser.push(bytes);
    parser.end();
    return null;
  } catch (error) {
    const e = error as JsonSyntaxError;
    return { code: e.code, offset: e.offset, line: e.line, column: e.column };
  }
}

describe(`random documents along random paths (seed ${SEED})`, () => {
  test('every value read equals JSON.parse at its path; stringify, keys, in and iteration agree', () => {
    const rng = createRng(SEED);
    for (let n = 0; n < DOCUMENTS; n++) {
      const text = randomDocument(rng, documentOptions(rng, n));
      const where = `seed ${SEED}, document ${n}`;
      const expected = JSON.parse(text);
      const paths = allPaths(expected);
      tune(rng);

      // Random paths in random order, each read from the root, then the whole.
      const doc = lazyParse(inputOf(rng, text)) as Any;
      for (const path of shuffledSample(rng, paths, rng.range(1, Math.min(paths.length, 12)))) {
        const got = at(doc, path);
        const want = at(expected, path);
        if (typeof want !== 'object' || want === null) {
          if (!Object.is(got, want))
            expect.fail(`${where}, ${JSON.stringify(path)}: ${String(got)} !== ${String(want)}`);
        } else if (rng.chance(0.3)) {
          // Containers: compared whole now, or only their shape (the walk below compares the rest).
          const difference = firstDifference(got, want, JSON.stringify(path));
          if (difference !== null) expect.fail(`${where}: ${difference}`);
        } else {
          expect(Array.isArray(got), where).toBe(Array.isArray(want));
          expect(Object.keys(got), where).toEqual(Object.keys(want));
        }
      }
      const difference = firstDifference(doc, expected);
      if (difference !== null) expect.fail(`${where}: ${difference}`);
      expect(JSON.stringify(doc), where).toBe(JSON.stringify(expected));

      // A fresh document: JSON.stringify before anything was read, with indentation (same text).
      const fresh = lazyParse(inputOf(rng, text)) as Any;
      expect(JSON.stringify(fresh, null, 1), where).toBe(JSON.stringify(expected, null, 1));

      // Object.keys, `in`, for...in, entries, for...of and spreading of every container, on a third document.
      const third = lazyParse(text) as Any;
      for (const path of paths) {
        const want = at(expected, path);
        if (typeof want !== 'object' || want === null) continue;
        const got = at(third, path);
        const keys = Object.keys(want);
        expect(Object.keys(got), where).toEqual(keys);
        const forIn: string[] = [];
        for (const key in got) forIn.push(key);
        expect(forIn, where).toEqual(keys);
        for (const key of keys) expect(key in got, where).toBe(true);
        expect('no such key' in got, where).toBe(false);
        expect(Array.isArray(got), where).toBe(Array.isArray(want));
        if (Array.isArray(want)) {
          expect(got.length, where).toBe(want.length);
          expect(want.length in got, where).toBe(false);
          expect(firstDifference([...got], want), where).toBeNull();
          expect(
            firstDifference(
              got.map((x: unknown) => x),
              want,
            ),
            where,
          ).toBeNull();
        } else {
          expect(firstDifference(Object.fromEntries(Object.entries(got)), want), where).toBeNull();
          expect(firstDifference({ ...got }, want), where).toBeNull();
        }
      }
      for (const d of [doc, fresh, third]) releaseLazy(d);
    }
  });

  test('one-byte mutations fail exactly when JSON.parse fails, with the parser error when read whole', () => {
    const rng = createRng(SEED + 1);
    let rejected = 0;
    let samePosition = 0;
    for (let n = 0; n < MUTANTS; n++) {
      const text = randomDocument(rng, {
        maxDepth: rng.range(1, 5),
        maxItems: rng.range(1, 8),
        budget: rng.range(1, 60),
      });
      const bytes = mutate(rng, encoder.encode(text));
      const where = `seed ${SEED + 1}, mutant ${n}: ${JSON.stringify(new TextDecoder().decode(bytes))}`;
      tune(rng);
      let expected: unknown;
      let valid = true;
      try {
        expected = JSON.parse(strictUtf8.decode(bytes));
      } catch {
        valid = false;
      }
      let difference: string | null = null;
      let error: unknown = null;
      try {
        // Reading it whole validates every part.
        const doc = lazyParse(bytes);
        if (valid) difference = firstDifference(doc, expected);
        else JSON.stringify(doc);
        releaseLazy(doc);
      } catch (e) {
        error = e;
      }
      if (valid) {
        if (error !== null) expect.fail(`${where}: rejected (${String(error)})`);
        expect(difference, where).toBeNull();
        continue;
      }
      rejected++;
      if (!(error instanceof JsonSyntaxError || error instanceof JsonLimitError)) {
        expect.fail(`${where}: expected a JsonSyntaxError, got ${String(error)}`);
      }
      const e = error as JsonSyntaxError;
      const reference = parserError(bytes)!;
      expect(reference, where).not.toBeNull();
      // The parser's error for the part that was read: the whole document's first error, or one after it (a
      // container's own text is checked before the containers nested in it). Line and column follow the offset.
      expect(e.offset, where).toBeGreaterThanOrEqual(reference.offset);
      expect(e.offset, where).toBeLessThanOrEqual(bytes.length);
      const before = bytes.subarray(0, e.offset);
      const lines = before.filter((b: number) => b === 0x0a).length;
      expect(e.line, where).toBe(lines + 1);
      expect(e.column, where).toBe(e.offset - (before.lastIndexOf(0x0a) + 1) + 1);
      if (e.offset === reference.offset) {
        expect(e.code, where).toBe(reference.code);
        samePosition++;
      }
    }
    // Most mutants are rejected, and most at the whole-document parser's very first error.
    expect(rejected).toBeGreaterThan(MUTANTS / 3);
    expect(samePosition).toBeGreaterThan(rejected * 0.8);
  });
});

describe('the real-world corpus', () => {
  const files = ['twitter.json', 'citm_catalog.json', 'canada.json', 'github_events.json', 'update-center.json'];
  for (const file of files) {
    test(`${file}: random leaves, then the whole`, () => {
      const bytes = new Uint8Array(readFileSync(new URL(`../corpus/jsonexamples/${file}`, import.meta.url)));
      const text = new TextDecoder().decode(bytes);
      const expected = JSON.parse(text);
      const paths = allPaths(expected);
      const rng = createRng(SEED + file.length);
      for (const input of [bytes, text]) {
        const doc = lazyParse(input) as Any;
        for (const path of shuffledSample(rng, paths, 500)) {
          const want = at(expected, path);
          const got = at(doc, path);
          if (typeof want !== 'object' || want === null) expect(Object.is(got, want), JSON.stringify(path)).toBe(true);
          else expect(Object.keys(got)).toEqual(Object.keys(want));
        }
        expect(firstDifference(doc, expected)).toBeNull();
        expect(JSON.stringify(doc)).toBe(JSON.stringify(expected));
        releaseLazy(doc);
      }
    });
  }
});

describe('JSON.parse semantics', () => {
  test('duplicate keys: the last wins, in the first position; __proto__ is an own key', () => {
    const text = '{"a":1,"b":[1],"a":{"x":2},"__proto__":{"polluted":true},"1":0,"0":1}';
    const doc = lazyParse(text) as Any;
    expect(doc.a).toEqual({ x: 2 });
    expect(Object.keys(doc)).toEqual(Object.keys(JSON.parse(text)));
    expect(Object.keys(doc)).toEqual(['0', '1', 'a', 'b', '__proto__']);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.hasOwn(doc, '__proto__')).toBe(true);
    // biome-ignore lint/suspicious/noProto: `__proto__` is an own key of this document, read as such
    expect(doc.__proto__).toEqual({ polluted: true });
    expect(doc.polluted).toBeUndefined();
    expect(({} as Any).polluted).toBeUndefined();
    expect(JSON.stringify(doc)).toBe(JSON.stringify(JSON.parse(text)));
  });

  test('inherited members still resolve (toString, hasOwnProperty), own keys shadow them', () => {
    const doc = lazyParse('{"a":1,"toString":"mine"}') as Any;
    expect(doc.toString).toBe('mine');
    // biome-ignore lint/suspicious/noPrototypeBuiltins: the inherited method itself, called on the proxy
    expect(doc.hasOwnProperty('a')).toBe(true);
    expect(Object.hasOwn(doc, 'toString')).toBe(true);
    expect('valueOf' in doc).toBe(true);
    const array = lazyParse('[1,2,3]') as Any;
    expect(array.map((x: number) => x * 2)).toEqual([2, 4, 6]);
    expect(array.includes(2)).toBe(true);
    expect(Array.isArray(array)).toBe(true);
    expect(array[3]).toBeUndefined();
    expect(array[-1]).toBeUndefined();
    expect(array['01']).toBeUndefined();
  });

  test('prototypes and constructors are the plain ones: Object.prototype, Array.prototype, species Array', () => {
    Object.assign(lazyTuning, { proxyMinBytes: 1 });
    const doc = lazyParse('{"a":[1,2,3],"b":{"c":null}}') as Any;
    for (const [value, proto, ctor] of [
      [doc, Object.prototype, Object],
      [doc.b, Object.prototype, Object],
      [doc.a, Array.prototype, Array],
    ] as const) {
      expect(types.isProxy(value)).toBe(true);
      expect(Object.getPrototypeOf(value)).toBe(proto);
      expect(value.constructor).toBe(ctor);
      expect(value instanceof ctor).toBe(true);
      // biome-ignore lint/suspicious/noProto: the accessor inherited from Object.prototype, through the proxy
      expect(value.__proto__).toBe(proto);
    }
    const mapped = doc.a.map((x: number) => x * 2);
    expect(types.isProxy(mapped)).toBe(false);
    expect(Object.getPrototypeOf(mapped)).toBe(Array.prototype);
    expect(mapped).toEqual([2, 4, 6]);
    expect(Object.getOwnPropertySymbols(doc)).toEqual([]);
    expect(Object.getOwnPropertySymbols(doc.a)).toEqual([]);
  });

  test('console.log / util.inspect show the members, not the empty proxy target', () => {
    const text = '{"a":{"b":[1,{"c":"d"}],"e":null},"f":[[1,2],[3]],"g":"h"}';
    for (const proxyMinBytes of [1, 1024]) {
      Object.assign(lazyTuning, { proxyMinBytes });
      expect(inspect(lazyParse(text), { depth: 10 })).toBe(inspect(JSON.parse(text), { depth: 10 }));
    }
    // The hook is on the proxy target only: it is not a member.
    Object.assign(lazyTuning, { proxyMinBytes: 1 });
    const doc = lazyParse(text) as Any;
    expect(Reflect.ownKeys(doc.a)).toEqual(['b', 'e']);
    expect(Reflect.ownKeys(doc.f)).toEqual(['0', '1', 'length']);
  });

  test('an array read in order: records stay lazy while read sparsely, are parsed whole once read densely', () => {
    Object.assign(lazyTuning, { proxyMinBytes: 16 });
    const records = Array.from({ length: 40 }, (_, i) => ({ id: i, name: `record ${i}`, tags: ['a', 'b'], n: i * 2 }));
    const text = JSON.stringify(records);
    const sparse = lazyParse(text) as Any;
    for (let i = 0; i < 40; i++) {
      expect(types.isProxy(sparse[i])).toBe(true);
      expect(sparse[i].id).toBe(i);
    }
    const dense = lazyParse(text) as Any;
    const first = dense[0];
    expect(types.isProxy(first)).toBe(true);
    expect(JSON.stringify(first)).toBe(JSON.stringify(records[0]));
    for (let i = 1; i < 40; i++) {
      expect(types.isProxy(dense[i])).toBe(false);
      expect(dense[i]).toEqual(records[i]);
    }
    expect(JSON.stringify(dense)).toBe(text);
  });

  test('an array of arrays read densely in order: long inner arrays come back whole, as plain arrays', () => {
    Object.assign(lazyTuning, { proxyMinBytes: 64 });
    // Rings of points (canada.json's shape), some far over a batch (48 KiB) and over BULK_MAX_BYTES (32 KiB).
    const rings = Array.from({ length: 12 }, (_, r) =>
      Array.from({ length: r % 3 === 0 ? 5000 : 40 + r }, (_, i) => [r + i / 7, -i * 1.5]),
    );
    // One long ring holding a long member: it must stay a proxy (its member would be one).
    rings[7] = [...rings[6]!, Array.from({ length: 40 }, (_, i) => i), [3, 4]];
    const text = JSON.stringify(rings);
    const parsed = JSON.parse(text);
    const doc = lazyParse(text) as Any;
    const first = doc[0];
    expect(types.isProxy(first)).toBe(true);
    let sum = 0;
    for (const point of first) sum += point[0];
    for (let r = 1; r < rings.length; r++) {
      const ring = doc[r];
      expect(types.isProxy(ring)).toBe(r === 7);
      expect(doc[r]).toBe(ring);
      if (r !== 7) {
        expect(Array.isArray(ring)).toBe(true);
        expect(ring).toEqual(parsed[r]);
      }
      expect(JSON.stringify(ring)).toBe(JSON.stringify(rings[r]));
    }
    expect(sum).toBe(parsed[0].reduce((a: number, p: number[]) => a + p[0]!, 0));
    expect(JSON.stringify(doc)).toBe(text);
    // Read sparsely, the same rings stay proxies.
    const sparse = lazyParse(text) as Any;
    for (let r = 0; r < rings.length; r++) {
      expect(types.isProxy(sparse[r])).toBe(JSON.stringify(rings[r]).length >= 64);
      expect(sparse[r][1]).toEqual(parsed[r][1]);
    }
  });

  test('an array of long records read in order, one member each: every record right, all stay lazy', () => {
    Object.assign(lazyTuning, { proxyMinBytes: 64 });
    const records = Array.from({ length: 300 }, (_, i) => ({ id: i, text: 'x'.repeat(80 + (i % 7)), n: [i, i + 1] }));
    const doc = lazyParse(JSON.stringify(records)) as Any;
    for (let i = 0; i < records.length; i++) {
      expect(doc[i].id).toBe(i);
      expect(types.isProxy(doc[i])).toBe(true);
    }
    // Out of order, then in order again from the middle.
    const again = lazyParse(JSON.stringify(records)) as Any;
    for (const i of [5, 3, 4, 5, 6, 7, 200, 201, 202, 0, 299]) expect(again[i].n).toEqual(records[i]!.n);
  });

  test('elements of an array of containers are proxies from rowProxyMinBytes on; other arrays keep proxyMinBytes', () => {
    const row = (i: number) => ({ id: i, name: 'x'.repeat(300), tags: [i, i + 1] });
    const rows = Array.from({ length: 20 }, (_, i) => row(i));
    const text = JSON.stringify({ rows, mixed: [1, ...rows.slice(0, 4)] });
    const doc = lazyParse(text) as Any;
    // Read sparsely: a row of about 330 bytes stays a proxy in an array of rows...
    expect(types.isProxy(doc.rows[5])).toBe(true);
    expect(doc.rows[5].id).toBe(5);
    expect(types.isProxy(doc.rows[17])).toBe(true);
    expect(doc.rows[17].tags).toEqual([17, 18]);
    // ...and is parsed whole where the array also holds scalars.
    expect(types.isProxy(doc.mixed)).toBe(true);
    expect(types.isProxy(doc.mixed[2])).toBe(false);
    expect(doc.mixed[2]).toEqual(row(1));
    expect(firstDifference(doc, JSON.parse(text))).toBeNull();
    // Rows read densely in order come back whole (parsed with their neighbours) after the first few.
    const again = lazyParse(text) as Any;
    let plain = 0;
    for (let i = 0; i < 20; i++) {
      const r = again.rows[i];
      expect(r.id + r.name.length + r.tags[1]).toBe(i + 300 + i + 1);
      if (!types.isProxy(r)) plain++;
    }
    expect(plain).toBeGreaterThan(10);
  });

  test('the same member is the same object every time', () => {
    Object.assign(lazyTuning, { proxyMinBytes: 1 });
    const doc = lazyParse('{"a":{"b":[{"c":1}]},"d":[[1],[2]]}') as Any;
    expect(doc.a).toBe(doc.a);
    expect(doc.a.b[0]).toBe(doc.a.b[0]);
    expect(doc.d[1]).toBe(doc.d[1]);
  });

  test('scalar roots come back as values; a BOM and surrounding whitespace are skipped', () => {
    expect(lazyParse(' 12.5e1 ')).toBe(125);
    expect(lazyParse('"x\\u00e9"')).toBe('xé');
    expect(lazyParse('null')).toBeNull();
    expect(lazyParse('true')).toBe(true);
    expect(Object.is(lazyParse('-0'), -0)).toBe(true);
    expect(lazyParse(Uint8Array.of(0xef, 0xbb, 0xbf, 0x5b, 0x31, 0x5d))).toEqual([1]);
    expect(lazyParse('\n\t [ ] \r\n')).toEqual([]);
    expect(lazyParse('{}')).toEqual({});
  });

  test('strings with escapes, non-ASCII text and lone surrogates, as keys and values', () => {
    const text = '{"é\\u00e9":"中\\ud83d\\ude00","\\ud800":"\\udc00x","a\\"b":"\\\\","\\u0061":2}';
    for (const input of [text, encoder.encode(text)]) {
      const doc = lazyParse(input) as Any;
      const want = JSON.parse(text);
      expect(doc.éé).toBe(want.éé);
      expect(doc['\ud800']).toBe('\udc00x');
      expect(doc['a"b']).toBe('\\');
      expect(doc.a).toBe(2);
      expect(firstDifference(doc, want)).toBeNull();
    }
  });
});

describe('optimised code survives documents', () => {
  test('reading one document after another, each collected first, throws no optimised code away ("weak objects")', () => {
    // Without objects of the proxies' classes kept alive between documents (keepShapes), V8 collected the classes
    // with each document and deoptimised every function that used them at each garbage collection.
    const build = inject('sluiceBuild');
    const script = fileURLToPath(new URL('../support/lazy_documents_in_turn.mjs', import.meta.url));
    const out = execFileSync(process.execPath, ['--expose-gc', '--trace-deopt', script, build], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    expect(out).toMatch(/^sum -?\d/m);
    // Named functions only: sluice's are all named; the child's own top-level code (anonymous) may be optimised on
    // the stack with a document's proxy in it, and that document does go.
    const thrownAway = out
      .split('\n')
      .filter((line) => line.includes('reason: weak objects') && /<SharedFunctionInfo [^>]+>/.test(line));
    expect(thrownAway).toEqual([]);
  });
});

describe('read-only', () => {
  const readOnly = (change: string) => new TypeError(`lazyParse(): the document is read-only (cannot ${change})`);

  test('writes, deletes, definitions and prototype changes throw a TypeError', () => {
    const doc = lazyParse('{"a":{"b":1},"list":[1,2]}') as Any;
    expect(() => {
      doc.a = 1;
    }).toThrow(readOnly('set "a"'));
    expect(() => {
      doc.added = 1;
    }).toThrow(readOnly('set "added"'));
    expect(() => {
      delete doc.a;
    }).toThrow(readOnly('delete "a"'));
    expect(() => Object.defineProperty(doc, 'x', { value: 1 })).toThrow(readOnly('define "x"'));
    expect(() => Object.setPrototypeOf(doc, null)).toThrow(readOnly('change its prototype'));
    expect(() => Object.freeze(doc)).toThrow(readOnly('prevent extensions'));
    expect(() => Reflect.set(doc, 'a', 2)).toThrow(readOnly('set "a"'));
    expect(JSON.stringify(doc)).toBe('{"a":{"b":1},"list":[1,2]}');
    // Members under proxyMinBytes are plain JSON.parse values: the caller owns them (documented).
    const a = doc.a;
    a.b = 2;
    expect(doc.a.b).toBe(2);
  });

  test('every container that stays lazy is read-only, arrays included', () => {
    Object.assign(lazyTuning, { proxyMinBytes: 1 });
    const doc = lazyParse('{"a":{"b":1},"list":[1,[2]]}') as Any;
    expect(() => {
      doc.a.b = 2;
    }).toThrow(readOnly('set "b"'));
    expect(() => {
      doc.list[0] = 5;
    }).toThrow(readOnly('set "0"'));
    expect(() => doc.list.push(3)).toThrow(readOnly('set "2"'));
    expect(() => doc.list.sort()).toThrow(TypeError); // which write sort() tries first is the engine's business
    expect(() => {
      doc.list.length = 0;
    }).toThrow(readOnly('set "length"'));
    expect(() => {
      doc.list[1][0] = 0;
    }).toThrow(readOnly('set "0"'));
    expect(JSON.stringify(doc)).toBe('{"a":{"b":1},"list":[1,[2]]}');
  });
});

describe('spines: long containers of few members and little text of their own', () => {
  // canada.json's shape: every read from the root passes `features`, `features[0]` and `geometry`.
  const ring = (n: number) => Array.from({ length: 40 }, (_, i) => [n + i / 7, -n - i / 3]);
  const geo = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { name: 'Canada' },
        geometry: { type: 'Polygon', coordinates: Array.from({ length: 12 }, (_, n) => ring(n)) },
      },
    ],
  };
  const text = JSON.stringify(geo);

  test('come back as frozen plain objects and arrays whose long members stay lazy', () => {
    const doc = lazyParse(text) as Any;
    expect(types.isProxy(doc)).toBe(true);
    const features = doc.features;
    expect(types.isProxy(features)).toBe(false);
    expect(Array.isArray(features) && Object.isFrozen(features)).toBe(true);
    expect(features).toBe(doc.features);
    // Its one member is a long container: a proxy, not listed until read (a spine's members are not spines).
    expect(types.isProxy(features[0])).toBe(true);
    const geometry = features[0].geometry;
    expect(types.isProxy(geometry)).toBe(false);
    expect(Object.isFrozen(geometry)).toBe(true);
    expect(Object.getPrototypeOf(geometry)).toBe(Object.prototype);
    expect(Object.keys(geometry)).toEqual(['type', 'coordinates']);
    expect(geometry.type).toBe('Polygon');
    expect(types.isProxy(geometry.coordinates)).toBe(true);
    expect(geometry.coordinates[11][39]).toEqual(geo.features[0]!.geometry.coordinates[11]![39]);
    expect(firstDifference(doc, JSON.parse(text))).toBeNull();
    expect(JSON.stringify(doc)).toBe(text);
    expect(JSON.stringify(doc, null, 1)).toBe(JSON.stringify(geo, null, 1));
  });

  test('are read-only: writes throw in strict-mode code (this module), as for any frozen object', () => {
    const doc = lazyParse(text) as Any;
    const geometry = doc.features[0].geometry;
    expect(() => {
      geometry.type = 'Point';
    }).toThrow(TypeError);
    expect(() => {
      geometry.added = 1;
    }).toThrow(TypeError);
    expect(() => {
      delete geometry.type;
    }).toThrow(TypeError);
    expect(() => {
      doc.features[0] = null;
    }).toThrow(TypeError);
    expect(() => doc.features.push(1)).toThrow(TypeError);
    expect(() => Object.defineProperty(geometry, 'type', { value: 1 })).toThrow(TypeError);
    // Sloppy-mode code (a Function body is sloppy unless it says otherwise): the write is ignored, as documented.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const sloppyWrite = new Function('o', 'o.type = "Point"; o.added = 1; return [o.type, o.added];');
    expect(sloppyWrite(geometry)).toEqual(['Polygon', undefined]);
    expect(JSON.stringify(doc)).toBe(text);
  });

  test('only where few members and little own text: otherwise a proxy, as before', () => {
    const big = 'x'.repeat(2000);
    const cases: [unknown, boolean][] = [
      [{ a: [big], b: 1, c: 'short' }, true],
      [{ a: [big], note: 'y'.repeat(200) }, false], // over proxyMinBytes / 8 of own text
      [{ a: [big], ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i])) }, false], // 9 members
      [[[big], 1, 'x'], true],
      [[[big], [big], [big]], false], // branches: a proxy, not one made for every branch
      [{ a: [big], b: { c: [big] } }, false],
    ];
    for (const [value, spine] of cases) {
      const doc = lazyParse(JSON.stringify({ wrap: value })) as Any;
      expect(types.isProxy(doc.wrap)).toBe(!spine);
      expect(firstDifference(doc, { wrap: value })).toBeNull();
    }
    Object.assign(lazyTuning, { spineMaxMembers: 0 });
    expect(types.isProxy((lazyParse(text) as Any).features)).toBe(true);
  });

  test('array elements are never spines: records read sparsely stay proxies', () => {
    const long = Array.from({ length: 300 }, (_, i) => i);
    // Four members, one read: not dense enough for the in-order read-ahead to parse rows whole.
    const rows = Array.from({ length: 40 }, (_, i) => ({ id: i, a: 1, b: 2, points: long }));
    const doc = lazyParse(JSON.stringify({ rows, one: [{ id: 0, points: long }] })) as Any;
    for (let i = 0; i < rows.length; i++) {
      const row = doc.rows[i];
      expect(types.isProxy(row)).toBe(true);
      expect(row.id).toBe(i);
    }
    // `one` is a spine (an object's member); its element is not, though it would qualify.
    expect(types.isProxy(doc.one)).toBe(false);
    expect(types.isProxy(doc.one[0])).toBe(true);
  });

  test('duplicate keys and __proto__ as JSON.parse has them', () => {
    const big = JSON.stringify(Array.from({ length: 300 }, (_, i) => i));
    const wrapped = `{"wrap":{"__proto__":${big},"k":1,"k":2,"1":true}}`;
    const doc = lazyParse(wrapped) as Any;
    expect(types.isProxy(doc.wrap)).toBe(false);
    expect(Object.getPrototypeOf(doc.wrap)).toBe(Object.prototype);
    expect(Object.keys(doc.wrap)).toEqual(['1', '__proto__', 'k']);
    expect(firstDifference(doc, JSON.parse(wrapped))).toBeNull();
    expect(JSON.stringify(doc)).toBe(JSON.stringify(JSON.parse(wrapped)));
  });

  test('a broken member keeps the container a proxy: only reading that member throws', () => {
    const big = JSON.stringify(Array.from({ length: 300 }, (_, i) => i));
    // A short member that does not parse (spineOf gives up and hands out a proxy).
    const shortBad = `{"wrap":{"bad":[1,2x],"big":${big}}}`;
    const doc = lazyParse(shortBad) as Any;
    expect(types.isProxy(doc.wrap)).toBe(true);
    expect(doc.wrap.big[299]).toBe(299);
    expect(() => doc.wrap.bad).toThrow(
      expect.objectContaining({ code: 'INVALID_NUMBER', offset: shortBad.indexOf('2x') + 1 }),
    );
    // A long member hidden by a later duplicate key: no read reaches it, but reading the whole object checks it,
    // as JSON.parse does (the spine would have hidden it for good).
    const hidden = `{"wrap":{"k":[${'1,'.repeat(600)}2x],"k":1}}`;
    const shadowed = lazyParse(hidden) as Any;
    expect(shadowed.wrap.k).toBe(1);
    expect(types.isProxy(shadowed.wrap)).toBe(true);
    expect(() => JSON.stringify(shadowed)).toThrow(
      expect.objectContaining({ code: 'INVALID_NUMBER', offset: hidden.indexOf('2x') + 1 }),
    );
    // The container's own text broken: listing fails, the proxy reports it on read.
    const own = `{"wrap":{"big":${big} "k":1}}`;
    const ownDoc = lazyParse(own) as Any;
    expect(() => ownDoc.wrap.k).toThrow(JsonSyntaxError);
  });

  test('after releaseLazy, a spine and its plain members stay usable; its lazy members throw', () => {
    const doc = lazyParse(text) as Any;
    const features = doc.features;
    const geometry = features[0].geometry;
    expect(releaseLazy(doc)).toBe(true);
    expect(geometry.type).toBe('Polygon');
    expect(features.length).toBe(1);
    expect(() => geometry.coordinates[0]).toThrow(TypeError);
  });
});

describe('errors', () => {
  const cases: [string, typeof JsonSyntaxError | typeof JsonLimitError, string, number][] = [
    ['', JsonSyntaxError, 'UNEXPECTED_END', 0],
    ['[1,2', JsonSyntaxError, 'UNEXPECTED_END', 4],
    ['{"a":[1,2]]', JsonSyntaxError, 'EXPECTED_COMMA_OR_BRACE', 10],
    ['[1] x', JsonSyntaxError, 'TRAILING_DATA', 4],
    ['"abc', JsonSyntaxError, 'UNEXPECTED_END', 4],
    ['01', JsonSyntaxError, 'INVALID_NUMBER', 1],
    ['tru', JsonSyntaxError, 'UNEXPECTED_END', 3],
    // The skeleton pass takes Y _ y and DEL for bracket candidates (one compare finds them with [ ] { }): after
    // the root they are still trailing data.
    ['[1] Y', JsonSyntaxError, 'TRAILING_DATA', 4],
    ['{"a":1}_', JsonSyntaxError, 'TRAILING_DATA', 7],
    ['[]\u007f', JsonSyntaxError, 'TRAILING_DATA', 2],
  ];
  for (const [text, kind, code, offset] of cases) {
    test(`lazyParse(${JSON.stringify(text)}) throws ${code} at ${offset}`, () => {
      const reference = parserError(encoder.encode(text));
      expect(reference).toMatchObject({ code, offset });
      let error: unknown;
      try {
        lazyParse(text);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(kind);
      expect(error).toMatchObject(reference!);
    });
  }

  test('a broken member throws when read, with its absolute offset, line and column; the rest stays readable', () => {
    const text = '{\n  "good": [1, 2, 3],\n  "bad": {"x": [1, 2x]},\n  "escape": ["\\q"],\n  "later": true\n}';
    for (const proxyMinBytes of [1, 1024]) {
      Object.assign(lazyTuning, { proxyMinBytes });
      const doc = lazyParse(text) as Any;
      expect(doc.good).toEqual([1, 2, 3]);
      expect(doc.later).toBe(true);
      let error: Any;
      try {
        JSON.stringify(doc.bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(JsonSyntaxError);
      expect(error).toMatchObject({ code: 'INVALID_NUMBER', offset: text.indexOf('2x') + 1, line: 3, column: 21 });
      expect(() => JSON.stringify(doc.escape)).toThrow(
        expect.objectContaining({ code: 'INVALID_ESCAPE', offset: text.indexOf('\\q') + 1, line: 4 }),
      );
      expect(doc.good[2]).toBe(3);
    }
  });

  test('members read densely (parsed in batches) stay readable next to a broken member', () => {
    // Enough distinct reads turn an object to batch parsing, and an array read in order to read-ahead runs: a batch
    // that holds the broken member must not make its valid neighbours throw.
    const members = Array.from({ length: 12 }, (_, i) => `"m${i}": ${i === 6 ? '[1, 2x]' : `[${i}]`}`);
    const objectText = `{${members.join(', ')}}`;
    const arrayText = `[${Array.from({ length: 40 }, (_, i) => (i === 20 ? '{"v": tru}' : `{"v": ${i}}`)).join(', ')}]`;
    for (const proxyMinBytes of [1024, 4096]) {
      Object.assign(lazyTuning, { proxyMinBytes });
      const object = lazyParse(objectText) as Any;
      for (let i = 0; i < 12; i++) {
        if (i === 6) {
          expect(() => object.m6).toThrow(
            expect.objectContaining({ code: 'INVALID_NUMBER', offset: objectText.indexOf('2x') + 1 }),
          );
        } else {
          expect(object[`m${i}`]).toEqual([i]);
        }
      }
      const array = lazyParse(arrayText) as Any;
      for (let i = 0; i < 40; i++) {
        if (i === 20) {
          expect(() => array[20]).toThrow(expect.objectContaining({ code: 'INVALID_LITERAL' }));
        } else {
          expect(array[i]).toEqual({ v: i });
        }
      }
    }
  });

  test('the first key read of an object whose text is broken throws its error, and so does every later one', () => {
    // The object is listed by its first key lookup (one native call): `in`, a read and a descriptor all report it.
    Object.assign(lazyTuning, { proxyMinBytes: 1 });
    const text = '{"ok": {"a": 1},\n "bad": {"x": 1 "y": 2},\n "later": [1]}';
    const at = { code: 'EXPECTED_COMMA_OR_BRACE', offset: text.indexOf('"y"'), line: 2, column: 17 };
    const doc = lazyParse(text) as Any;
    const bad = doc.bad;
    expect(() => bad.x).toThrow(expect.objectContaining(at));
    expect(() => 'y' in bad).toThrow(expect.objectContaining(at));
    expect(() => Object.getOwnPropertyDescriptor(bad, 'x')).toThrow(expect.objectContaining(at));
    expect(() => bad.x).toThrow(JsonSyntaxError);
    expect(doc.ok.a).toBe(1);
    releaseLazy(doc);
    expect(() => (lazyParse(text) as Any).bad.x).toThrow(JsonSyntaxError);
  });

  test('bytes the skeleton pass takes for bracket candidates are errors where the parser says, when read', () => {
    for (const [text, offset] of [
      ['[Y]', 1],
      ['{"a":[1,_]}', 8],
      ['{"y":y}', 5],
      ['[[1],\u007f]', 5],
    ] as const) {
      const reference = parserError(encoder.encode(text));
      expect(reference, text).toMatchObject({ code: 'EXPECTED_VALUE', offset });
      const doc = lazyParse(text);
      expect(() => JSON.stringify(doc), text).toThrow(JsonSyntaxError);
      try {
        JSON.stringify(doc);
      } catch (e) {
        expect(e, text).toMatchObject(reference!);
      }
    }
  });

  test('invalid UTF-8 and control characters in a member are the parser errors', () => {
    const bytes = encoder.encode('{"a":1,"b":"xx","c":"\tx"}');
    bytes[12] = 0xff;
    const doc = lazyParse(bytes) as Any;
    expect(() => doc.b).toThrow(expect.objectContaining({ code: 'INVALID_UTF8', offset: 12 }));
    const doc2 = lazyParse(encoder.encode('{"a":1,"c":"\tx"}')) as Any;
    expect(() => doc2.c).toThrow(expect.objectContaining({ code: 'CONTROL_CHARACTER', offset: 12 }));
  });

  test('maxDepth: deeper documents are a JsonLimitError at lazyParse', () => {
    const deep = '['.repeat(11) + ']'.repeat(11);
    expect(() => lazyParse(deep, { maxDepth: 10 })).toThrow(JsonLimitError);
    expect(() => lazyParse(deep, { maxDepth: 10 })).toThrow(
      expect.objectContaining({ code: 'DEPTH_LIMIT', offset: 10 }),
    );
    expect(JSON.stringify(lazyParse(deep, { maxDepth: 11 }))).toBe(deep);
  });

  test('bad arguments are TypeErrors (every message: misuse.test.ts)', () => {
    const input = 'lazyParse(): input must be a Uint8Array, ArrayBuffer or string, got';
    const maxDepth = 'lazyParse(): options.maxDepth must be an integer from 1 to 1000000, got';
    expect(() => lazyParse(42 as unknown as string)).toThrow(new TypeError(`${input} 42`));
    expect(() => lazyParse(null as unknown as string)).toThrow(new TypeError(`${input} null`));
    expect(() => lazyParse('[]', { maxDepth: 0 })).toThrow(new TypeError(`${maxDepth} 0`));
    expect(() => lazyParse('[]', { maxDepth: 1.5 })).toThrow(new TypeError(`${maxDepth} 1.5`));
    expect(() => lazyParse('[]', 'x' as unknown as object)).toThrow(
      new TypeError('lazyParse(): options must be an object, got "x"'),
    );
    expect(() => lazyParse('[]', { maxdepth: 3 } as object)).toThrow(
      new TypeError('lazyParse(): options.maxdepth is not an option; the options are maxDepth, integers'),
    );
  });
});

describe('native memory', () => {
  test('released documents return the heap to its baseline (and the check can fail)', () => {
    // Warm up: the shared key buffer is allocated once, on the first key lookup.
    releaseLazy(lazyParse('{"warm":{"up":1}}') as Any);
    (lazyParse('{"warm":1}') as Any).warm;
    const baseline = heapInUse();
    const text = readFileSync(new URL('../corpus/jsonexamples/citm_catalog.json', import.meta.url), 'utf8');
    const held = lazyParse(text) as Any;
    expect(heapInUse()).toBeGreaterThan(baseline + text.length);
    releaseLazy(held);
    expect(heapInUse()).toBe(baseline);
    expect(releaseLazy(held)).toBe(false);
    expect(releaseLazy({})).toBe(false);

    const rng = createRng(SEED + 7);
    for (let n = 0; n < 300; n++) {
      const doc = lazyParse(randomDocument(rng, { budget: 200 })) as Any;
      JSON.stringify(doc);
      releaseLazy(doc);
      // Broken documents free their memory too, at lazyParse and when a read fails.
      expect(() => lazyParse('[1,2')).toThrow(JsonSyntaxError);
      const broken = lazyParse('[[1,2x],' + '[3],'.repeat(300) + '1]') as Any;
      expect(() => JSON.stringify(broken)).toThrow(JsonSyntaxError);
      releaseLazy(broken);
    }
    expect(heapInUse()).toBe(baseline);
  });

  test('members read before a release stay usable; the rest throws a TypeError', () => {
    Object.assign(lazyTuning, { proxyMinBytes: 1 });
    const doc = lazyParse('{"a":[1,2],"b":{"c":3}}') as Any;
    const a = doc.a;
    expect(a[0]).toBe(1);
    expect(releaseLazy(doc)).toBe(true);
    expect(a[0]).toBe(1);
    expect(a.length).toBe(2);
    const released = new TypeError('lazyParse(): the document was released by releaseLazy()');
    expect(() => a[1]).toThrow(released);
    expect(() => doc.b).toThrow(released);
  });
});
