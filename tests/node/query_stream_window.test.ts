// A segment counted from the end of each array (a negative index, a slice with a negative part) after a head
// without `..`: the native head selects every element of those arrays, keyed by index, and a JS window per query
// keeps what the segment may take until the array is complete (js/parse/array_window.ts); segments after it are
// evaluated on each element it selects. Seeded random heads, segments and documents, fed whole, byte by byte and at
// random cuts, against the reference evaluator (js/query/evaluate.ts): values in its order, keys, normalized paths,
// and exact text and offsets where the node is the element itself.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createParser, JsonArrayStream, parseJsonArray } from '../../dist/index.js';
// @ts-expect-error evaluate is @internal: stripped from the shipped .d.ts, tested all the same.
import { evaluate } from '../../dist/query/evaluate.js';
// @ts-expect-error @internal, as above
import { parseQuery } from '../../dist/query/parser.js';
import { CUTS, streamed } from '../support/feed.js';
import { createRng } from '../support/random_json.mjs';
import { looseJson, randomQuery, randomValue } from '../support/random_query.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x3d0e);
const QUERIES = 1_500;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

type Rng = ReturnType<typeof createRng>;
type Node = { value: unknown; path: string };
type Element = { path: string; key: unknown; value: string; offset: number; length: number };

/** Arrays of arrays and objects of `a` and `b`, so that the heads reach arrays of several lengths. */
function shaped(rng: Rng, depth: number): unknown {
  if (depth === 0 || rng.chance(0.15)) return randomValue(rng, 1);
  if (rng.chance(0.7)) return Array.from({ length: rng.int(8) }, () => shaped(rng, depth - 1));
  const object: Record<string, unknown> = {};
  for (const name of ['a', 'b']) if (rng.chance(0.9)) object[name] = shaped(rng, depth - 1);
  return object;
}

/** A last segment counted from the end: a negative index, or a slice with at least one negative part. */
function fromTheEnd(rng: Rng): string {
  if (rng.chance(0.35)) return `[-${1 + rng.int(4)}]`;
  for (;;) {
    const part = () => (rng.chance(0.3) ? '' : String(rng.int(9) - 4));
    const step = rng.chance(0.5) ? '' : `:${rng.pick(['', '1', '2', '-1', '-2', '-3', '0'])}`;
    const text = `${part()}:${part()}${step}`;
    if (text.includes('-')) return `[${text}]`;
  }
}

function randomWindowQuery(rng: Rng): string {
  let text = '$';
  for (let n = rng.int(3); n > 0; n--) text += rng.pick(['.a', "['b']", '[*]', '[*]', '[*]', '[0]', '[0,2]', '.*']);
  return text + fromTheEnd(rng);
}

describe('a last segment from the end of each array, against the reference evaluator', () => {
  test(`${QUERIES} random queries (seed ${SEED})`, () => {
    const rng = createRng(SEED);
    const wrong: string[] = [];
    let nodes = 0;
    for (let n = 0; n < QUERIES; n++) {
      const query = randomWindowQuery(rng);
      let doc: unknown;
      do doc = shaped(rng, 4);
      while (typeof doc !== 'object' || doc === null);
      const text = looseJson(rng, doc);
      const bytes = encoder.encode(text);
      const reference: Node[] = evaluate(parseQuery(query), doc);
      nodes += reference.length;
      const expected = reference.map((node) => node.value);
      for (const [name, cut] of Object.entries(CUTS)) {
        const got = streamed({ path: query }, bytes, cut, rng);
        if (!isDeepStrictEqual(got, expected)) {
          wrong.push(`${name} ${JSON.stringify(query)} on ${text}: ${JSON.stringify(got)}`);
        }
      }
      // The node is the element itself: its exact text and place, and its own index as its key.
      const cut = Object.values(CUTS)[rng.int(3)]!;
      const elements = streamed({ path: query, output: 'text', withPath: true, withOffset: true }, bytes, cut, rng);
      const exact =
        elements.length === reference.length &&
        (elements as Element[]).every(
          (e, i) =>
            e.path === query &&
            reference[i]!.path.endsWith(`[${String(e.key)}]`) &&
            decoder.decode(bytes.subarray(e.offset, e.offset + e.length)) === e.value &&
            isDeepStrictEqual(JSON.parse(e.value), expected[i]),
        );
      if (!exact) wrong.push(`text ${JSON.stringify(query)} on ${text}: ${JSON.stringify(elements)}`);
    }
    console.log(`windows: ${QUERIES} queries, ${nodes} nodes`);
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(nodes).toBeGreaterThan(QUERIES / 2);
  });

  test('NDJSON: each line an array of its own', () => {
    const lines = [[1, 2, 3], [], [4], { a: 1 }, [5, 6]];
    const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    const got = streamed({ path: '$[-2:]', ndjson: true }, encoder.encode(text), () => 3, createRng(1));
    expect(got).toEqual(lines.flatMap((l) => evaluate(parseQuery('$[-2:]'), l).map((n: Node) => n.value)));
  });

  test('several queries: a window, a tail and a native one, each in its own order', () => {
    const doc = { a: [[1, 2], [3], [4, 5, 6]], n: 7 };
    const paths = ['$.a[*][-1]', '$.n'];
    const got = streamed({ paths }, encoder.encode(JSON.stringify(doc)), () => 2, createRng(2));
    // The last array's window empties at the end of the input, after `n`.
    expect(got).toEqual([
      { path: '$.a[*][-1]', key: 1, value: 2 },
      { path: '$.a[*][-1]', key: 0, value: 3 },
      { path: '$.n', key: 'n', value: 7 },
      { path: '$.a[*][-1]', key: 2, value: 6 },
    ]);
  });

  test('parseJsonArray and JsonArrayStream empty the last window at the end of their input', async () => {
    const text = '{"a":[[1,2],[3],[4,5,6]]}';
    const expected = evaluate(parseQuery('$.a[*][-1]'), JSON.parse(text)).map((n: Node) => n.value);
    const viaArray: unknown[] = [];
    for await (const value of parseJsonArray(text, { path: '$.a[*][-1]' })) viaArray.push(value);
    expect(viaArray).toEqual(expected);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(text);
        controller.close();
      },
    }).pipeThrough(new JsonArrayStream({ path: '$.a[*][-1]' }));
    const viaStream: unknown[] = [];
    for await (const value of stream as unknown as AsyncIterable<unknown>) viaStream.push(value);
    expect(viaStream).toEqual(expected);
  });

  test('segments after the window: each element it selects is a candidate of the rest, evaluated in JS', () => {
    const rng = createRng(SEED + 1);
    const wrong: string[] = [];
    let tested = 0;
    let nodes = 0;
    for (let n = 0; n < QUERIES / 3; n++) {
      // No wildcard before it: the window's elements are the only candidates (with one, its elements would be).
      let query = '$';
      for (let m = rng.int(3); m > 0; m--) query += rng.pick(['.a', "['b']", '[0]', '[0,2]']);
      query += fromTheEnd(rng) + randomQuery(rng, 1, '$', 3).slice(1);
      let doc: unknown;
      do doc = shaped(rng, 4);
      while (typeof doc !== 'object' || doc === null);
      try {
        createParser({ path: query }).close();
      } catch (error) {
        // Refused as any tail with a filter reading `$` is (the only refusals here): counted below.
        if (error instanceof TypeError) continue;
        throw error;
      }
      tested++;
      const text = looseJson(rng, doc);
      const bytes = encoder.encode(text);
      const reference: Node[] = evaluate(parseQuery(query), doc);
      nodes += reference.length;
      const expected = reference.map((node) => ({ value: node.value, normalizedPath: node.path }));
      for (const [name, cut] of Object.entries(CUTS)) {
        const got = streamed({ path: query, withNormalizedPath: true }, bytes, cut, rng);
        if (!isDeepStrictEqual(got, expected)) {
          wrong.push(`${name} ${JSON.stringify(query)} on ${text}: ${JSON.stringify(got)}`);
        }
      }
    }
    console.log(`windows then tails: ${tested} of ${QUERIES / 3} queries streamed, ${nodes} nodes`);
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(tested).toBeGreaterThan(QUERIES / 6);
    expect(nodes).toBeGreaterThan(tested / 2);
  });

  test('onInvalidLine is refused: a skipped line would cut an array short', () => {
    expect(() => createParser({ path: '$[-1]', ndjson: true, onInvalidLine: () => {} })).toThrow(
      'options.path "$[-1]" at 2: the negative index -1 is taken from a window over each array, which ' +
        'options.onInvalidLine would cut short; remove it',
    );
  });
});
