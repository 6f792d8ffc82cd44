// The lazy index's binding contract has two halves that agree: every constant of wasm/lazy_contract.h (the lazy_out
// record, the member and container records; each tied to the C++ layout by a static_assert) has the same value in
// js/lazy/lazy_contract.ts under the same name in upper case, and the other way round (contract.test.ts does the
// same for the parser's half). And the records read through those constants are the documents' own.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { init, lazyParse } from '../../dist/index.js';
import * as contract from '../../dist/lazy/lazy_contract.js';

const header = readFileSync(new URL('../../wasm/lazy_contract.h', import.meta.url), 'utf8');

function cppConstants(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^constexpr\s+\w+\s+(\w+)\s*=\s*(-?\d+);/gm))
    out.set(m[1]!.toUpperCase(), Number(m[2]));
  return out;
}

test('wasm/lazy_contract.h and js/lazy/lazy_contract.ts define the same constants with the same values', () => {
  const cpp = cppConstants(header);
  expect(cpp.size).toBeGreaterThan(20); // the parse found the header's constants (so the comparison means something)
  const js = new Map<string, unknown>(Object.entries(contract).filter(([, value]) => typeof value === 'number'));
  for (const [name, value] of cpp) expect({ name, value: js.get(name) }).toEqual({ name, value });
  for (const [name, value] of js) expect({ name, value: cpp.get(name) }).toEqual({ name, value });
});

test('wasm/lazy_bindings.cpp reports through the contract: it defines no layout of its own', () => {
  const bindings = readFileSync(new URL('../../wasm/lazy_bindings.cpp', import.meta.url), 'utf8');
  expect(bindings).toContain('#include "lazy_contract.h"');
  expect(bindings).not.toMatch(/^\s*struct\s+\w+\s*\{/m);
  expect(bindings).not.toMatch(/^constexpr\s+\w+\s+\w+\s*=\s*-?\d+;/m);
});

test('documents read through the contract: members, keys and errors where JSON.parse and the parser have them', async () => {
  await init();
  const text = '{"a": [1, {"b": "x"}], "c": true, "d": {"e": null}}';
  expect(JSON.parse(JSON.stringify(lazyParse(text)))).toEqual(JSON.parse(text));
  const broken = lazyParse('{"a": [1, 2], "b": [1 2]}') as { a: number[]; b: unknown };
  expect(broken.a[1]).toBe(2);
  expect(() => (broken.b as number[])[0]).toThrow(
    expect.objectContaining({ code: 'EXPECTED_COMMA_OR_BRACKET', offset: 22 }),
  );
});
