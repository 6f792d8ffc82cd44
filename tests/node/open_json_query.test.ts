// openJson's get() and iterate() over RFC 9535 queries, against the reference evaluator (js/query/evaluate.ts) run on
// JSON.parse of the whole document: singular queries with negative indices in get(), and iterate() queries whose
// head streams one container (a wildcard, a forward slice or a filter) and whose tail runs on each element. Seeded
// random documents and queries, kept and transient documents, sources cut at random.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test, vi } from 'vitest';
import { JsonPassedError, openJson } from '../../dist/index.js';
// @ts-expect-error evaluate is @internal: stripped from the shipped .d.ts, tested all the same.
import { evaluate } from '../../dist/query/evaluate.js';
// @ts-expect-error @internal, as above
import { parseQuery } from '../../dist/query/parser.js';
import { createRng } from '../support/random_json.mjs';
import { NAMES, randomDocument, randomQuery } from '../support/random_query.mjs';
import { asyncIterableOf, countingSource } from '../support/sources.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x0905);
const encoder = new TextEncoder();
type Rng = ReturnType<typeof createRng>;

/** The values of the reference nodelist. */
function reference(query: string, doc: unknown): unknown[] {
  return (evaluate(parseQuery(query), doc) as { value: unknown }[]).map((n) => n.value);
}

/** The reference nodelist as iterate()'s withNormalizedPath gives it. */
function referenceNamed(query: string, doc: unknown): unknown[] {
  return (evaluate(parseQuery(query), doc) as { value: unknown; path: string }[]).map((n) => ({
    value: n.value,
    normalizedPath: n.path,
  }));
}

/** `text` as a source cut at random places, small pieces now and then. */
function chunked(text: string, rng: Rng): AsyncIterable<Uint8Array> {
  const bytes = encoder.encode(text);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + rng.int(rng.chance(0.3) ? 4 : 96);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return asyncIterableOf(chunks);
}

const name = (n: string) => `[${JSON.stringify(n)}]`;

/**
 * A singular query into `doc`: mostly steps that exist (indices from either end), now and then one that does not
 * (a missing name, an index past either end, a step into a scalar).
 */
function singularQuery(rng: Rng, doc: unknown): string {
  let text = '$';
  let v: unknown = doc;
  for (let n = rng.int(4); n > 0; n--) {
    if (Array.isArray(v) && v.length > 0 && rng.chance(0.85)) {
      const i = rng.int(v.length);
      const fromEnd = rng.chance(0.6);
      text += `[${fromEnd ? i - v.length : i}]`;
      v = v[i];
    } else if (typeof v === 'object' && v !== null && !Array.isArray(v) && rng.chance(0.85)) {
      const keys = Object.keys(v);
      const key = keys.length > 0 && rng.chance(0.9) ? rng.pick(keys) : rng.pick(NAMES);
      text += name(key);
      v = (v as Record<string, unknown>)[key];
    } else {
      text += rng.chance(0.5) ? `[${rng.pick([-1, -2, 0, 3, -7, 9])}]` : name(rng.pick(NAMES));
      v = undefined;
    }
  }
  return text;
}

/** A path to a container of `doc` (names and indices >= 0, as iterate's head takes them), or to nothing. */
function containerPath(rng: Rng, doc: unknown): string {
  let text = '$';
  let v: unknown = doc;
  while (rng.chance(0.5)) {
    if (Array.isArray(v) && v.length > 0) {
      const i = rng.int(v.length);
      text += `[${i}]`;
      v = v[i];
    } else if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0) {
      const key = rng.pick(Object.keys(v));
      text += name(key);
      v = (v as Record<string, unknown>)[key];
    } else break;
  }
  return text;
}

const HEADS = [
  '[*]',
  '.*',
  '[1:]',
  '[::2]',
  '[0:2]',
  '[1:3:2]',
  '[0:0]',
  '[::0]',
  '[?@.a]',
  '[?@ > 1]',
  "[?@.b == 'a']",
];

/** An iterate() query: a container, a head selector (fixed or random) and a random tail (its text). */
function iterateQuery(rng: Rng, doc: unknown): [string, string] {
  const tail = (randomQuery(rng, 1, '$', 3) as string).slice(1);
  const head = rng.chance(0.6) ? rng.pick(HEADS) : '';
  return [containerPath(rng, doc) + head + tail, head === '' ? '' : tail];
}

async function collectAll(iterable: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const v of iterable) out.push(v);
  return out;
}

/** What JS made of the document's text while `run` ran: characters JSON.parse read, bytes TextDecoder decoded. */
async function readByJs<T>(run: () => Promise<T>): Promise<{ result: T; parsed: number; decoded: number }> {
  const parse = vi.spyOn(JSON, 'parse');
  const decode = vi.spyOn(TextDecoder.prototype, 'decode');
  try {
    const result = await run();
    const parsed = parse.mock.calls.reduce((n, call) => n + String(call[0]).length, 0);
    const decoded = decode.mock.calls.reduce((n, call) => n + ((call[0] as ArrayBufferView)?.byteLength ?? 0), 0);
    return { result, parsed, decoded };
  } finally {
    parse.mockRestore();
    decode.mockRestore();
  }
}

/** `bytes` in chunks of 1 KiB. */
function kibChunks(bytes: Uint8Array): Uint8Array[] {
  return Array.from({ length: Math.ceil(bytes.length / 1024) }, (_, i) => bytes.subarray(i * 1024, (i + 1) * 1024));
}

describe('get(): singular queries against the evaluator', () => {
  test.each([false, true])('transient %s: random documents and queries, random cuts', async (transient) => {
    const rng = createRng(SEED + (transient ? 1 : 0));
    const wrong: string[] = [];
    let negative = 0;
    for (let n = 0; n < 600; n++) {
      const doc = randomDocument(rng);
      const text = JSON.stringify(doc);
      const opened = openJson(chunked(text, rng), { transient });
      // A kept document answers several in any order; a transient one the first (later ones may be passed).
      for (let r = transient ? 1 : 4; r > 0; r--) {
        const query = singularQuery(rng, doc);
        if (/\[-\d/.test(query)) negative++;
        const expected = reference(query, doc)[0];
        const got = await opened.get(query);
        if (!isDeepStrictEqual(got, expected)) wrong.push(`${query} on ${text}: ${JSON.stringify(got)}`);
      }
      await opened.close();
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(negative).toBeGreaterThan(transient ? 100 : 300);
  });

  test('a transient document goes on after a negative index: later values read, earlier ones passed', async () => {
    const text = '{"head":1,"rows":[{"id":1},{"id":2},{"id":3}],"tail":{"n":4}}';
    const doc = openJson(text, { transient: true });
    expect(await doc.get('$.rows[-2].id')).toBe(2);
    await expect(doc.get('$.rows[0]')).rejects.toBeInstanceOf(JsonPassedError);
    await expect(doc.get('$.head')).rejects.toBeInstanceOf(JsonPassedError);
    expect(await doc.get('$.tail.n')).toBe(4);
  });

  test('a transient cursor inside the array: the elements after it are counted from it', async () => {
    const rows = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
    const text = JSON.stringify({ rows, after: 5 });
    // [the get that moves the cursor into the array, the negative get, its value or 'passed']
    const cases: [string, string, unknown][] = [
      ['$.rows[0].id', '$.rows[-1].id', 4],
      ['$.rows[0]', '$.rows[-3].id', 2],
      ['$.rows[1].id', '$.rows[-3]', 'passed'],
      ['$.rows[1].id', '$.rows[-2]', rows[2]],
      ['$.rows[3]', '$.rows[-1]', 'passed'],
      ['$.rows[2].id', '$.rows[-5]', undefined],
    ];
    for (const [first, path, expected] of cases) {
      const doc = openJson(chunked(text, createRng(path.length)), { transient: true });
      expect(await doc.get(first)).toEqual(reference(first, { rows })[0]);
      if (expected === 'passed') await expect(doc.get(path)).rejects.toBeInstanceOf(JsonPassedError);
      else expect(await doc.get(path)).toEqual(expected);
      expect(await doc.get('$.after')).toBe(5);
    }
  });
});

describe('get(): a transient negative index copies only the last elements', () => {
  test('JS decodes and parses the element answered, not every element of the array', async () => {
    const rows = Array.from({ length: 4000 }, (_, i) => ({ id: i, pad: 'x'.repeat(200) }));
    const text = JSON.stringify({ rows, after: 1 });
    const bytes = encoder.encode(text);
    // One chunk (the parser fed pieces from 1 KiB to 512 KiB), and 1 KiB chunks (a call per chunk).
    for (const source of [() => text, () => asyncIterableOf(kibChunks(bytes))]) {
      for (const index of [-1, -3, -4000]) {
        const doc = openJson(source(), { transient: true });
        const { result, parsed, decoded } = await readByJs(() => doc.get(`$.rows[${index}].id`));
        expect(result).toBe(4000 + index);
        // Value batches decoded every element (900 kB) and parsed the last call's (up to half of them).
        expect(decoded).toBeLessThan(1000);
        expect(parsed).toBeLessThan(1000);
        expect(await doc.get('$.after')).toBe(1);
        await doc.close();
      }
    }
  });
});

describe('get(): negative indices at the edges', () => {
  const LENGTHS = [0, 1, 2, 5, 3000];
  for (const transient of [false, true]) {
    test.each(LENGTHS)(`transient ${transient}: an array of %i`, async (length) => {
      const rows = Array.from({ length }, (_, i) => ({ id: i, pad: 'x'.repeat(i % 50) }));
      const text = JSON.stringify({ before: [1, 2], rows, after: 'end' });
      for (const index of [-1, -2, -length, -length - 1, -(2 ** 53 - 1)]) {
        if (index === 0) continue; // -0 is no index
        const doc = openJson(chunked(text, createRng(length - index)), { transient });
        const expected = reference(`$.rows[${index}]`, { rows })[0];
        expect(await doc.get(`$.rows[${index}]`)).toEqual(expected);
        // The document goes on after the array (kept: from anywhere).
        expect(await doc.get('$.after')).toBe('end');
        if (!transient) expect(await doc.get('$.before[-1]')).toBe(2);
        await doc.close();
      }
    });
  }

  test('an index from the end of an object, a scalar or a missing member is undefined', async () => {
    for (const transient of [false, true]) {
      for (const path of ['$.o[-1]', '$.s[-1]', '$.missing[-1]', '$.a[-1].x', '$.a[-1][-1]']) {
        const doc = openJson('{"o":{"a":1},"s":"str","a":[{"x":1},[2]]}', { transient });
        expect(await doc.get(path)).toEqual(reference(path, { o: { a: 1 }, s: 'str', a: [{ x: 1 }, [2]] })[0]);
      }
    }
  });

  test('the root array from its end; nested negative indices', async () => {
    const value = [[1, [2, 3]], { k: [4, 5, 6] }, [7]];
    const text = JSON.stringify(value);
    for (const transient of [false, true]) {
      for (const path of ['$[-1]', '$[-3][-1][-2]', '$[-2].k[-1]', '$[-2].k[-4]', '$[1].k[-3]']) {
        expect(await openJson(text, { transient }).get(path)).toEqual(reference(path, value)[0]);
      }
    }
  });
});

describe('iterate(): a streamed container and a tail, against the evaluator', () => {
  test.each([false, true])('transient %s: random documents and queries, random cuts', async (transient) => {
    const rng = createRng(SEED + 7 + (transient ? 1 : 0));
    const wrong: string[] = [];
    let accepted = 0;
    let tails = 0;
    let refused = 0;
    while (accepted < 800) {
      const doc = randomDocument(rng);
      const text = JSON.stringify(doc);
      const [query, tail] = iterateQuery(rng, doc);
      const opened = openJson(chunked(text, rng), { transient });
      // Half of them with each node's normalized path.
      const named = rng.chance(0.5);
      let iterable: AsyncIterable<unknown>;
      try {
        iterable = opened.iterate(query, { withNormalizedPath: named });
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(/^doc\.iterate\(\): path ".*" (at \d+: |selects one value)/s);
        refused++;
        continue;
      }
      accepted++;
      if (tail !== '') tails++;
      const got = await collectAll(iterable);
      const expected = named ? referenceNamed(query, doc) : reference(query, doc);
      if (!isDeepStrictEqual(got, expected)) wrong.push(`${query} on ${text}: ${JSON.stringify(got)}`);
      // The document goes on after the loop: a kept one from anywhere, a transient one forward.
      if (!transient) {
        const again = singularQuery(rng, doc);
        const value = await opened.get(again);
        if (!isDeepStrictEqual(value, reference(again, doc)[0])) wrong.push(`then ${again} on ${text}`);
      }
      await opened.close();
    }
    console.log(`iterate queries: ${accepted} accepted (${tails} with a tail), ${refused} refused`);
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(tails).toBeGreaterThan(200);
  });

  test('breaking out of a query loop leaves the document usable', async () => {
    const value = {
      rows: [
        { id: 1, t: [1, 2] },
        { id: 2, t: [3] },
        { id: 3, t: [] },
      ],
      after: 9,
    };
    for (const transient of [false, true]) {
      const doc = openJson(JSON.stringify(value), { transient });
      for await (const v of doc.iterate('$.rows[*].t[*]')) {
        expect(v).toBe(1);
        break;
      }
      expect(await doc.get('$.after')).toBe(9);
      if (!transient) expect(await doc.get('$.rows[-1].id')).toBe(3);
    }
  });

  test("a slice stops reading at its end: the source is not read to the array's end", async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i }));
    const bytes = encoder.encode(JSON.stringify({ rows }));
    const chunks = Array.from({ length: Math.ceil(bytes.length / 1024) }, (_, i) =>
      bytes.subarray(i * 1024, (i + 1) * 1024),
    );
    const source = countingSource(chunks);
    const doc = openJson(source.stream);
    expect(await collectAll(doc.iterate('$.rows[2:6:2].id'))).toEqual([2, 4]);
    expect(source.pulls).toBeLessThan(3);
    await doc.close();
  });

  test('a slice selects in wasm: JS decodes and parses only its elements, and reads up to its stop', async () => {
    // 4,000 rows of about 225 bytes; the row after [1000:1010]'s last (that iteration stops before it) is 50 kB.
    const rows = Array.from({ length: 4000 }, (_, i) => ({ id: i, pad: 'x'.repeat(i === 1010 ? 50_000 : 200) }));
    const text = JSON.stringify({ rows, after: 1 });
    const bytes = encoder.encode(text);
    const lastEnd = text.indexOf('{"id":1009,') + JSON.stringify(rows[1009]).length;
    for (const transient of [false, true]) {
      for (const integers of ['number', 'bigint'] as const) {
        for (const head of ['$.rows[1000:1010]', '$.rows[::10]', '$.rows[3990:]', '$.rows[5:1]', '$.rows[::0]']) {
          const path = `${head}.id`;
          // The text of the rows picked: what JS may read, with a batch's brackets and commas (2 % and 100 bytes).
          const picked = reference(head, { rows }).reduce((n: number, row) => n + JSON.stringify(row).length, 0);
          const source = countingSource(kibChunks(bytes));
          const doc = openJson(source.stream, { transient, integers });
          const { result, parsed, decoded } = await readByJs(() => collectAll(doc.iterate(path)));
          expect(result).toEqual(reference(path, { rows }));
          // Every row is 950 kB, the rows to [1000:1010]'s last 225 kB, and the row after it 50 kB.
          expect(decoded).toBeLessThanOrEqual(picked * 1.02 + 100);
          expect(parsed).toBeLessThanOrEqual(picked * 1.02 + 100);
          // Kept: the source is read up to the slice's last element; transient: the rest of the array is skipped.
          if (head === '$.rows[1000:1010]' && !transient) {
            expect(source.pulls).toBeLessThanOrEqual(Math.ceil(lastEnd / 1024) + 1);
          }
          expect(await doc.get('$.after')).toBe(1);
          await doc.close();
        }
      }
    }
  });

  test('after a slice, or a loop broken off in one, the document goes on from the cursor', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ id: i }));
    const text = JSON.stringify({ rows, after: 'end' });
    for (const transient of [false, true]) {
      for (const path of [
        '$.rows[2:8:3].id',
        '$.rows[5:3].id',
        '$.rows[::0].id',
        '$.rows[48:].id',
        '$.rows[10:20]..id',
      ]) {
        const doc = openJson(chunked(text, createRng(path.length)), { transient });
        expect(await collectAll(doc.iterate(path))).toEqual(reference(path, { rows }));
        // Transient: the rest of the array was read past (as a loop broken off); kept: any value, in any order.
        if (transient) await expect(doc.get('$.rows[49]')).rejects.toBeInstanceOf(JsonPassedError);
        else expect([await doc.get('$.rows[49].id'), await doc.get('$.rows[1].id')]).toEqual([49, 1]);
        expect(await doc.get('$.after')).toBe('end');
      }
      // Broken off before the slice's stop: the stop's marker is read past too.
      const doc = openJson(chunked(text, createRng(7)), { transient });
      for await (const id of doc.iterate('$.rows[3:40].id')) {
        expect(id).toBe(3);
        break;
      }
      if (transient) await expect(doc.get('$.rows[45]')).rejects.toBeInstanceOf(JsonPassedError);
      else expect(await doc.get('$.rows[4].id')).toBe(4);
      expect(await doc.get('$.after')).toBe('end');
    }
  });

  test('an iteration never restarts inside its array: the slice counts from the array start', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ id: i }));
    const text = JSON.stringify({ rows, after: 'end' });
    // Kept: the cursor inside the array, then a slice over it; the parser restarts before the array.
    const kept = openJson(chunked(text, createRng(3)), {});
    expect(await kept.get('$.rows[30].id')).toBe(30);
    expect(await collectAll(kept.iterate('$.rows[28:36:3].id'))).toEqual([28, 31, 34]);
    expect(await collectAll(kept.iterate('$.rows[1:3].id'))).toEqual([1, 2]);
    // Transient: the array was entered, so it was passed.
    const transient = openJson(chunked(text, createRng(4)), { transient: true });
    expect(await transient.get('$.rows[30].id')).toBe(30);
    await expect(collectAll(transient.iterate('$.rows[31:]'))).rejects.toBeInstanceOf(JsonPassedError);
    expect(await transient.get('$.after')).toBe('end');
  });

  test('a filter and a tail: elements in document order, each its tail nodelist in order', async () => {
    const value = {
      orders: [
        { id: 1, total: 5, lines: [{ sku: 'a' }, { sku: 'b' }] },
        { id: 2, total: 50, lines: [{ sku: 'c' }, { sku: 'd', sub: { sku: 'e' } }] },
        { id: 3, total: 20, lines: [] },
        { id: 4, total: 30, lines: [{ sku: 'f' }] },
      ],
    };
    for (const transient of [false, true]) {
      for (const path of ['$.orders[?@.total > 10].lines[*].sku', '$.orders[?@.lines[0]]..sku', '$.orders.*[0,0]']) {
        expect(await collectAll(openJson(JSON.stringify(value), { transient }).iterate(path))).toEqual(
          reference(path, value),
        );
      }
    }
  });

  test('a filter the native parser evaluates: the elements it rejects never reach JSON.parse', async () => {
    // 2,000 rows, one in ten kept; each rejected row carries a long string that would show in what JS parses.
    const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, score: i % 10 === 0 ? 1 : 9, pad: 'x'.repeat(200) }));
    const text = JSON.stringify({ rows });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      for (const [path, integers, kept] of [
        ['$.rows[?@.score < 5].id', 'number', true],
        ['$.rows[?@.score < 5].id', 'bigint', false],
        ['$.rows[?length(@.pad) < 5 || @.score < 5].id', 'number', false],
      ] as const) {
        parse.mockClear();
        const doc = openJson(text, { integers });
        const ids = await collectAll(doc.iterate(path));
        expect(ids).toEqual(rows.filter((r) => r.score < 5).map((r) => r.id));
        const parsed = parse.mock.calls.reduce((n, call) => n + String(call[0]).length, 0);
        // In wasm: about a tenth of the rows; in JS (a BigInt mode, a function the native program lacks): all.
        if (kept) expect(parsed).toBeLessThan(text.length / 5);
        else expect(parsed).toBeGreaterThan(text.length * 0.9);
        await doc.close();
      }
    } finally {
      parse.mockRestore();
    }
  });
});
