// The wasm parser selects with descendant segments and slices (RFC 9535 `..`, `[start:end:step]`): driven through
// its exports (native_module.ts), and once through createParser. Each node is delivered once, when its last byte
// arrives; the native suites (tests/cpp/descendant_slice_test.cpp) check the semantics against an oracle, this the
// module's build and its binding.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, test } from 'vitest';
import { createParser } from '../../dist/index.js';
import * as contractModule from '../../dist/native/contract.js';
// @ts-expect-error bareImports is @internal: stripped from the shipped .d.ts, tested all the same.
import { bareImports } from '../../dist/native/loader.js';
import { RESIDENT_LIMIT } from '../../dist/native/parser_pool.js';
import { bindParserModule, type ParserExports } from '../../dist/native/native_module.js';

/** The contract's constants, @internal ones included (stripped from the shipped .d.ts). */
const contract = contractModule as unknown as Record<string, number>;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const build = inject('sluiceBuild');

type Exports = ParserExports & { _initialize(): void; memory: WebAssembly.Memory };

/** A fresh instance of this build's module, bound, and a parser in it (1 KiB depth, 1 MiB elements, no flags). */
async function freshParser() {
  const module = new WebAssembly.Module(readFileSync(join(ROOT, 'dist', `sluice.${build}.wasm`)));
  const instance = await WebAssembly.instantiate(module, bareImports('test'));
  const exports = instance.exports as unknown as Exports;
  exports._initialize();
  const native = bindParserModule(exports, exports.memory);
  return { exports, native, parser: new native.Parser(1024, 1 << 20, 0) };
}

/** The elements (`bytes#selector`) a parser with `paths` reports for `text`, fed in one call. */
async function select(paths: string[], text: string): Promise<string[]> {
  const { exports, native, parser } = await freshParser();
  const bytes = new TextEncoder().encode(text);
  const out: string[] = [];
  // One call: without a carry (the session's job), the bytes of an element begun in an earlier call are gone.
  const take = (): void => {
    const view = native.view() >>> 2;
    const u32 = new Uint32Array(exports.memory.buffer);
    const count = u32[view + contract.VIEW_ELEMENT_COUNT]!;
    const records = u32[view + contract.VIEW_ELEMENTS_PTR]! >>> 2;
    for (let i = 0; i < count; i++) {
      const r = records + i * contract.ELEMENT_WORDS;
      const end = u32[r + contract.ELEMENT_END]!;
      const len = u32[r + contract.ELEMENT_LEN]!;
      const element = new TextDecoder().decode(new Uint8Array(exports.memory.buffer, end - len, len));
      out.push(`${element}#${u32[r + contract.ELEMENT_PATH_INDEX]}`);
    }
  };
  try {
    for (const path of paths) expect(parser.addPath(path)).toBe(contract.PATH_ACCEPTED);
    const view = native.view() >>> 2;
    const input = new Uint32Array(exports.memory.buffer)[view + contract.VIEW_INPUT_PTR]!;
    new Uint8Array(exports.memory.buffer).set(bytes, input);
    expect(parser.feed(bytes.length)).toBe(0);
    take();
    expect(parser.finish()).toBe(0);
    take();
  } finally {
    parser.delete();
  }
  return out;
}

test('$..a selects every member named a, nested ones first', async () => {
  const text = '{"a":{"a":1},"b":[{"a":2},3]}';
  expect(await select(['$..a'], text)).toEqual(['1#0', '{"a":1}#0', '2#0']);
});

test('linear, descendant and slice selectors together', async () => {
  const text = '{"rows":[{"id":1},{"id":2,"k":{"id":3}}],"n":[0,1,2,3,4,5]}';
  expect(await select(['$.rows[*]', '$..id', '$.n[1:5:2]', '$..[::4]'], text)).toEqual([
    '1#1',
    '{"id":1}#0',
    '{"id":1}#3',
    '2#1',
    '3#1',
    '{"id":2,"k":{"id":3}}#0',
    '0#3',
    '1#2',
    '3#2',
    '4#3',
  ]);
});

test('a deep $..*: every level, innermost first', async () => {
  const text = `${'['.repeat(40)}7${']'.repeat(40)}`;
  const whole = await select(['$..*'], text);
  expect(whole).toHaveLength(40);
  expect(whole[0]).toBe('7#0');
  expect(whole[39]).toBe(`${'['.repeat(39)}7${']'.repeat(39)}#0`);
});

test('negative indices and unions are refused where they start', async () => {
  const { parser } = await freshParser();
  try {
    // The index of the offending character (a filter's is in its program: RFC 9535's `@.a` is no program).
    const refused = ['$..[-1]', '$[1:-1]', "$..['a','b']", '$[?@.a]'].map((p) => parser.addPath(p));
    expect(refused).toEqual([4, 4, 7, 3]);
  } finally {
    parser.delete();
  }
});

test('through the public API: createParser({ path: "$..a" }) cut at every byte, in arrival order', () => {
  const bytes = new TextEncoder().encode('{"a":{"a":1},"b":[{"a":[2,{"a":3}]},4]}');
  const parser = createParser({ path: '$..a', order: 'arrival' });
  const out: unknown[] = [];
  for (const byte of bytes) out.push(...parser.push(Uint8Array.of(byte)));
  out.push(...parser.end());
  expect(out).toEqual([1, { a: 1 }, 3, [2, { a: 3 }]]);
});

test('parsers saved and restored between their bytes, at the depth limit (more than RESIDENT_LIMIT alive)', () => {
  // A scalar at maxDepth under `$..*` reaches the tables one level past the limit: a saved state must load there.
  const text = '[[[1,2]],[[3]],{"a":[4]}]';
  const bytes = new TextEncoder().encode(text);
  const options = { path: '$..*', order: 'arrival', maxDepth: 3, output: 'text' } as const;
  const alone = createParser(options);
  const expected = [...alone.push(bytes), ...alone.end()];
  expect(expected).toHaveLength(10);
  const parsers = Array.from({ length: RESIDENT_LIMIT + 4 }, () => createParser(options));
  const out: string[][] = parsers.map(() => []);
  for (const byte of bytes) {
    for (const [i, p] of parsers.entries()) out[i]!.push(...p.push(Uint8Array.of(byte)));
  }
  for (const [i, p] of parsers.entries()) out[i]!.push(...p.end());
  for (const got of out) expect(got).toEqual(expected);
});
