// Queries split into a native head and a tail evaluated in JS on each candidate the head selects
// (js/query/split.ts, js/parse/tails.ts), against the reference evaluator (js/query/evaluate.ts over JSON.parse of
// the whole document): seeded random heads and tails of the whole grammar over random documents written loosely,
// fed whole, byte by byte and at random cuts; values, order and multiplicity must be the evaluator's nodelist, and
// `key` the last step of each node's normalized path. Then the options a tail cannot honour, each refused.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createParser, JsonLimitError, parseJsonArray } from '../../dist/index.js';
// @ts-expect-error evaluate is @internal: stripped from the shipped .d.ts, tested all the same.
import { evaluate } from '../../dist/query/evaluate.js';
// @ts-expect-error @internal, as above
import { lowerQuery } from '../../dist/query/lower.js';
// @ts-expect-error @internal, as above
import { quoteName } from '../../dist/query/normalized_path.js';
// @ts-expect-error @internal, as above
import { parseQuery } from '../../dist/query/parser.js';
import { CUTS, streamed } from '../support/feed.js';
import { createRng } from '../support/random_json.mjs';
import { looseJson, randomQuery, randomHead, randomJsFilter, shapedDocument } from '../support/random_query.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x7a11);
const QUERIES = 1_500;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

type Node = { value: unknown; path: string };
type Tail = { filter: unknown; segments: unknown[] } | null;

/** The tail a query was split with (null: it streams whole), or undefined when it is refused. */
function tailOf(query: string): Tail | undefined {
  try {
    return (lowerQuery('test', 'path', query, 'rfc', 'arrival') as { tail: Tail }).tail;
  } catch (error) {
    const message = (error as Error).message;
    const refused = /not supported in a stream|native selectors|with arrival each match/.test(message);
    if (!refused) throw error;
    return undefined;
  }
}

/** Whether `key` is the last step of the normalized path `path`. */
function lastStep(path: string, key: unknown): boolean {
  return path.endsWith(typeof key === 'number' ? `[${key}]` : `[${quoteName(key)}]`);
}

describe('a native head and a tail in JS, against the reference evaluator', () => {
  test(`${QUERIES} random split queries (seed ${SEED})`, () => {
    const rng = createRng(SEED);
    const wrong: string[] = [];
    const counts = { tails: 0, candidateFilters: 0, textChecked: 0, nodes: 0, refused: 0, whole: 0 };
    while (counts.tails < QUERIES) {
      const query = rng.chance(0.2)
        ? randomHead(rng).replace(/\[\*\]$/, '') + randomJsFilter(rng) + randomQuery(rng, 1, '$', 1).slice(1)
        : randomHead(rng) + randomQuery(rng, 1, '$', 3).slice(1);
      const tail = tailOf(query);
      if (tail === undefined) {
        counts.refused++;
        continue;
      }
      if (tail === null) {
        counts.whole++;
        continue;
      }
      counts.tails++;
      if (tail.filter !== null) counts.candidateFilters++;
      const doc = shapedDocument(rng, { depth: 5, arrays: 0.5, length: 5 });
      const text = looseJson(rng, doc);
      const bytes = encoder.encode(text);
      const reference: Node[] = evaluate(parseQuery(query), doc);
      const expected = reference.map((n) => n.value);
      counts.nodes += expected.length;
      const cuts = Object.entries(CUTS);
      for (const [name, cut] of cuts) {
        const got = streamed({ path: query }, bytes, cut, rng);
        if (!isDeepStrictEqual(got, expected)) {
          wrong.push(`${name} ${JSON.stringify(query)} on ${text}: ${JSON.stringify(got)}`);
        }
      }
      // With paths: the query as given, and each node's own key.
      const [name, cut] = cuts[rng.int(cuts.length)]!;
      const records = streamed({ path: query, withPath: true }, bytes, cut, rng) as (Node & { key: unknown })[];
      const ok =
        records.length === reference.length &&
        records.every(
          (r, i) =>
            r.path === query && isDeepStrictEqual(r.value, reference[i]!.value) && lastStep(reference[i]!.path, r.key),
        );
      if (!ok) wrong.push(`withPath, ${name} ${JSON.stringify(query)} on ${text}: ${JSON.stringify(records)}`);
      // A tail that only filters emits the candidate itself: its exact text, at its exact offset.
      if (tail.segments.length === 0) {
        counts.textChecked++;
        const elements = streamed({ path: query, output: 'text', withOffset: true }, bytes, cut, rng) as {
          value: string;
          offset: number;
          length: number;
        }[];
        const exact = elements.every(
          (e, i) =>
            decoder.decode(bytes.subarray(e.offset, e.offset + e.length)) === e.value &&
            isDeepStrictEqual(JSON.parse(e.value), expected[i]),
        );
        if (!exact || elements.length !== expected.length) {
          wrong.push(`text, ${name} ${JSON.stringify(query)} on ${text}: ${JSON.stringify(elements)}`);
        }
      }
    }
    console.log(
      `split queries: ${counts.tails} with a tail (${counts.candidateFilters} filtering the candidate, ` +
        `${counts.textChecked} checked as text too), ${counts.nodes} nodes; ${counts.whole} streamed whole, ` +
        `${counts.refused} refused`,
    );
    expect(wrong.slice(0, 10)).toEqual([]);
    // Enough of each kind, or the comparison proves little.
    expect(counts.candidateFilters).toBeGreaterThan(QUERIES / 20);
    expect(counts.textChecked).toBeGreaterThan(QUERIES / 20);
    expect(counts.nodes).toBeGreaterThan(QUERIES);
  });
});

describe('the examples of docs/paths.md', () => {
  const doc = {
    items: [
      { id: 1, tags: ['a', 'b', 'c'], x: 2, name: 'n1', sub: { id: 10 } },
      { id: 2, tags: ['d'], x: 0, name: 'n2' },
      { id: 3, tags: [1, 2, 3, 4], x: 5 },
    ],
    rows: [[1, 2, 3], [4], [], [5, 6]],
  };
  const text = JSON.stringify(doc, null, 1);

  test.each([
    '$.items[?length(@.tags) > 2]',
    '$.items[?@.x > 1].name',
    '$.items[*]..id',
    "$.items[*]['name','id']",
    '$.items[*].tags[-1]',
    '$.rows[0:10][::-1]',
    '$.rows[*][-2:]',
    '$.items[?count(@.tags[?@ > 1]) > 0].id',
  ])('%s, in RFC order, through createParser and parseJsonArray', async (query) => {
    const expected = evaluate(parseQuery(query), doc).map((n: Node) => n.value);
    expect(expected.length).toBeGreaterThan(0);
    expect(streamed({ path: query }, encoder.encode(text), () => 7, createRng(1))).toEqual(expected);
    const got: unknown[] = [];
    for await (const value of parseJsonArray(text, { path: query })) got.push(value);
    expect(got).toEqual(expected);
  });

  test("order: 'arrival' gives a tail's nodes in the RFC's order too, duplicates kept", () => {
    const query = '$.rows[*][0, 0]';
    const expected = evaluate(parseQuery(query), doc).map((n: Node) => n.value);
    expect(expected).toEqual([1, 1, 4, 4, 5, 5]);
    expect(
      streamed({ path: '$.rows[*][-1, -1]', order: 'arrival' }, encoder.encode(text), () => 3, createRng(1)),
    ).toEqual([3, 3, 4, 4, 6, 6]);
  });

  test('a tail path and a native one together: each as its candidates complete', () => {
    const paths = ['$.items[*].tags[-1]', '$.items[*].x'];
    const got = streamed({ paths }, encoder.encode(text), () => 5, createRng(2)) as { path: string }[];
    // x completes inside its item, the tail's node when the item does.
    const expected = doc.items.flatMap((item, i) =>
      paths
        .slice()
        .reverse()
        .flatMap((path) =>
          evaluate(parseQuery(path.replace('[*]', `[${i}]`)), doc).map((n: Node) => ({
            path,
            key: path.endsWith('.x') ? 'x' : item.tags.length - 1,
            value: n.value,
          })),
        ),
    );
    expect(got).toEqual(expected);
  });

  test('a candidate is bounded by maxElementBytes, whatever its tail selects', () => {
    const big = JSON.stringify({ items: [{ tags: [1] }, { pad: 'x'.repeat(200), tags: [2] }] });
    const parser = createParser({ path: '$.items[*]..tags[-1]', maxElementBytes: 100 });
    let error: unknown;
    const got: unknown[] = [];
    try {
      got.push(...parser.push(big));
      got.push(...parser.end());
    } catch (e) {
      error = e;
    }
    expect(got).toEqual([1]);
    expect(error).toBeInstanceOf(JsonLimitError);
    expect((error as JsonLimitError).code).toBe('ELEMENT_TOO_LARGE');
  });

  test("integers: 'bigint' and 'string' in a tail that only selects; bytes of a candidate a filter kept", () => {
    const source = '{"a":[{"b":[1,12345678901234567890]},{"b":[]},{"b":[-98765432109876543210,3]}]}';
    expect(
      streamed({ path: '$.a[*]..b[-1]', integers: 'bigint' }, encoder.encode(source), () => 4, createRng(3)),
    ).toEqual([12345678901234567890n, 3]);
    expect(streamed({ path: '$.a[*]..*', integers: 'string' }, encoder.encode(source), () => 9, createRng(3))).toEqual([
      [1, '12345678901234567890'],
      1,
      '12345678901234567890',
      [],
      ['-98765432109876543210', 3],
      '-98765432109876543210',
      3,
    ]);
    const bytes = encoder.encode(source);
    const kept = streamed({ path: '$.a[?length(@.b) > 1]', output: 'bytes' }, bytes, () => 6, createRng(3));
    expect(kept.map((b) => decoder.decode(b as Uint8Array))).toEqual([
      '{"b":[1,12345678901234567890]}',
      '{"b":[-98765432109876543210,3]}',
    ]);
  });
});

describe('what a tail cannot honour is refused, naming the option', () => {
  const from = 'from here the query is evaluated in JS on the value of each node the part before it selects';

  test.each([
    [{ path: '$.a[*].b[-1].c', reviver: (_k: string, v: unknown) => v }, `at 6: ${from}, which options.reviver`],
    [{ path: '$.a[?length(@) > 1]', integers: 'bigint' }, `at 4: ${from}, and its filters compare numbers`],
    [{ path: '$.a[*].b[-1].c', output: 'text' }, `at 6: ${from}, and selects inside that value, where no exact text`],
    [{ path: '$.a[*].b[-1].c', output: 'bytes' }, "options.output 'bytes' is not supported there"],
    [{ path: '$.a[*].b[-1].c', withOffset: true }, 'options.withOffset is not supported there'],
    [{ paths: ['$.x', '$.a[*][-1].c'], withOffset: true }, 'options.paths[1] "$.a[*][-1].c" at 6: '],
    [
      { path: '$.a[?@.b == $.c]' },
      'at 4: a filter selector with an absolute query ($...) is not supported in a stream',
    ],
    [{ path: '$..a[?length(@) > 1]' }, 'at 5: a filter selector is not supported in a stream yet'],
    [{ path: '$..a[0]' }, 'at 1: RFC 9535 order of the descendant segment'],
    [{ path: '$.a[-1,0].b' }, 'at 4: the negative index -1 is not supported in a stream yet'],
    [{ path: '$.a[-1].b', output: 'bytes' }, `at 7: ${from}, and selects inside that value`],
    [{ path: '$[-1].b', ndjson: true, onInvalidLine: () => {} }, 'at 2: the negative index -1 is taken from a window'],
  ])('%j', (options, message) => {
    expect(() => createParser(options as never)).toThrow(TypeError);
    expect(() => createParser(options as never)).toThrow(message);
  });

  test('and what it can, is not: text and offsets of a candidate a filter kept, integers where nothing compares', () => {
    for (const options of [
      { path: '$.a[?length(@) > 1]', output: 'text', withOffset: true },
      { path: '$.a[?length(@) > 1]', output: 'bytes', withPath: true },
      { path: '$.a[*].b[-1].c', integers: 'bigint', withPath: true },
      { path: '$.a[-1].b', integers: 'bigint', withPath: true },
    ]) {
      expect(() => createParser(options as never).close()).not.toThrow();
    }
  });
});
