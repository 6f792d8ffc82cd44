#!/usr/bin/env node
// Bundles src/worker.js into build/ the way wrangler does (esbuild, ESM, the worker conditions, `.wasm?module`
// imports left to the runtime) and copies the module the package's workerd entry imports next to it, for
// `workerd serve config.capnp` without wrangler.
import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
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
  plugins: [
    {
      name: 'wasm-module',
      setup(bundler) {
        // What wrangler does with `x.wasm?module`: an import of the module named `x.wasm`, which config.capnp embeds.
        bundler.onResolve({ filter: /\.wasm\?module$/ }, (args) => {
          const file = join(args.resolveDir, args.path.replace(/\?module$/, ''));
          copyFileSync(file, here(`build/${basename(file)}`));
          return { path: basename(file), external: true };
        });
      },
    },
  ],
  logLevel: 'warning',
});
console.log('build/worker.js and build/sluice-lazy.simd.wasm are ready: npx workerd serve config.capnp');
