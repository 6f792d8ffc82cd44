// No dead exports: every export of each shipped wasm module is read by the JS that loads it: the parser's by
// js/native (PARSER_EXPORTS), the lazy index's by js/lazy (LAZY_EXPORTS), each called somewhere in js/. And each
// module imports only what its loader provides.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, test } from 'vitest';
import { LAZY_EXPORTS } from '../../dist/lazy/native_lazy.js';
import { PARSER_EXPORTS } from '../../dist/native/native_module.js';

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

test(`sluice.${build}.wasm: exactly the exports js/native calls, and the imports it provides`, () => {
  const module = moduleOf(`sluice.${build}.wasm`);
  const exports = WebAssembly.Module.exports(module)
    .map((e) => e.name)
    .sort();
  expect(exports).toEqual(['_initialize', 'memory', ...PARSER_EXPORTS].sort());
  const js = sources(join(ROOT, 'js')).join('\n');
  const uncalled = PARSER_EXPORTS.filter((name) => !js.includes(`.${name}(`));
  expect(uncalled).toEqual([]);
  expect(importsOf(module)).toEqual(['env.emscripten_notify_memory_growth', 'wasi_snapshot_preview1.proc_exit']);
});

test(`sluice-lazy.${build}.wasm: exactly the exports js/lazy calls, and the imports it provides`, () => {
  const module = moduleOf(`sluice-lazy.${build}.wasm`);
  const exports = WebAssembly.Module.exports(module)
    .map((e) => e.name)
    .sort();
  expect(exports).toEqual(['_initialize', 'memory', ...LAZY_EXPORTS].sort());
  const js = sources(join(ROOT, 'js')).join('\n');
  const uncalled = LAZY_EXPORTS.filter((name) => !js.includes(`.${name}(`));
  expect(uncalled).toEqual([]);
  expect(importsOf(module)).toEqual(['env.emscripten_notify_memory_growth', 'wasi_snapshot_preview1.proc_exit']);
});
