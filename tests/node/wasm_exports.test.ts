// No dead exports: every export of each shipped wasm module is read by the JS that loads it. The parser's module
// is read by its Emscripten glue (`Module["asm"]["x"]`, names minified), which in turn is all the loader uses; the
// lazy index's module, which has no glue, by js/lazy (LAZY_EXPORTS, each called somewhere in js/). And the lazy
// module imports only what its loader provides.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, test } from 'vitest';
import { LAZY_EXPORTS } from '../../dist/lazy/native_lazy.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const build = inject('sluiceBuild');

function moduleOf(file: string): WebAssembly.Module {
  return new WebAssembly.Module(readFileSync(join(ROOT, 'dist', file)));
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

test(`sluice.${build}.wasm: every export is read by the glue, and the glue reads nothing else`, () => {
  const exports = WebAssembly.Module.exports(moduleOf(`sluice.${build}.wasm`))
    .map((e) => e.name)
    .sort();
  const glue = readFileSync(join(ROOT, 'dist', 'native', 'sluice_glue.mjs'), 'utf8');
  const read = [...new Set([...glue.matchAll(/\["asm"\]\["([^"]+)"\]/g)].map((m) => m[1]!))].sort();
  expect(exports.length).toBeGreaterThan(0);
  expect(read).toEqual(exports);
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
  const imports = WebAssembly.Module.imports(module)
    .map((i) => `${i.module}.${i.name}`)
    .sort();
  expect(imports).toEqual(['env.emscripten_notify_memory_growth', 'wasi_snapshot_preview1.proc_exit']);
});
