#!/usr/bin/env node
// Builds what the package ships into dist/: both wasm builds of each module, the parser's and the lazy index's
// (CMake presets wasm-simd and wasm-scalar through Emscripten), and the TypeScript layer. Incremental: CMake and
// tsc skip what is up to date. Usage: node scripts/build.mjs [--wasm-only | --ts-only]
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
  // Internal property names shortened: bundlers never rename properties (scripts/mangle_props.mjs).
  run(process.execPath, [join(root, 'scripts', 'mangle_props.mjs')]);
  await bundleCjs();
  await bundleCli();
}
console.log('build: dist/ is up to date');

/**
 * The CommonJS entry, for `require('sluice')` on Node (package.json: "node" > "require"): dist/index.js bundled into
 * one CommonJS file, dist/cjs/index.js, beside a copy of the declarations (dist/cjs/package.json says they are
 * CommonJS: TypeScript's node16 in a CommonJS package refuses to require ES module declarations, TS1479). Node
 * 20.19+ could require() the ES modules, but `engines` says >=20. Its own copy of the package's state: a program that
 * both imports and requires sluice loads the module twice (docs/bundling.md).
 */
async function bundleCjs() {
  const { build } = await import('esbuild');
  const cjs = join(dist, 'cjs');
  rmSync(cjs, { recursive: true, force: true });
  mkdirSync(cjs);
  console.log('$ esbuild dist/index.js --bundle --format=cjs --outfile=dist/cjs/index.js');
  await build({
    entryPoints: [join(dist, 'index.js')],
    outfile: join(cjs, 'index.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // CommonJS has no import.meta: every module's URL is dist/index.js's, so `new URL('./x.wasm', ...)` names dist/x.wasm.
    define: { 'import.meta.url': '__sluice_esm_url' },
    banner: {
      js: "const __sluice_esm_url = require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', 'index.js')).href;",
    },
    logLevel: 'warning',
  });
  writeFileSync(join(cjs, 'package.json'), '{ "type": "commonjs" }\n');
  // The declarations, the same text: a .d.ts under a "commonjs" package.json declares a CommonJS module.
  const copyDeclarations = (from, to) => {
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'cli' && entry.name !== 'cjs') {
        mkdirSync(join(to, entry.name), { recursive: true });
        copyDeclarations(join(from, entry.name), join(to, entry.name));
      } else if (entry.isFile() && entry.name.endsWith('.d.ts')) {
        copyFileSync(join(from, entry.name), join(to, entry.name));
      }
    }
  };
  copyDeclarations(dist, cjs);
}

/**
 * The `sluice` command (package.json "bin"): the launcher js/cli/sluice.cjs, and dist/cli/bin.js with what it
 * imports bundled into one CommonJS file, dist/cli/sluice_bundle.cjs, with V8's code cache of it. Node starts a
 * CommonJS script faster than an ES module graph (no module loader, one file to find and compile): 20 to 30 ms less
 * CPU per run on Node 20, a third of the command's fixed cost; the code cache saves 8 ms more (sluice.cjs). The
 * bundle sits in dist/cli/ like the modules it replaces, so their `new URL('../x', import.meta.url)` name the same
 * files.
 */
async function bundleCli() {
  const { build } = await import('esbuild');
  const cli = join(dist, 'cli');
  const launcher = join(cli, 'sluice.cjs');
  // Older builds made a V8 code cache here, valid for one Node build only: the launcher now makes it on first run.
  rmSync(join(cli, 'sluice_bundle.cache'), { force: true });
  copyFileSync(join(root, 'js', 'cli', 'sluice.cjs'), launcher);
  chmodSync(launcher, 0o755);
  console.log('$ esbuild dist/cli/bin.js --bundle --format=cjs --outfile=dist/cli/sluice_bundle.cjs');
  await build({
    entryPoints: [join(cli, 'bin.js')],
    outfile: join(cli, 'sluice_bundle.cjs'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // Less text for V8 to scan (8 million instructions of 150 without the code cache); names kept for exit 70's stack.
    minifyWhitespace: true,
    minifySyntax: true,
    // CommonJS has no import.meta: the bundle's own file URL stands in for every module's.
    define: { 'import.meta.url': '__sluice_file_url' },
    banner: { js: "'use strict';\nconst __sluice_file_url = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  });
}
