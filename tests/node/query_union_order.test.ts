// Unions streamed in RFC 9535's order by holding the later selectors' matches until their container ends
// (js/parse/match_order.ts; docs/paths.md, "Order"): random documents, every output form and option that applies,
// fed whole, byte by byte and at random cuts, against the reference evaluator (js/query/evaluate.ts); and what
// is held: nothing delivered out of order before an error, the options such a union refuses.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createParser, JsonSyntaxError } from '../../dist/index.js';
// @ts-expect-error evaluate is @internal: stripped from the shipped .d.ts, tested all the same.
import { evaluate } from '../../dist/query/evaluate.js';
// @ts-expect-error @internal, as above
import { lowerQuery } from '../../dist/query/lower.js';
// @ts-expect-error @internal, as above
import { parseQuery } from '../../dist/query/parser.js';
import { createRng } from '../support/random_json.mjs';
import { randomDocument } from '../support/random_query.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x0d3e);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

type Node = { value: unknown; path: string };
type Options = Record<string, unknown>;

// Unions out of document order or selecting a node twice, at the root, after a first part, with more after.
const QUERIES = [
  '$[*, 0]',
  '$[0, *]',
  '$[1, 0]',
  '$[*, *]',
  '$[0:2, 1]',
  '$[2, 0:2, 5:1, *]',
  "$['b', 'a']",
  "$['a', *]",
  "$[*]['b', 'a']",
  "$[*][*, 'a']",
  "$.a[1, 0]['b']",
  "$[*]['c', 'b', 'a'][0]",
  "$[*]['b', 'a'][*]",
  '$[*][?@ > 1, 0]',
  "$['a'][::2, 1]",
  "$[0, 2]['b', 'a']",
];

/** What the parser delivers for `query` over `bytes` cut by `cut`, in `options`' output form. */
function streamed(query: string, options: Options, bytes: Uint8Array, cut: () => number): unknown[] {
  const parser = createParser({ path: query, ...options } as never);
  const out: unknown[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = cut();
    out.push(...parser.push(bytes.subarray(at, at + size)));
    at += size;
  }
  out.push(...parser.end());
  return out;
}

/** The delivered element's value, whatever the output form. */
function elementValue(element: unknown, options: Options): unknown {
  const wrapped = options.withPath || options.withOffset || options.withNormalizedPath;
  const inner = wrapped ? (element as { value: unknown }).value : element;
  if (options.output === 'bytes') return JSON.parse(decoder.decode(inner as Uint8Array));
  if (options.output === 'text') return JSON.parse(inner as string);
  return inner;
}

const FORMS: Options[] = [
  {},
  { output: 'bytes' },
  { output: 'text', withOffset: true },
  { withPath: true },
  { withNormalizedPath: true },
  { output: 'bytes', withNormalizedPath: true, withOffset: true },
  { reviver: (_key: string, value: unknown) => value },
];

describe('unions held for RFC order', () => {
  test(`match the reference evaluator in every output form and chunking (seed ${SEED})`, () => {
    const rng = createRng(SEED);
    const wrong: string[] = [];
    let matches = 0;
    for (let round = 0; round < 60; round++) {
      const doc = randomDocument(rng);
      const text = JSON.stringify(doc, null, rng.chance(0.5) ? 1 : undefined);
      const bytes = encoder.encode(text);
      for (const query of QUERIES) {
        const reference: Node[] = evaluate(parseQuery(query), doc);
        matches += reference.length;
        const form = FORMS[rng.int(FORMS.length)]!;
        const cuts = [() => bytes.length, () => 1, () => 1 + rng.int(rng.chance(0.3) ? 4 : 64)];
        const cut = cuts[rng.int(cuts.length)]!;
        const got = streamed(query, form, bytes, cut);
        const values = got.map((element) => elementValue(element, form));
        const paths = form.withNormalizedPath ? got.map((e) => (e as { normalizedPath: string }).normalizedPath) : null;
        const offsets = form.withOffset
          ? got.map((e) => {
              const { offset, length } = e as { offset: number; length: number };
              return JSON.parse(decoder.decode(bytes.subarray(offset, offset + length)));
            })
          : null;
        const expected = reference.map((n) => n.value);
        if (
          !isDeepStrictEqual(values, expected) ||
          (paths !== null &&
            !isDeepStrictEqual(
              paths,
              reference.map((n) => n.path),
            )) ||
          (offsets !== null && !isDeepStrictEqual(offsets, expected)) ||
          (form.withPath && got.some((e) => (e as { path: string }).path !== query))
        ) {
          wrong.push(`${query} ${JSON.stringify(Object.keys(form))} on ${text}: ${JSON.stringify(values)}`);
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(matches).toBeGreaterThan(500);
  });

  test('several paths: each query in its own order, interleaved as they complete', () => {
    const doc = [
      { a: 1, b: 2 },
      { a: 3, b: 4 },
    ];
    const parser = createParser({ paths: ["$[*]['b', 'a']", '$[*].a'] });
    const got = [...parser.push(JSON.stringify(doc)), ...parser.end()].map((e) => {
      const { path, value } = e as { path: string; value: unknown };
      return `${path.length > 8 ? 'union' : 'a'}:${value}`;
    });
    // The union's `a` of each object waits for the object's end; the second query's `a` comes as it ends.
    expect(got).toEqual(['a:1', 'union:2', 'union:1', 'a:3', 'union:4', 'union:3']);
  });

  test('NDJSON: each line is a container of its own', () => {
    const parser = createParser({ path: "$['b', 'a']", ndjson: true });
    const got = [...parser.push('{"a":1,"b":2}\n{"a":3}\n{"b":4,"a":5}\n'), ...parser.end()];
    expect(got).toEqual([2, 1, 3, 4, 5]);
  });

  test('an error: the matches before it in RFC order are delivered, the held ones are not', () => {
    const parser = createParser({ path: '$[*, 0]' });
    expect(parser.push('[{"x":1},{"x":2}')).toEqual([{ x: 1 }, { x: 2 }]);
    expect(() => parser.push(',}')).toThrow(JsonSyntaxError);
  });

  test('what is held: the later stages of one container, released at its end', () => {
    const parser = createParser({ path: "$[*]['b', 'a']" });
    expect(parser.push('[{"a":1,"b":2')).toEqual([]);
    expect(parser.push('}')).toEqual([2, 1]);
    expect(parser.push(',{"a":3,')).toEqual([]);
    expect(parser.push('"b":4}]')).toEqual([4, 3]);
    expect(parser.end()).toEqual([]);
  });

  test('an index or a bounded slice first: the next stage is released once the elements pass it', () => {
    const early = createParser({ path: '$[0, *]' });
    // Element 0 ends its stage: from there the wildcard's elements come as they complete, nothing held.
    expect(early.push('[1,2,3')).toEqual([1, 1, 2]);
    expect(early.end.bind(early)).toThrow(JsonSyntaxError);
    const slice = createParser({ path: '$[1:3, 0]' });
    expect(slice.push('[1,2,3')).toEqual([2]);
    expect(slice.push(',4')).toEqual([3, 1]);
    expect(slice.push(']')).toEqual([]);
    const names = createParser({ path: "$['b', 0, 'a']" });
    expect(names.push('{"a":1,"b":2')).toEqual([]);
    expect(names.push('}')).toEqual([2, 1]);
  });

  test('lowering: the container marked, each native selector with its stage', () => {
    const lowered = (text: string) =>
      lowerQuery('createParser()', 'options.path', text, 'rfc', "order: 'arrival'") as {
        selectors: string[];
        mayRepeat: boolean;
        held: { containers: string[]; stages: number[]; lasts: number[] | null } | null;
      };
    expect(lowered("$.a[*]['b', 'a'][0, 2]")).toMatchObject({
      selectors: ['$["a"][*]["b"][0]', '$["a"][*]["b"][2]', '$["a"][*]["a"][0]', '$["a"][*]["a"][2]'],
      mayRepeat: false,
      held: { containers: ['$["a"][*]'], stages: [0, 0, 1, 1], lasts: null },
    });
    expect(lowered('$[*, 0]').held).toEqual({ containers: ['$'], stages: [0, 1], lasts: [Infinity, 0] });
    expect(lowered('$[3:1, 2:5, *]').held?.lasts).toEqual([-1, 4, Infinity]);
    // After a union of indices, one container each.
    expect(lowered("$[0, 2]['b', 'a']").held).toEqual({
      containers: ['$[0]', '$[2]'],
      stages: [0, 1, 0, 1],
      lasts: null,
    });
    // In document order already, or with a JS tail: nothing held.
    expect(lowered('$[0, 2]').held).toBeNull();
    expect(lowered("$[*][-1]['b', 'a']").held).toBeNull();
  });

  test('refused: a skipped NDJSON line, a JS tail beside it, two such unions', () => {
    const refused = (options: Options) => {
      try {
        createParser(options as never).close();
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused({ path: "$['b', 'a']", ndjson: true, onInvalidLine: () => {} })).toContain(
      'a union held for RFC order refuses options.onInvalidLine',
    );
    expect(refused({ paths: ['$[1, 0]', '$[-1]'] })).toContain(
      'a union held for RFC order and a query evaluated in JS need two parsers',
    );
    expect(refused({ path: "$['a', 'b'][1, 0]" })).toContain("with order: 'arrival' each match comes once");
  });
});
