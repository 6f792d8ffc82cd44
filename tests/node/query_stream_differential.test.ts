// Seeded random queries of the streamed grammar (tests/support/random_query.mjs at depth 0; those refused are
// skipped, and those split into a native head and a JS tail are compared too) on random documents, streamed by createParser at random
// cuts and compared with the reference evaluator (js/query/evaluate.ts): in RFC order, its nodelist exactly; in
// arrival order, its nodes each once, in the order their last bytes arrive (children before their parent, else
// document order: a post-order walk of the document).
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createParser } from '../../dist/index.js';
// @ts-expect-error evaluate is @internal: stripped from the shipped .d.ts, tested all the same.
import { evaluate } from '../../dist/query/evaluate.js';
// @ts-expect-error @internal, as above
import { parseQuery } from '../../dist/query/parser.js';
import { arrivalRanks } from '../support/arrival_order.js';
import { createRng } from '../support/random_json.mjs';
import { randomDocument, randomQuery } from '../support/random_query.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0xd1ff);
const STREAMED = 2_000;
const encoder = new TextEncoder();

type Node = { value: unknown; path: string };

function streamed(query: string, order: 'rfc' | 'arrival', bytes: Uint8Array, rng: ReturnType<typeof createRng>) {
  const parser = createParser({ path: query, order });
  const out: unknown[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + rng.int(rng.chance(0.3) ? 4 : 64);
    out.push(...parser.push(bytes.subarray(at, at + size)));
    at += size;
  }
  out.push(...parser.end());
  return out;
}

describe('streamed queries against the reference evaluator', () => {
  test(`${STREAMED} streamable random queries (seed ${SEED})`, () => {
    const rng = createRng(SEED);
    let rfc = 0;
    let arrival = 0;
    let refused = 0;
    const wrong: string[] = [];
    while (rfc + arrival < STREAMED) {
      const query = randomQuery(rng, 0) as string;
      let order: 'rfc' | 'arrival' = 'rfc';
      try {
        createParser({ path: query }).close();
      } catch (error) {
        const message = (error as Error).message;
        if (message.includes('not supported in a stream') || message.includes('native selectors')) {
          refused++;
          continue;
        }
        expect(message).toContain("with order: 'arrival'");
        order = 'arrival';
      }
      const doc = randomDocument(rng);
      const reference: Node[] = evaluate(parseQuery(query), doc);
      const got = streamed(query, order, encoder.encode(JSON.stringify(doc)), rng);
      let expected: unknown[];
      if (order === 'rfc') {
        rfc++;
        expected = reference.map((n) => n.value);
      } else {
        arrival++;
        const ranks = arrivalRanks(doc);
        const distinct = new Map(reference.map((n) => [n.path, n.value] as const));
        expected = [...distinct].sort(([a], [b]) => ranks.get(a)! - ranks.get(b)!).map(([, v]) => v);
      }
      if (!isDeepStrictEqual(got, expected)) {
        wrong.push(`${order} ${JSON.stringify(query)} on ${JSON.stringify(doc)}: ${JSON.stringify(got)}`);
      }
    }
    console.log(`streamed random queries: ${rfc} in RFC order, ${arrival} in arrival order, ${refused} refused`);
    expect(wrong.slice(0, 10)).toEqual([]);
    // Both orders are well represented, or the comparison proves little.
    expect(Math.min(rfc, arrival)).toBeGreaterThan(STREAMED / 10);
  });
});
