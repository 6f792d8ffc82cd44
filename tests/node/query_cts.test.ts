// The RFC 9535 query language (js/query) against the JSONPath Compliance Test Suite (tests/data/jsonpath-cts,
// copied with its provenance): every invalid selector is a TypeError at parseQuery() naming a position, every
// valid one parses.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
// @ts-expect-error parseQuery is @internal: stripped from the shipped .d.ts, tested all the same.
import { parseQuery } from '../../dist/query/parser.js';

interface CtsCase {
  name: string;
  selector: string;
  invalid_selector?: boolean;
  document?: unknown;
  result?: unknown[];
  results?: unknown[][];
  result_paths?: string[];
  results_paths?: string[][];
}

const CTS: CtsCase[] = JSON.parse(
  readFileSync(new URL('../data/jsonpath-cts/cts.json', import.meta.url), 'utf8'),
).tests;

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
});
