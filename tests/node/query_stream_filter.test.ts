// Filters evaluated natively (the simple subset in the last segment: js/query/filter_program.ts) against the
// reference evaluator (js/query/evaluate.ts): seeded random filters over random documents written loosely
// (escapes, other number forms, blanks), fed whole, byte by byte and at random cuts.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createParser, parseJsonArray } from '../../dist/index.js';
// @ts-expect-error evaluate is @internal: stripped from the shipped .d.ts, tested all the same.
import { evaluate } from '../../dist/query/evaluate.js';
// @ts-expect-error @internal, as above
import { parseQuery } from '../../dist/query/parser.js';
import { CUTS, streamed } from '../support/feed.js';
import { createRng } from '../support/random_json.mjs';
import { looseJson, randomDocument, randomFilterQuery } from '../support/random_query.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0xf11e);
const QUERIES = 1_500;
const encoder = new TextEncoder();

async function parsed(text: string, path: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const value of parseJsonArray(text, { path })) out.push(value);
  return out;
}

describe('native filters against the reference evaluator', () => {
  test(`${QUERIES} random simple filters (seed ${SEED})`, () => {
    const rng = createRng(SEED);
    const wrong: string[] = [];
    let selected = 0;
    let rejected = 0;
    for (let n = 0; n < QUERIES; n++) {
      const query = randomFilterQuery(rng);
      const doc = randomDocument(rng);
      const text = looseJson(rng, doc);
      const expected = evaluate(parseQuery(query), doc).map((node: { value: unknown }) => node.value);
      for (const [name, cut] of Object.entries(CUTS)) {
        const got = streamed({ path: query }, encoder.encode(text), cut, rng);
        if (!isDeepStrictEqual(got, expected)) {
          wrong.push(`${name} ${JSON.stringify(query)} on ${text}: ${JSON.stringify(got)}`);
        }
      }
      selected += expected.length;
      // The candidates a filter dropped: the children the same query with * selects, less those it kept.
      const star = query.replace(/\[\?.*\]$/s, '[*]');
      rejected += evaluate(parseQuery(star), doc).length - expected.length;
    }
    console.log(`native filters: ${selected} candidates kept, ${rejected} dropped`);
    expect(wrong.slice(0, 10)).toEqual([]);
    // Both outcomes are common, or the comparison proves little.
    expect(Math.min(selected, rejected)).toBeGreaterThan(QUERIES / 4);
  });

  test('an element cut across many chunks is decided from all its bytes', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({
      pad: 'x'.repeat(300 + i),
      deep: { list: [i, { s: `é${i}\u{1F600}` }] },
      n: i % 7,
    }));
    const text = JSON.stringify({ rows });
    const query = '$.rows[?@.deep.list[1].s > "é3" && @.n != 3 || @.deep.list[0] == 1e1]';
    const expected = evaluate(parseQuery(query), { rows }).map((node: { value: unknown }) => node.value);
    expect(expected.length).toBeGreaterThan(5);
    const rng = createRng(7);
    for (const cut of Object.values(CUTS))
      expect(streamed({ path: query }, encoder.encode(text), cut, rng)).toEqual(expected);
    expect(await parsed(text, query)).toEqual(expected);
  });

  test('deep equality of containers, numbers by value, strings after unescaping', async () => {
    const doc = `[{"a":[1,{"x":"\\u00e9"}],"b":[1.0,{"x":"é"}]},{"a":{"p":1,"q":2},"b":{"q":2e0,"p":1}},
      {"a":{"p":1},"b":{"p":1,"q":2}},{"a":[1,2],"b":[1,2,3]},{"a":"\\ud83d\\ude00","b":"\u{1F600}"},
      {"a":"\uffff","b":"\u{1F600}"},{"a":100,"b":1e2},{"a":null},{"b":0}]`;
    const value = JSON.parse(doc);
    for (const query of [
      '$[?@.a == @.b]',
      '$[?@.a != @.b]',
      '$[?@.a < @.b]',
      '$[?@.a >= @.b]',
      '$[?@.a]',
      '$[?!@.b]',
    ]) {
      const expected = evaluate(parseQuery(query), value).map((node: { value: unknown }) => node.value);
      expect(await parsed(doc, query), query).toEqual(expected);
    }
    expect(await parsed(doc, '$[?@.a == @.b]')).toHaveLength(4);
  });

  test('a parser saved mid-element (more parsers than stay resident) keeps its filter and the bytes seen', () => {
    const text = JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ k: 'é'.repeat(40), v: i % 3 })));
    const bytes = encoder.encode(text);
    const parsers = Array.from({ length: 80 }, () => createParser({ path: '$[?@.k >= "é" && @.v == 1]' }));
    const outs: unknown[][] = parsers.map(() => []);
    // Round robin, 7 bytes each: every parser is saved and loaded again with an element open.
    for (let at = 0; at < bytes.length; at += 7) {
      for (const [i, parser] of parsers.entries()) outs[i]!.push(...parser.push(bytes.subarray(at, at + 7)));
    }
    for (const [i, parser] of parsers.entries()) outs[i]!.push(...parser.end());
    const expected = JSON.parse(text).filter((row: { v: number }) => row.v === 1);
    expect(expected).toHaveLength(2);
    for (const out of outs) expect(out).toEqual(expected);
  });

  test('several selectors on the same children: each filter decides for its own path', () => {
    const rows = [{ x: 1, y: true }, { x: 2 }, { y: 0 }, 5, { x: 1 }];
    const paths = ['$.r[?@.x == 1]', '$.r[?@.y]', '$.r[*]', '$.r[?@ == 5]'];
    const text = JSON.stringify({ r: rows });
    const rng = createRng(3);
    for (const cut of Object.values(CUTS)) {
      const parser = createParser({ paths });
      const got: unknown[] = [];
      const bytes = encoder.encode(text);
      for (let at = 0; at < bytes.length; ) {
        const size = cut(rng);
        got.push(...parser.push(bytes.subarray(at, at + size)));
        at += size;
      }
      got.push(...parser.end());
      // Per child, in the order the paths were given, each path that selects it (the reference, path by path).
      const expected = rows.flatMap((row, key) =>
        paths
          .filter((path) =>
            evaluate(parseQuery(path), { r: rows }).some((n: { path: string }) => n.path === `$['r'][${key}]`),
          )
          .map((path) => ({ path, key, value: row })),
      );
      expect(got).toEqual(expected);
    }
  });

  // Other filters run in JS after a native head: tests/node/query_stream_tail.test.ts.
  test.each(['$..a[?@.b]', '$[?$.a == 1]'])('%s stays refused', (query) => {
    expect(() => createParser({ path: query })).toThrow(/not supported in a stream/);
  });
});
