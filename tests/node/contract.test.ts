// The binding contract's two halves agree: every constant of wasm/contract.h (flags, the parser_view and record
// layouts, the limits; each tied to the C++ layout by a static_assert) has the same value in js/native/contract.ts
// under the same name in upper case, and the other way round. And a parser takes MAX_SELECTORS paths and refuses
// one more.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { createParser } from '../../dist/index.js';
import * as contract from '../../dist/native/contract.js';

const header = readFileSync(new URL('../../wasm/contract.h', import.meta.url), 'utf8');

function cppConstants(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^constexpr\s+\w+\s+(\w+)\s*=\s*(-?\d+);/gm)) out.set(m[1]!.toUpperCase(), Number(m[2]));
  return out;
}

test('wasm/contract.h and js/native/contract.ts define the same constants with the same values', () => {
  const cpp = cppConstants(header);
  expect(cpp.size).toBeGreaterThan(40); // the parse found the header's constants (so the comparison means something)
  const js = new Map(Object.entries(contract).filter((e): e is [string, number] => typeof e[1] === 'number'));
  for (const [name, value] of cpp) expect({ name, value: js.get(name) }).toEqual({ name, value });
  for (const [name, value] of js) expect({ name, value: cpp.get(name) }).toEqual({ name, value });
});

test(`a parser takes ${contract.MAX_SELECTORS} paths (markers would count too) and refuses one more`, () => {
  const paths = Array.from({ length: contract.MAX_SELECTORS }, (_, i) => `$.k${i}`);
  const parser = createParser({ paths, output: 'value' });
  const text = JSON.stringify(Object.fromEntries(paths.map((_, i) => [`k${i}`, i])));
  expect(parser.push(text).length + parser.end().length).toBe(contract.MAX_SELECTORS);
  expect(() => createParser({ paths: [...paths, '$.more'] })).toThrow(TypeError);
});
