// The RFC 9535 query language (js/query) against the JSONPath Compliance Test Suite (tests/corpus/jsonpath-cts,
// copied with its provenance): every invalid selector is a TypeError at parseQuery() naming a position, every
// valid one gives, with evaluate(), one of the nodelists the suite allows: the values and, where the suite gives
// them, the normalized paths of the same alternative.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
// @ts-expect-error evaluate is @internal: stripped from the shipped .d.ts, tested all the same.
import { evaluate } from '../../dist/query/evaluate.js';
// @ts-expect-error parseQuery is @internal: stripped from the shipped .d.ts, tested all the same.
import { parseQuery } from '../../dist/query/parser.js';
import { CTS } from '../support/jsonpath_cts.js';

describe('the compliance test suite', () => {
  test('has the 703 cases of the copied commit', () => {
    expect(CTS.length).toBe(703);
    expect(CTS.filter((t) => t.invalid_selector).length).toBe(247);
  });

  const invalid = CTS.filter((t) => t.invalid_selector);
  test.each(invalid.map((t) => [t.name, t] as const))('invalid: %s', (_name, t) => {
    let error: unknown;
    try {
      parseQuery(t.selector);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TypeError);
    const message = (error as TypeError).message;
    expect(message.startsWith(`sluice: path ${JSON.stringify(t.selector)} at `)).toBe(true);
    const at = Number(/ at (\d+): /.exec(message.slice(`sluice: path ${JSON.stringify(t.selector)}`.length))?.[1]);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThanOrEqual(t.selector.length);
  });

  const valid = CTS.filter((t) => !t.invalid_selector);
  test('has 456 valid cases, each with a document and its result or results', () => {
    expect(valid.length).toBe(456);
    for (const t of valid) expect(t.document !== undefined && (t.result ?? t.results) !== undefined).toBe(true);
  });

  test.each(valid.map((t) => [t.name, t] as const))('valid: %s', (_name, t) => {
    const nodes: { value: unknown; path: string }[] = evaluate(parseQuery(t.selector), t.document);
    const values = nodes.map((n) => n.value);
    const paths = nodes.map((n) => n.path);
    const results = t.results ?? [t.result!];
    const resultPaths = t.results_paths ?? (t.result_paths === undefined ? undefined : [t.result_paths]);
    // The same alternative for values and paths: the order of one is the order of the other.
    const matching = results.flatMap((r, i) => (isDeepStrictEqual(r, values) ? [i] : []));
    expect(matching.length, `values ${JSON.stringify(values)}`).toBeGreaterThan(0);
    if (resultPaths !== undefined) {
      expect(
        matching.some((i) => isDeepStrictEqual(resultPaths[i], paths)),
        `paths ${JSON.stringify(paths)}`,
      ).toBe(true);
    }
  });
});
