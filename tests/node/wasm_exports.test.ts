// No dead exports: every export of each shipped wasm module is read by the JS that loads it: the parser's by
// js/native (PARSER_EXPORTS); the lazy index's, which is the parser's with the index added, by js/native and js/lazy
// (LAZY_EXPORTS); each called somewhere in js/. And each module imports only what its loader provides. The command
// line's module (sluice-cli) is the page's with compact lines, which the page's leaves out.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, test } from 'vitest';
import { LAZY_EXPORTS } from '../../dist/lazy/native_lazy.js';
import * as contractModule from '../../dist/native/contract.js';
// @ts-expect-error bareImports is @internal: stripped from the shipped .d.ts, tested all the same.
import { bareImports } from '../../dist/native/loader.js';
import { bindParserModule, PARSER_EXPORTS, type ParserExports } from '../../dist/native/native_module.js';
// @ts-expect-error the status codes are @internal: stripped from the shipped .d.ts, tested all the same.
import { OUT_OF_MEMORY } from '../../dist/native/status.js';

/** The contract's constants, @internal ones included (stripped from the shipped .d.ts). */
const contract = contractModule as unknown as Record<string, number>;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const build = inject('sluiceBuild');

function moduleOf(file: string): WebAssembly.Module {
  return new WebAssembly.Module(readFileSync(join(ROOT, 'dist', file)));
}

function importsOf(module: WebAssembly.Module): string[] {
  return WebAssembly.Module.imports(module)
    .map((i) => `${i.module}.${i.name}`)
    .sort();
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

for (const file of [`sluice.${build}.wasm`, `sluice-cli.${build}.wasm`]) {
  test(`${file}: exactly the exports js/native calls, and the imports it provides`, () => {
    const module = moduleOf(file);
    const exports = WebAssembly.Module.exports(module)
      .map((e) => e.name)
      .sort();
    expect(exports).toEqual(['_initialize', 'memory', ...PARSER_EXPORTS].sort());
    const js = sources(join(ROOT, 'js')).join('\n');
    const uncalled = PARSER_EXPORTS.filter((name) => !js.includes(`.${name}(`));
    expect(uncalled).toEqual([]);
    expect(importsOf(module)).toEqual(['env.emscripten_notify_memory_growth', 'wasi_snapshot_preview1.proc_exit']);
  });
}

/** Feeds `text` to a compact-lines parser of `file` (the command line's `select`): its status and its batch. */
async function compactLines(file: string, text: string): Promise<{ status: number; batch: string }> {
  const instance = await WebAssembly.instantiate(moduleOf(file), bareImports('test'));
  const exports = instance.exports as unknown as ParserExports & { _initialize(): void; memory: WebAssembly.Memory };
  exports._initialize();
  const native = bindParserModule(exports, exports.memory);
  const parser = new native.Parser(1024, 1 << 20, contract.FLAG_NDJSON | contract.FLAG_COMPACT_LINES);
  try {
    parser.addPath('$[*]');
    const view = native.view() >>> 2;
    const bytes = new TextEncoder().encode(text);
    new Uint8Array(exports.memory.buffer).set(
      bytes,
      new Uint32Array(exports.memory.buffer)[view + contract.VIEW_INPUT_PTR]!,
    );
    const status = parser.feed(bytes.length);
    const u32 = new Uint32Array(exports.memory.buffer);
    if (status !== 0 || u32[view + contract.VIEW_BATCH_COUNT] !== 1) return { status, batch: '' };
    const record = u32[view + contract.VIEW_BATCHES_PTR]! >>> 2;
    const batch = new Uint8Array(
      exports.memory.buffer,
      u32[record + contract.BATCH_PTR],
      u32[record + contract.BATCH_LEN],
    );
    return { status, batch: new TextDecoder().decode(batch) };
  } finally {
    parser.delete();
  }
}

test("compact lines (`sluice select`) are in the command line's module only: the page's refuses them", async () => {
  const text = '[ {"a" : [1, 2]} , "x y" ]\n';
  expect(await compactLines(`sluice-cli.${build}.wasm`, text)).toEqual({ status: 0, batch: '{"a":[1,2]}\n"x y"\n' });
  expect(await compactLines(`sluice.${build}.wasm`, text)).toEqual({ status: OUT_OF_MEMORY, batch: '' });
});

test(`sluice-lazy.${build}.wasm: exactly the exports js/lazy and js/native call, and the imports it provides`, () => {
  // The parser's module with the lazy index added: init() loads it in place of sluice.*.wasm where lazyParse is in
  // the bundle, and instantiates it for both.
  const module = moduleOf(`sluice-lazy.${build}.wasm`);
  const exports = WebAssembly.Module.exports(module)
    .map((e) => e.name)
    .sort();
  expect(exports).toEqual(['_initialize', 'memory', ...PARSER_EXPORTS, ...LAZY_EXPORTS].sort());
  const js = sources(join(ROOT, 'js')).join('\n');
  const uncalled = LAZY_EXPORTS.filter((name) => !js.includes(`.${name}(`));
  expect(uncalled).toEqual([]);
  expect(importsOf(module)).toEqual(['env.emscripten_notify_memory_growth', 'wasi_snapshot_preview1.proc_exit']);
});
