#!/usr/bin/env node
// Builds what the package ships into dist/: both wasm builds of each module, the parser's and the lazy index's
// (CMake presets wasm-simd and wasm-scalar through Emscripten), and the TypeScript layer. Incremental: CMake and
// tsc skip what is up to date. Usage: node scripts/build.mjs [--wasm-only | --ts-only]
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const args = new Set(process.argv.slice(2));
// Debian's emscripten 3.1.6 runs its JS tools with the system Node; they need Debian's node modules (acorn).
const env = { ...process.env, NODE_PATH: process.env.NODE_PATH || '/usr/share/nodejs' };

function run(cmd, cmdArgs) {
  console.log(`$ ${cmd} ${cmdArgs.join(' ')}`);
  execFileSync(cmd, cmdArgs, { cwd: root, env, stdio: 'inherit' });
}

mkdirSync(dist, { recursive: true });
// The Emscripten glue older builds shipped: never loaded now, but npm would pack it.
for (const file of ['sluice_glue.mjs', 'sluice_glue.d.mts']) rmSync(join(dist, 'native', file), { force: true });

if (!args.has('--ts-only')) {
  for (const preset of ['wasm-simd', 'wasm-scalar']) {
    if (!existsSync(join(root, 'build', preset, 'CMakeCache.txt'))) run('cmake', ['--preset', preset]);
    run('cmake', ['--build', '--preset', preset]);
  }
  const out = (preset, file) => join(root, 'build', preset, 'wasm', file);
  // Bare modules (no Emscripten glue): js/native loads the parser's, js/cli its own, js/lazy the lazy index's.
  copyFileSync(out('wasm-simd', 'sluice.wasm'), join(dist, 'sluice.simd.wasm'));
  copyFileSync(out('wasm-scalar', 'sluice.wasm'), join(dist, 'sluice.scalar.wasm'));
  // The command line's: the same, with the compaction of `sluice select`.
  copyFileSync(out('wasm-simd', 'sluice-cli.wasm'), join(dist, 'sluice-cli.simd.wasm'));
  copyFileSync(out('wasm-scalar', 'sluice-cli.wasm'), join(dist, 'sluice-cli.scalar.wasm'));
  // The lazy index's module: loaded by init() only where lazyParse is in the bundle.
  copyFileSync(out('wasm-simd', 'sluice-lazy.wasm'), join(dist, 'sluice-lazy.simd.wasm'));
  copyFileSync(out('wasm-scalar', 'sluice-lazy.wasm'), join(dist, 'sluice-lazy.scalar.wasm'));
}

if (!args.has('--wasm-only')) {
  run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.json')]);
}
console.log('build: dist/ is up to date');
