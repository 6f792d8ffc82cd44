#!/usr/bin/env node
// Bundles src/worker.js into build/ the way wrangler does (esbuild, ESM, `.wasm` imports left to the runtime) and
// copies the SIMD build next to it, for `workerd serve config.capnp` without wrangler.
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
mkdirSync(here('build'), { recursive: true });
await build({
  entryPoints: [here('src/worker.js')],
  outfile: here('build/worker.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  conditions: ['workerd', 'worker', 'browser'],
  external: ['*.wasm'],
  logLevel: 'warning',
});
// 'sluice/sluice.simd.wasm' through the package's exports map, as the bundle imports it.
copyFileSync(fileURLToPath(import.meta.resolve('sluice/sluice.simd.wasm')), here('build/sluice.simd.wasm'));
console.log('build/worker.js and build/sluice.simd.wasm are ready: npx workerd serve config.capnp');
