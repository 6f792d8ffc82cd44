// The binding contract's two halves agree: every constant of wasm/contract.h (flags, the parser_view and record
// layouts, the limits; each tied to the C++ layout by a static_assert) has the same value in js/native/contract.ts
// under the same name in upper case, and the other way round. And every budget derived from MAX_SELECTORS fits in
// the native parser: a parser takes MAX_SELECTORS paths and refuses one more; openJson's requests (deep paths,
// iterations, expand) never ask for more. And js/native alone knows the layout and drives a native parser.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createParser, openJson } from '../../dist/index.js';
import * as contract from '../../dist/native/contract.js';
import { MAX_EXPAND } from '../../dist/open_json/open_json_plan.js';

const header = readFileSync(new URL('../../wasm/contract.h', import.meta.url), 'utf8');

function cppConstants(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^constexpr\s+\w+\s+(\w+)\s*=\s*(-?\d+);/gm))
    out.set(m[1]!.toUpperCase(), Number(m[2]));
  return out;
}

test('wasm/contract.h and js/native/contract.ts define the same constants with the same values', () => {
  const cpp = cppConstants(header);
  expect(cpp.size).toBeGreaterThan(40); // the parse found the header's constants (so the comparison means something)
  const js = new Map<string, unknown>(Object.entries(contract).filter(([, value]) => typeof value === 'number'));
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

function streamOf(text: string): ReadableStream<Uint8Array> {
  return new Blob([text]).stream();
}

test(`openJson: expand takes ${MAX_EXPAND} names, derived from MAX_SELECTORS, and refuses one more`, async () => {
  expect(MAX_EXPAND).toBe(contract.MAX_SELECTORS - 5);
  const names = Array.from({ length: MAX_EXPAND + 1 }, (_, i) => `k${i}`);
  const row = Object.fromEntries(names.map((n, i) => [n, [i, i]]));
  const text = JSON.stringify({ a: { b: { rows: [row, row] } } });
  let rows = 0;
  for await (const r of openJson(streamOf(text)).iterate('$.a.b.rows[*]', { expand: names.slice(0, MAX_EXPAND) })) {
    expect(r).toBeTypeOf('object');
    rows++;
  }
  expect(rows).toBe(2);
  expect(() => openJson(streamOf(text)).iterate('$.a.b.rows[*]', { expand: names })).toThrow(TypeError);
});

test('openJson: a transient document reads deep paths and iterates deep arrays within the selector budget', async () => {
  // Depth beyond MAX_SELECTORS: the request's path, its ancestors' markers and the tracked members must share it.
  const depth = contract.MAX_SELECTORS + 4;
  const steps = Array.from({ length: depth }, (_, i) => `m${i}`);
  let value: unknown = { last: [1, 2, 3], after: true };
  for (let i = depth - 1; i >= 0; i--) value = { before: i, [steps[i]!]: value, after: i };
  const text = JSON.stringify(value);
  const doc = openJson(streamOf(text));
  const path = `$.${steps.join('.')}`;
  const got: unknown[] = [];
  for await (const x of doc.iterate(`${path}.last[*]`)) got.push(x);
  expect(got).toEqual([1, 2, 3]);
  expect(await doc.get(`${path}.after`)).toBe(true);
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('no file of js/ outside js/native reads the view layout or drives a native Parser (sessions do)', () => {
  const root = new URL('../../js/', import.meta.url).pathname;
  // The view's offsets, a Parser made, paths added, a raw feed or finish of a Parser, the view's result fields.
  const layout = /\bVIEW_\w+|native_?\.Parser\b|\.add(?:Start)?(?:Marker)?Path_?\(|\b(?:elementsAt|batchesAt)_\(/;
  const files = sources(root);
  expect(files.length).toBeGreaterThan(50); // the walk found js/
  const found = files
    .filter((file) => !file.startsWith(join(root, 'native')))
    .filter((file) => layout.test(readFileSync(file, 'utf8')))
    .map((file) => file.slice(root.length));
  expect(found).toEqual([]);
});
