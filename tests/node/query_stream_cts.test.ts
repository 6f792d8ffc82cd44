// The JSONPath Compliance Test Suite (tests/corpus/jsonpath-cts, copied with its provenance) through the streamed
// parser: every case's query given to createParser (value output) and its document fed whole, byte by byte and at
// seeded random cuts. Every invalid query is refused as no query; every valid one either streams, in RFC order
// when the order rule lets it (then the values are exactly one of the nodelists the suite allows) or in arrival
// order (then they are the suite's nodes, each once, in the order their last bytes arrive), or is refused as not
// supported in a stream yet. Each element's normalized path (withNormalizedPath) is compared too, with the suite's
// (else the evaluator's). The counts are printed; none may be wrong, and the passed ones may not decrease.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createParser } from '../../dist/index.js';
// @ts-expect-error evaluate is @internal: stripped from the shipped .d.ts, tested all the same.
import { evaluate } from '../../dist/query/evaluate.js';
// @ts-expect-error parseQuery is @internal: stripped from the shipped .d.ts, tested all the same.
import { parseQuery } from '../../dist/query/parser.js';
import { createRng } from '../support/random_json.mjs';
import { CTS, type CtsCase } from '../support/jsonpath_cts.js';

interface Element {
  value: unknown;
  offset?: number;
  length?: number;
  normalizedPath?: string;
}

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x5c75);
/** Streamed and right (the floor: raise it when more streams; it may not go down). */
const PASSED_AT_LEAST = 690;
/** Of those, the valid ones whose normalized paths were checked too: all of them (the floor, as above). */
const NAMED_AT_LEAST = 443;
const encoder = new TextEncoder();

/** The chunkings each document is fed in: whole, byte by byte, and three of random cuts. */
function chunkings(bytes: Uint8Array, rng: ReturnType<typeof createRng>): Uint8Array[][] {
  const out = [[bytes], Array.from(bytes, (_b, i) => bytes.subarray(i, i + 1))];
  for (let n = 0; n < 3; n++) {
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; ) {
      const size = 1 + rng.int(Math.max(1, bytes.length >> 1));
      pieces.push(bytes.subarray(at, at + size));
      at += size;
    }
    out.push(pieces);
  }
  return out;
}

function stream(
  path: string,
  order: 'rfc' | 'arrival',
  chunks: readonly Uint8Array[],
  withOffset: boolean,
  withNormalizedPath: boolean,
): Element[] {
  const parser = createParser({ path, order, withOffset, withNormalizedPath });
  if (!withOffset && !withNormalizedPath) {
    const values: unknown[] = [];
    for (const chunk of chunks) values.push(...parser.push(chunk));
    values.push(...parser.end());
    return values.map((value) => ({ value }));
  }
  const out: Element[] = [];
  for (const chunk of chunks) out.push(...(parser.push(chunk) as Element[]));
  out.push(...(parser.end() as Element[]));
  return out;
}

/** Whether `a` and `b` hold the same values, each as many times, in any order. */
function sameMultiset(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  const left = [...b];
  for (const value of a) {
    const i = left.findIndex((v) => isDeepStrictEqual(v, value));
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/** The evaluator's normalized paths of `t`'s nodelist. */
function evaluatedPaths(t: CtsCase): string[] {
  return evaluate(parseQuery(t.selector), t.document).map((n: { path: string }) => n.path);
}

/** The suite's nodes of `t`, each once, with their normalized paths (the suite's, else the evaluator's). */
function distinctNodes(t: CtsCase): [string, unknown][] {
  const values = t.result ?? t.results![0]!;
  const paths: string[] = t.result_paths ?? t.results_paths?.[0] ?? evaluatedPaths(t);
  const seen = new Set<string>();
  return values
    .map((v, i): [string, unknown] => [paths[i]!, v])
    .filter(([path]) => !seen.has(path) && seen.add(path) !== undefined);
}

/** The suite's allowed nodelists of `t` (RFC order) as (normalized path, value) pairs. */
function nodelists(t: CtsCase): [string, unknown][][] {
  const results = t.results ?? [t.result!];
  const paths = t.results_paths ?? (t.result_paths !== undefined ? [t.result_paths] : null);
  // Without the suite's paths, the evaluator's nodelist is one of the allowed ones: its paths go with it.
  const pathLists = paths ?? results.map(() => evaluatedPaths(t));
  return results.map((values, k) => values.map((v, i): [string, unknown] => [pathLists[k]![i]!, v]));
}

/** What went wrong with `elements` for `t` in `order`, or null when they are right. */
function problem(t: CtsCase, order: 'rfc' | 'arrival', elements: Element[], bytes: Uint8Array): string | null {
  const values = elements.map((e) => e.value);
  for (const e of elements) {
    if (e.offset === undefined || e.length === undefined) continue;
    const text = new TextDecoder().decode(bytes.subarray(e.offset, e.offset + e.length));
    if (!isDeepStrictEqual(JSON.parse(text), e.value)) return `element at ${e.offset} is not its text ${text}`;
  }
  const named = elements.length > 0 && elements[0]!.normalizedPath !== undefined;
  if (order === 'rfc') {
    const results = t.results ?? [t.result!];
    if (!results.some((r) => isDeepStrictEqual(r, values))) return `values ${JSON.stringify(values)}`;
    if (!named) return null;
    const pairs = elements.map((e) => [e.normalizedPath, e.value]);
    return nodelists(t).some((r) => isDeepStrictEqual(r, pairs)) ? null : `paths ${JSON.stringify(pairs)}`;
  }
  // Arrival order: as the last bytes come, so their ends strictly increase (two nodes never end at one byte).
  for (let i = 1; i < elements.length; i++) {
    const end = (e: Element) => e.offset! + e.length!;
    if (end(elements[i]!) <= end(elements[i - 1]!)) return `element ${i} ends before the one before it`;
  }
  const distinct = distinctNodes(t);
  if (
    !sameMultiset(
      values,
      distinct.map(([, v]) => v),
    )
  )
    return `values ${JSON.stringify(values)} (arrival)`;
  if (!named) return null;
  const pairs = elements.map((e) => [e.normalizedPath, e.value]);
  return sameMultiset(pairs, distinct) ? null : `paths ${JSON.stringify(pairs)} (arrival)`;
}

/** The outcome of one case: passed, refused (by what), or wrong (with why). */
function outcome(
  t: CtsCase,
  rng: ReturnType<typeof createRng>,
): { kind: string; why?: string; order?: string; named?: boolean } {
  const refusal = (error: unknown): string | null => {
    if (!(error instanceof TypeError)) return null;
    if (/: a filter selector with an absolute query .* not supported in a stream: /.test(error.message)) {
      return 'refused: filter reading $';
    }
    const m =
      /: (a filter selector|the negative index|a slice with a negative \w+) .*not supported in a stream yet/.exec(
        error.message,
      );
    if (m !== null) return `refused: ${m[1]!.replace(/^(a|the) /, '')}`;
    if (/ expands to \d+ native selectors/.test(error.message)) return 'refused: more than 32 selectors';
    return null;
  };
  if (t.invalid_selector) {
    try {
      createParser({ path: t.selector, order: 'arrival' });
    } catch (error) {
      const ok = error instanceof TypeError && refusal(error) === null && / at \d+: /.test(error.message);
      return ok ? { kind: 'passed' } : { kind: 'wrong', why: `refused as ${String(error)}` };
    }
    return { kind: 'wrong', why: 'accepted' };
  }
  let order: 'rfc' | 'arrival' = 'rfc';
  try {
    createParser({ path: t.selector }).close();
  } catch (error) {
    const refused = refusal(error);
    if (refused !== null) return { kind: refused };
    if (!(error instanceof TypeError) || !error.message.includes("with order: 'arrival'")) {
      return { kind: 'wrong', why: String(error) };
    }
    order = 'arrival';
  }
  // A query whose JS tail selects inside its candidates gives no offsets (refused with withOffset): values only.
  let withOffset = true;
  try {
    createParser({ path: t.selector, order, withOffset }).close();
  } catch (error) {
    if (!(error instanceof TypeError) || !error.message.includes('options.withOffset')) {
      return { kind: 'wrong', why: String(error) };
    }
    withOffset = false;
  }
  // Normalized paths, unless their markers exceed the native limits.
  let withNormalizedPath = true;
  try {
    createParser({ path: t.selector, order, withNormalizedPath }).close();
  } catch (error) {
    if (!(error instanceof TypeError) || !error.message.includes('options.withNormalizedPath needs')) {
      return { kind: 'wrong', why: String(error) };
    }
    withNormalizedPath = false;
  }
  const bytes = encoder.encode(JSON.stringify(t.document));
  for (const chunks of chunkings(bytes, rng)) {
    let elements: Element[];
    try {
      elements = stream(t.selector, order, chunks, withOffset, withNormalizedPath);
    } catch (error) {
      return { kind: 'wrong', why: `${chunks.length} chunks: ${String(error)}` };
    }
    const why = problem(t, order, elements, bytes);
    if (why !== null) return { kind: 'wrong', why: `${order} order, ${chunks.length} chunks: ${why}` };
  }
  return { kind: 'passed', order, named: withNormalizedPath };
}

describe('the compliance test suite, streamed', () => {
  test(`every case (seed ${SEED}): refused, or streamed right in its order`, () => {
    const rng = createRng(SEED);
    const counts = new Map<string, number>();
    const wrong: string[] = [];
    let arrival = 0;
    let named = 0;
    for (const t of CTS) {
      const { kind, why, order, named: withPaths } = outcome(t, rng);
      if (withPaths === true) named++;
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
      if (kind === 'wrong') wrong.push(`${t.name} ${JSON.stringify(t.selector)}: ${why}`);
      if (order === 'arrival') arrival++;
    }
    const passed = counts.get('passed') ?? 0;
    const summary = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`);
    console.log(
      `CTS streamed: ${CTS.length} cases; ${summary.join('; ')} (of the passed, ${arrival} in arrival order, ` +
        `${named} with normalized paths checked)`,
    );
    expect(wrong).toEqual([]);
    expect(passed).toBeGreaterThanOrEqual(PASSED_AT_LEAST);
    expect(named).toBeGreaterThanOrEqual(NAMED_AT_LEAST);
  });
});
