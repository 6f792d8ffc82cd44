// withNormalizedPath: each streamed match's normalized path (RFC 9535 §2.7), against the reference evaluator
// (js/query/evaluate.ts, whose nodes carry theirs). Seeded random queries of the whole grammar (streamed whole in
// RFC or arrival order, split into a native head and a JS tail, or ending in a window from the end of each array)
// over random documents written loosely, each fed whole, byte by byte and at random cuts, in every output form:
// the pairs (normalized path, value) must be the evaluator's nodelist in RFC order, or its distinct nodes in the
// order their last bytes arrive. Then focused cases: names needing escapes, NDJSON, several queries, the other
// record fields, parseJsonArray and JsonArrayStream, and the limits.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createParser, JsonArrayStream, parseJsonArray, stringifyStream } from '../../dist/index.js';
// @ts-expect-error evaluate is @internal: stripped from the shipped .d.ts, tested all the same.
import { evaluate } from '../../dist/query/evaluate.js';
// @ts-expect-error @internal, as above
import { lowerQuery } from '../../dist/query/lower.js';
// @ts-expect-error @internal, as above
import { parseQuery } from '../../dist/query/parser.js';
import { CUTS, streamed } from '../support/feed.js';
import { asyncIterableOf } from '../support/sources.js';
import { arrivalRanks } from '../support/arrival_order.js';
import { createRng } from '../support/random_json.mjs';
import {
  looseJson,
  NAMES,
  randomDocument,
  randomQuery,
  randomSimpleFilter,
  randomValue,
} from '../support/random_query.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x9a7e);
const QUERIES = 1_500;
const OUTPUTS = ['value', 'bytes', 'text'] as const;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

type Rng = ReturnType<typeof createRng>;
type Node = { value: unknown; path: string };
type Output = (typeof OUTPUTS)[number];
type Named = { value: unknown; normalizedPath: string; path?: string; key?: unknown; offset?: number; length?: number };

/** Containers holding `a` and `b` often, arrays of them, and now and then a name needing escapes. */
function shaped(rng: Rng, depth: number): unknown {
  if (depth === 0 || rng.chance(0.15)) return randomValue(rng, 1);
  if (rng.chance(0.5)) return Array.from({ length: rng.int(5) }, () => shaped(rng, depth - 1));
  const object: Record<string, unknown> = {};
  for (const name of ['a', 'b', rng.pick(NAMES)]) if (rng.chance(0.7)) object[name] = shaped(rng, depth - 1);
  return object;
}

function randomHead(rng: Rng): string {
  let text = '$';
  for (let n = rng.int(3); n > 0; n--) text += rng.pick(['.a', "['b']", '[*]', '[*]', '[0]', '[1:]', '.*']);
  return text;
}

/** A query of one of the three kinds: the whole grammar, a head and a tail, a window from the end. */
function randomStreamQuery(rng: Rng): string {
  const r = rng.int(4);
  if (r === 0) return randomHead(rng) + rng.pick(['[-1]', '[-2:]', '[::-1]', '[1:-1]']);
  if (r === 1) {
    const candidates = rng.pick(['[*]', '[::2]', randomSimpleFilter(rng), '[?count(@.*) > 1]']);
    return randomHead(rng) + candidates + randomQuery(rng, 1, '$', 3).slice(1);
  }
  return randomQuery(rng, 0) as string;
}

/** An order the query streams in (either, when both do), or null when it is refused in both. */
function orderOf(query: string, rng: Rng): 'rfc' | 'arrival' | null {
  const orders = rng.chance(0.5) ? (['rfc', 'arrival'] as const) : (['arrival', 'rfc'] as const);
  for (const order of orders) {
    try {
      createParser({ path: query, order, withNormalizedPath: true }).close();
      return order;
    } catch (error) {
      const message = (error as Error).message;
      if (!/not supported in a stream|native selectors|with order: 'arrival'|marker selectors/.test(message)) {
        throw error;
      }
    }
  }
  return null;
}

/** Whether the native selectors answer the query whole (arrival order), else RFC's nodelist comes. */
function whole(query: string, order: 'rfc' | 'arrival'): boolean {
  const lowered = lowerQuery('test', 'path', query, order, 'arrival') as { tail: unknown; window: unknown };
  return lowered.tail === null && lowered.window === null;
}

/** The query refuses output forms other than values (a tail that selects inside each candidate). */
function valuesOnly(query: string, order: 'rfc' | 'arrival'): boolean {
  try {
    createParser({ path: query, output: 'text', order }).close();
    return false;
  } catch {
    return true;
  }
}

/** A record's value as JSON.parse gives it, whatever the output form. */
function parsedValue(record: Named, output: Output): unknown {
  if (output === 'value') return record.value;
  const text = output === 'bytes' ? decoder.decode(record.value as Uint8Array) : (record.value as string);
  return JSON.parse(text);
}

describe('normalized paths against the reference evaluator', () => {
  test(`${QUERIES} random queries, every chunking and output (seed ${SEED})`, () => {
    const rng = createRng(SEED);
    const wrong: string[] = [];
    const counts = { rfc: 0, arrival: 0, refused: 0, nodes: 0, descendantNodes: 0, runs: 0 };
    while (counts.rfc + counts.arrival < QUERIES) {
      const query = randomStreamQuery(rng);
      const order = orderOf(query, rng);
      if (order === null) {
        counts.refused++;
        continue;
      }
      counts[order]++;
      const doc = rng.chance(0.3) ? randomDocument(rng) : shaped(rng, 5);
      const text = looseJson(rng, doc);
      const bytes = encoder.encode(text);
      const reference: Node[] = evaluate(parseQuery(query), doc);
      let expected = reference.map((n) => [n.path, n.value]);
      if (order === 'arrival' && whole(query, order)) {
        const ranks = arrivalRanks(doc);
        const distinct = new Map(reference.map((n) => [n.path, n.value] as const));
        expected = [...distinct].sort(([a], [b]) => ranks.get(a)! - ranks.get(b)!);
      }
      counts.nodes += expected.length;
      if (query.includes('..')) counts.descendantNodes += expected.length;
      const outputs = valuesOnly(query, order) ? (['value'] as const) : OUTPUTS;
      for (const [name, cut] of Object.entries(CUTS)) {
        for (const output of outputs) {
          counts.runs++;
          const options = { path: query, order, output, withNormalizedPath: true };
          const got = (streamed(options, bytes, cut, rng) as Named[]).map((r) => [
            r.normalizedPath,
            parsedValue(r, output),
          ]);
          if (!isDeepStrictEqual(got, expected)) {
            wrong.push(`${name} ${output} ${order} ${JSON.stringify(query)} on ${text}: ${JSON.stringify(got)}`);
          }
        }
      }
    }
    console.log(
      `normalized paths: ${counts.rfc} queries in RFC order, ${counts.arrival} in arrival order, ${counts.refused} ` +
        `refused, ${counts.nodes} nodes (${counts.descendantNodes} of queries with ..), ${counts.runs} runs`,
    );
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(Math.min(counts.rfc, counts.arrival)).toBeGreaterThan(QUERIES / 10);
    expect(counts.nodes).toBeGreaterThan(QUERIES);
    expect(counts.descendantNodes).toBeGreaterThan(QUERIES / 5);
  });
});

/** createParser over `text` in one chunk and byte by byte; both must agree. */
function records(options: object, text: string): Named[] {
  const bytes = encoder.encode(text);
  const rng = createRng(1);
  const whole = streamed(options as never, bytes, CUTS.whole!, rng) as Named[];
  expect(streamed(options as never, bytes, CUTS['byte by byte']!, rng)).toEqual(whole);
  return whole;
}

/** The reference's (normalized path, value) pairs of `query` over `doc`, in RFC order. */
function referencePairs(query: string, doc: unknown): [string, unknown][] {
  return (evaluate(parseQuery(query), doc) as Node[]).map((n) => [n.path, n.value]);
}

describe('normalized paths: focused cases', () => {
  // Names a normalized path escapes (§2.7: \b \f \n \r \t \' \\ by name, other controls as \u00xx), written in
  // the input with and without JSON escapes, and non-ASCII ones, kept as they are.
  const names = ["'", '\\', '\b\f\n\r\t', '\u0001\u000b\u001f', 'é', '\u{1F600}', 'a"b', '', '0'];
  const doc = Object.fromEntries(names.map((name, i) => [name, [{ [name]: i }]]));

  test.each(['$.*[*].*', '$..*', '$[*][0][*]', "$['\\'']..*"])('names needing escapes: %s', (query) => {
    const order = query.includes('..') ? 'arrival' : 'rfc';
    for (const text of [
      JSON.stringify(doc),
      JSON.stringify(doc).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    ]) {
      const got = records({ path: query, order, withNormalizedPath: true }, text).map((r) => [
        r.normalizedPath,
        r.value,
      ]);
      const expected = referencePairs(query, doc);
      if (order === 'rfc') expect(got).toEqual(expected);
      else
        expect(new Set(got.map((pair) => JSON.stringify(pair)))).toEqual(
          new Set(expected.map((p) => JSON.stringify(p))),
        );
      expect(got.length).toBe(expected.length);
    }
  });

  test("the RFC's spellings of escaped names", () => {
    const text = JSON.stringify({ "'": 1, '\\': 2, '\u000b': 3, '\n': 4, é: 5 });
    const got = records({ path: '$.*', withNormalizedPath: true }, text).map((r) => r.normalizedPath);
    expect(got).toEqual(["$['\\'']", "$['\\\\']", "$['\\u000b']", "$['\\n']", "$['é']"]);
  });

  test('the root, and each value of NDJSON as its own root', () => {
    expect(records({ path: '$', withNormalizedPath: true }, '[1]')).toEqual([{ value: [1], normalizedPath: '$' }]);
    const lines = '{"a":[1,2]}\n{"a":[3]}\n';
    expect(records({ path: '$', ndjson: true, withNormalizedPath: true }, lines).map((r) => r.normalizedPath)).toEqual([
      '$',
      '$',
    ]);
    const got = records({ path: '$.a[*]', ndjson: true, withNormalizedPath: true }, lines);
    expect(got.map((r) => [r.normalizedPath, r.value])).toEqual([
      ["$['a'][0]", 1],
      ["$['a'][1]", 2],
      ["$['a'][0]", 3],
    ]);
    const deep = records({ path: '$..*', ndjson: true, order: 'arrival', withNormalizedPath: true }, lines);
    expect(deep.map((r) => r.normalizedPath)).toEqual(["$['a'][0]", "$['a'][1]", "$['a']", "$['a'][0]", "$['a']"]);
  });

  test('several queries, with path, key, offset and length, in every output form', () => {
    const doc = { a: [{ b: 1, c: { b: [2] } }, { b: 3 }], d: { b: 4 } };
    const text = JSON.stringify(doc, null, 1);
    const bytes = encoder.encode(text);
    const paths = ['$.a[*].b', '$..b', '$.a[?@.b > 1]', '$.a[*].c.b[-1]'];
    for (const output of OUTPUTS) {
      const got = records({ paths, order: 'arrival', output, withOffset: true, withNormalizedPath: true }, text);
      expect(got.length).toBeGreaterThan(4);
      for (const r of got) {
        expect(Object.keys(r)).toEqual(['path', 'key', 'value', 'offset', 'length', 'normalizedPath']);
        const pairs = referencePairs(r.path!, doc).map((pair) => JSON.stringify(pair));
        expect(pairs).toContain(JSON.stringify([r.normalizedPath, parsedValue(r, output)]));
        expect(r.normalizedPath.endsWith(typeof r.key === 'number' ? `[${r.key}]` : `['${r.key}']`)).toBe(true);
        expect(JSON.parse(decoder.decode(bytes.subarray(r.offset!, r.offset! + r.length!)))).toEqual(
          parsedValue(r, output),
        );
      }
    }
    // Each option alone gives its own record shape; without the option, none has the field.
    const shapes = [
      [{ withNormalizedPath: true }, ['value', 'normalizedPath']],
      [{ withNormalizedPath: true, withPath: true }, ['path', 'key', 'value', 'normalizedPath']],
      [{ withNormalizedPath: true, withOffset: true }, ['value', 'offset', 'length', 'normalizedPath']],
      [{ withPath: true }, ['path', 'key', 'value']],
      [{ withNormalizedPath: false, withOffset: true }, ['value', 'offset', 'length']],
    ] as const;
    for (const [options, keys] of shapes) {
      for (const r of records({ path: '$..b', order: 'arrival', ...options }, text))
        expect(Object.keys(r)).toEqual(keys);
    }
    // Without the option: the same values, bare.
    const named = records({ path: '$..b', order: 'arrival', withNormalizedPath: true }, text);
    expect(records({ path: '$..b', order: 'arrival' }, text)).toEqual(named.map((r) => r.value));
  });

  test('a reviver sees the values, never a marker', () => {
    const seen: unknown[] = [];
    const reviver = (key: string, value: unknown) => {
      if (key === '') seen.push(value);
      return value;
    };
    const got = records({ path: '$..x', order: 'arrival', reviver, withNormalizedPath: true }, '{"a":[{"x":1}],"x":2}');
    expect(got).toEqual([
      { value: 1, normalizedPath: "$['a'][0]['x']" },
      { value: 2, normalizedPath: "$['x']" },
    ]);
    expect(seen).toEqual([1, 2, 1, 2]);
  });

  test('parseJsonArray and JsonArrayStream', async () => {
    const text = '{"items":[{"id":1,"tags":["a"]},{"id":2,"tags":[]}]}';
    const options = { path: '$.items[*].id', withNormalizedPath: true } as const;
    const expected = [
      { value: 1, normalizedPath: "$['items'][0]['id']" },
      { value: 2, normalizedPath: "$['items'][1]['id']" },
    ];
    const iterated: unknown[] = [];
    for await (const item of parseJsonArray(asyncIterableOf([text.slice(0, 20), text.slice(20)]), options))
      iterated.push(item);
    expect(iterated).toEqual(expected);
    const stream = new JsonArrayStream(options);
    const writer = stream.writable.getWriter();
    void writer.write(text).then(() => writer.close());
    const streamedOut: unknown[] = [];
    for await (const item of stream.readable as unknown as AsyncIterable<unknown>) streamedOut.push(item);
    expect(streamedOut).toEqual(expected);
  });

  test('bytes elements with their paths are records to the encoder, not raw JSON', async () => {
    const text = '{"a": [1, "é", {"b": [2]}]}';
    const options = { path: '$.a[*]', output: 'bytes', withNormalizedPath: true } as const;
    const records: Named[] = [];
    for await (const record of parseJsonArray(text, options)) records.push(record as Named);
    expect(records.map((r) => r.normalizedPath)).toEqual(["$['a'][0]", "$['a'][1]", "$['a'][2]"]);
    const written = await new Response(stringifyStream({ all: parseJsonArray(text, options) })).text();
    expect(written).toBe(JSON.stringify({ all: records }));
  });

  test('the markers count against the native limits, in a TypeError naming the option', () => {
    // 20 selectors, each ending under a wildcard of its own: 20 start markers more, 40 in all.
    const paths = Array.from({ length: 20 }, (_, i) => `$.a${i}[*].b`);
    expect(() => createParser({ paths })).not.toThrow();
    expect(() => createParser({ paths, withNormalizedPath: true })).toThrow(
      new TypeError(
        "createParser(): options.withNormalizedPath needs 20 marker selectors besides the paths' 20; at most 32 in all",
      ),
    );
    // A long part before `..` takes its steps twice more, as a start and an end marker.
    const deep = `$${'.a'.repeat(20)}..b`;
    expect(() => createParser({ paths: [deep, deep.replace('..b', '..c')], order: 'arrival' })).not.toThrow();
    expect(() =>
      createParser({ paths: [deep, deep.replace('..b', '..c')], order: 'arrival', withNormalizedPath: true }),
    ).toThrow(
      /options.withNormalizedPath needs 42 steps of markers with \.\. besides the paths' 42; at most 64 in all/,
    );
    expect(() =>
      createParser({ path: '$..a', order: 'arrival', ndjson: true, onInvalidLine: () => {}, withNormalizedPath: true }),
    ).toThrow(/options.withNormalizedPath with \.\. cannot be used with options.onInvalidLine/);
    const skipped = records(
      { path: '$.a[*]', ndjson: true, onInvalidLine: () => {}, withNormalizedPath: true },
      '{"a":[1,\n{"a":[2]}\n',
    );
    expect(skipped).toEqual([
      { value: 1, normalizedPath: "$['a'][0]" },
      { value: 2, normalizedPath: "$['a'][0]" },
    ]);
  });
});

describe('normalized paths: parsers saved and restored', () => {
  test('more parsers than stay resident, fed in turn: each keeps its own keys', () => {
    // RESIDENT_LIMIT (64) parsers stay in the module; the others are saved to bytes and restored when fed.
    const count = 80;
    const doc = (k: number) => ({ a: Array.from({ length: 3 }, (_, i) => ({ [`n${k}`]: { b: [k, i] } })) });
    const texts = Array.from({ length: count }, (_, k) => encoder.encode(JSON.stringify(doc(k))));
    const queries = ['$.a[*].*.b[1]', '$..b[*]'];
    const parsers = texts.map((_, k) =>
      createParser({ path: queries[k % 2]!, order: 'arrival', withNormalizedPath: true }),
    );
    const got: Named[][] = texts.map(() => []);
    const longest = Math.max(...texts.map((t) => t.length));
    for (let at = 0; at < longest; at += 7) {
      for (const [k, parser] of parsers.entries())
        got[k]!.push(...(parser.push(texts[k]!.subarray(at, at + 7)) as Named[]));
    }
    for (const [k, parser] of parsers.entries()) {
      got[k]!.push(...(parser.end() as Named[]));
      const ranks = arrivalRanks(doc(k));
      const expected = [...new Map(referencePairs(queries[k % 2]!, doc(k)))].sort(
        ([a], [b]) => ranks.get(a)! - ranks.get(b)!,
      );
      expect(got[k]!.map((r) => [r.normalizedPath, r.value])).toEqual(expected);
    }
  });
});
