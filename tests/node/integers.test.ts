// options.integers in every API that reads values (value mode with and without a reviver, withPath, openJson's
// get, iterate and expand, lazyParse, the partial parser's snapshots and final value): seeded random documents
// (tests/support/big_numbers.ts) through random chunkings give the value the model says for each mode, and a value
// read with 'bigint' and written by the encoder's `bigint: 'number'` keeps every digit. Misuse is a TypeError.
import { afterEach, describe, expect, test } from 'vitest';
import {
  JsonArrayStream,
  createParser,
  createPartialParser,
  lazyParse,
  openJson,
  parseJsonArray,
  partialJson,
  stringifyStream,
} from '../../dist/index.js';
import { lazyTuning } from '../../dist/lazy/index.js';
import { mayHoldBigInteger } from '../../dist/parse/integers.js';
import { firstDifference } from '../support/deep_equal.mjs';
import { parseChunks, randomPieces, randomTextPieces, type Chunk } from '../support/feed.js';
import { randomBigDocument, tokenValue, type Mode, type Rng } from '../support/big_numbers.js';
import { createRng } from '../support/random_json.mjs';
import { readAll } from '../support/stringify_read.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0xb16);
const DOCUMENTS = 250;
const MODES: readonly Mode[] = ['number', 'bigint', 'string'];
const encoder = new TextEncoder();
const DEFAULT_TUNING = { ...lazyTuning };
afterEach(() => Object.assign(lazyTuning, DEFAULT_TUNING));

function randomChunks(text: string, rng: Rng): Chunk[] {
  const maxPiece = rng.pick([1, 3, 16, 200, 5000]);
  return rng.chance(0.5)
    ? randomPieces(encoder.encode(text), rng, maxPiece)
    : randomTextPieces(text, rng, maxPiece, 0.3);
}

async function* source(chunks: readonly Chunk[]): AsyncGenerator<Chunk> {
  for (const c of chunks) yield c;
}

/** JSON.parse's reviver walk over `value`, numbers handed to `reviver` as the model has them: an oracle. */
function oracleRevive(value: unknown, reviver: (this: unknown, key: string, value: unknown) => unknown): unknown {
  const table: unknown[] = [];
  const marked = JSON.stringify(value, (_key, v) =>
    typeof v === 'number' || typeof v === 'bigint' ? `\u0000${table.push(v) - 1}` : v,
  );
  return JSON.parse(marked, function (this: unknown, key, v) {
    return reviver.call(this, key, typeof v === 'string' && v.charCodeAt(0) === 0 ? table[Number(v.slice(1))] : v);
  });
}

/** A plain copy of a lazyParse document: every member read. */
function materialise(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Array.from(value, materialise);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = materialise((value as Record<string, unknown>)[key]);
    Object.defineProperty(out, key, { value: member, writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/** A snapshot shows only what the text says: each number as the final value has it, each string a prefix of it. */
function snapshotDifference(snapshot: unknown, expected: unknown, path = '$'): string | null {
  if (typeof snapshot === 'string') {
    return typeof expected === 'string' && expected.startsWith(snapshot) ? null : `${path}: ${snapshot} vs ${expected}`;
  }
  if (typeof snapshot !== 'object' || snapshot === null) {
    return Object.is(snapshot, expected) ? null : `${path}: ${String(snapshot)} vs ${String(expected)}`;
  }
  if (typeof expected !== 'object' || expected === null) return `${path}: a container vs ${String(expected)}`;
  for (const key of Object.keys(snapshot)) {
    const difference = snapshotDifference(
      (snapshot as Record<string, unknown>)[key],
      (expected as Record<string, unknown>)[key],
      `${path}.${key}`,
    );
    if (difference !== null) return difference;
  }
  return null;
}

const revivers = {
  // Sees the BigInts and digits; drops every member named x; leaves the rest.
  mark(key: string, value: unknown): unknown {
    if (key === 'x') return undefined;
    return typeof value === 'bigint' ? `big ${value}` : value;
  },
  identity: (_key: string, value: unknown) => value,
};

describe(`random documents with big integers (seed ${SEED})`, () => {
  test.each(MODES)('createParser, value mode: %s', (mode) => {
    const rng = createRng(SEED ^ mode.length);
    for (let d = 0; d < DOCUMENTS; d++) {
      const doc = randomBigDocument(rng);
      const expected = doc.value(mode);
      const where = `document ${d} (${mode}): ${doc.text.slice(0, 300)}`;
      const elements = parseChunks(randomChunks(doc.text, rng), { integers: mode });
      expect(elements.error, where).toBeNull();
      expect(firstDifference(elements.values, expected), where).toBeNull();

      const root = parseChunks(randomChunks(doc.text, rng), { path: '$', withPath: true, integers: mode });
      expect(firstDifference(root.values, [{ path: '$', key: null, value: expected }]), where).toBeNull();

      const name: keyof typeof revivers = rng.chance(0.5) ? 'mark' : 'identity';
      const reviver = revivers[name];
      const revived = parseChunks(randomChunks(doc.text, rng), { integers: mode, reviver, withPath: rng.chance(0.5) });
      const values = revived.values.map((v) =>
        typeof v === 'object' && v !== null && 'path' in v && 'value' in v ? v.value : v,
      );
      const oracle = expected.map((element) => oracleRevive(element, reviver));
      expect(firstDifference(values, oracle), `${where}, reviver ${name}`).toBeNull();
    }
  });

  test.each(MODES)('openJson get, iterate and expand: %s', async (mode) => {
    const rng = createRng(SEED ^ (mode.length << 4));
    for (let d = 0; d < DOCUMENTS / 5; d++) {
      const doc = randomBigDocument(rng);
      const expected = doc.value(mode);
      const where = `document ${d} (${mode}): ${doc.text.slice(0, 300)}`;
      const i = rng.int(expected.length);
      const got = await openJson(source(randomChunks(doc.text, rng)), { integers: mode }).get(`$[${i}]`);
      expect(firstDifference(got, expected[i]), where).toBeNull();
      const items: unknown[] = [];
      const opened = openJson(source(randomChunks(doc.text, rng)), { integers: mode, transient: rng.chance(0.5) });
      for await (const item of opened.iterate('$[*]')) items.push(item);
      expect(firstDifference(items, expected), where).toBeNull();
    }
    // expand: members before and after a streamed array, and its elements, read as the mode says.
    const big = '-123456789012345678901234567890';
    const text = `[{"a":${big},"xs":[1,${big},2.5e40],"b":9007199254740993},{"a":1,"xs":[],"b":-0}]`;
    const rows: unknown[] = [];
    for await (const row of openJson(source([text]), { integers: mode }).iterate<Record<string, unknown>>('$[*]', {
      expand: ['xs'],
    })) {
      const xs: unknown[] = [];
      for await (const x of row.xs as AsyncIterable<unknown>) xs.push(x);
      rows.push({ a: row.a, xs, b: row.b });
    }
    const n = (token: string) => tokenValue(token, mode);
    const model = [
      { a: n(big), xs: [1, n(big), 2.5e40], b: n('9007199254740993') },
      { a: 1, xs: [], b: -0 },
    ];
    expect(firstDifference(rows, model)).toBeNull();
  });

  test.each(MODES)('lazyParse: %s', (mode) => {
    const rng = createRng(SEED ^ (mode.length << 8));
    for (let d = 0; d < DOCUMENTS; d++) {
      // Small proxy thresholds too, so that members are read in batches, one by one and as lazy containers.
      lazyTuning.proxyMinBytes = rng.pick([1, 16, DEFAULT_TUNING.proxyMinBytes]);
      const doc = randomBigDocument(rng);
      const input = rng.chance(0.5) ? doc.text : encoder.encode(doc.text);
      const where = `document ${d} (${mode}): ${doc.text.slice(0, 300)}`;
      const value = lazyParse(input, { integers: mode });
      expect(firstDifference(materialise(value), doc.value(mode)), where).toBeNull();
    }
    // A scalar root.
    expect(lazyParse(' 12345678901234567890 ', { integers: mode })).toStrictEqual(
      tokenValue('12345678901234567890', mode),
    );
  });

  test.each(MODES)('partial parser snapshots and final value: %s', (mode) => {
    const rng = createRng(SEED ^ (mode.length << 12));
    for (let d = 0; d < DOCUMENTS; d++) {
      const doc = randomBigDocument(rng, { keys: false });
      const expected = doc.value(mode);
      const where = `document ${d} (${mode}): ${doc.text.slice(0, 300)}`;
      const numbers = rng.pick(['complete', 'partial'] as const);
      const parser = createPartialParser({ integers: mode, numbers });
      for (const piece of randomTextPieces(doc.text, rng, rng.pick([1, 4, 30]), 0)) {
        const snapshot = parser.push(piece);
        if (numbers === 'complete' && snapshot !== undefined) {
          expect(snapshotDifference(snapshot, expected), where).toBeNull();
        }
      }
      expect(firstDifference(parser.end(), expected), where).toBeNull();
    }
  });

  test('partialJson and numbers: partial show an unfinished big integer by its digits so far', async () => {
    const parser = createPartialParser({ integers: 'bigint', numbers: 'partial' });
    expect(parser.push('[123456789012345678')).toStrictEqual([123456789012345678n]);
    expect(parser.push('90')).toStrictEqual([12345678901234567890n]);
    // A fraction makes it a number again, rounded as JSON.parse rounds it.
    const rounded = Number('12345678901234567890.5');
    expect(parser.push('.5')).toStrictEqual([rounded]);
    expect(parser.push(']')).toStrictEqual([rounded]);
    expect(parser.end()).toStrictEqual([rounded]);
    const snapshots: unknown[] = [];
    for await (const s of partialJson(source(['{"id":1234567890', '1234567890}']), { integers: 'string' })) {
      snapshots.push(s);
    }
    expect(snapshots.at(-1)).toStrictEqual({ id: '12345678901234567890' });
  });

  test("round trip: read with integers: 'bigint', written with the encoder's bigint: 'number'", async () => {
    const rng = createRng(SEED ^ 0x7e7);
    let kept = 0;
    for (let d = 0; d < DOCUMENTS; d++) {
      // Each name once: a repeated key's earlier value is rightly not written.
      const doc = randomBigDocument(rng, { keys: false });
      const [value] = parseChunks(randomChunks(doc.text, rng), { path: '$', integers: 'bigint' }).values;
      const written = (await readAll(stringifyStream(value, { bigint: 'number' }))).text;
      // JSON.stringify's text of the model, each BigInt as its digits.
      const oracle = JSON.stringify(doc.value('bigint'), (_key, v) => (typeof v === 'bigint' ? `\u0000${v}` : v));
      const where = `document ${d}: ${doc.text.slice(0, 300)}`;
      expect(written, where).toBe(oracle.replace(/"\\u0000(-?[0-9]+)"/g, '$1'));
      for (const token of doc.tokens) {
        if (typeof tokenValue(token, 'bigint') !== 'bigint') continue;
        expect(written.includes(token), `${where}: ${token}`).toBe(true);
        kept++;
      }
    }
    expect(kept).toBeGreaterThan(DOCUMENTS);
  });
});

test('the scan for 16 digits in a row agrees with /[0-9]{16}/ at every offset and length', () => {
  const rng = createRng(SEED);
  for (let t = 0; t < 100_000; t++) {
    let text = '';
    for (let n = rng.int(70); n > 0; n--) text += rng.chance(0.9) ? String(rng.int(10)) : rng.pick(['x', '.', '"']);
    expect(mayHoldBigInteger(text), text).toBe(/[0-9]{16}/.test(text));
  }
});

describe('elements past one window and deep nesting', () => {
  test('a carried element (longer than the 64 KiB window) keeps its digits, in createParser and openJson', async () => {
    const tokens = Array.from({ length: 5000 }, (_, i) => `${i % 2 ? '-' : ''}1234567890123456789${i}`);
    const text = `[7,[${tokens.join(',')}],8]`;
    const expected = [7, tokens.map((t) => BigInt(t)), 8];
    const bytes = encoder.encode(text);
    const pieces = [bytes.subarray(0, 30000), bytes.subarray(30000, 90000), bytes.subarray(90000)];
    expect(firstDifference(parseChunks(pieces, { integers: 'bigint' }).values, expected)).toBeNull();
    expect(firstDifference(await openJson(source(pieces), { integers: 'bigint' }).get('$[1]'), expected[1])).toBeNull();
  });

  test('with withOffset (and a reviver): the values lossless, the offsets those of the text', () => {
    const text = '[1, -12345678901234567890 ,{"a":9007199254740993}]';
    for (const reviver of [undefined, (_key: string, value: unknown) => value]) {
      const { values } = parseChunks([text], { integers: 'bigint', withOffset: true, reviver });
      const expected = [1, -12345678901234567890n, { a: 9007199254740993n }];
      expect(values.map((v) => (v as { value: unknown }).value)).toStrictEqual(expected);
      const texts = values.map((v) => {
        const { offset, length } = v as { offset: number; length: number };
        return text.slice(offset, offset + length);
      });
      expect(texts).toStrictEqual(['1', '-12345678901234567890', '{"a":9007199254740993}']);
    }
  });

  test('100,000 levels deep: no stack overflow', () => {
    const depth = 100_000;
    const text = `${'['.repeat(depth)}12345678901234567890${']'.repeat(depth)}`;
    let [value] = parseChunks([text], { path: '$', integers: 'bigint', maxDepth: depth + 1 }).values;
    for (let i = 0; i < depth; i++) value = (value as unknown[])[0];
    expect(value).toBe(12345678901234567890n);
  });
});

describe('misuse', () => {
  test.each([
    ['createParser()', (o: object) => createParser(o)],
    ['parseJsonArray()', (o: object) => parseJsonArray(source(['[]']), o)],
    ['new JsonArrayStream()', (o: object) => new JsonArrayStream(o)],
    ['openJson()', (o: object) => openJson(source(['[]']), o)],
    ['lazyParse()', (o: object) => lazyParse('[]', o)],
    ['createPartialParser()', (o: object) => createPartialParser(o)],
    ['partialJson()', (o: object) => partialJson(source(['[]']), o)],
  ])('%s: options.integers must be one of the three', (api, call) => {
    expect(() => call({ integers: 'big' })).toThrow(
      new TypeError(`${api}: options.integers must be 'number', 'bigint' or 'string', got "big"`),
    );
    expect(() => call({ integers: true })).toThrow(TypeError);
    expect(() => call({ integers: 'number' })).not.toThrow();
  });

  test.each(['bytes', 'text'] as const)("integers other than 'number' with output %s", (output) => {
    expect(() => createParser({ output, integers: 'bigint' } as never)).toThrow(
      new TypeError(`createParser(): options.integers applies to output 'value' only, not '${output}'`),
    );
    expect(() => createParser({ output, integers: 'number' })).not.toThrow();
  });
});
