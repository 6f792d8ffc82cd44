// Shortens the package's internal property names in dist/*.js (scripts/build.mjs runs it after tsc). A bundler
// minifies local names but never property names: `this.pendingSurrogate_` stays as long as it is written. The
// convention: a property whose name ends in `_` is the package's own (no user, platform API, protocol or test reads
// it by that name), and only those are shortened. What is shortened follows from js/ alone: dist/ is the same
// whatever tests/ reads, and a test that reads a `_` name fails (it reads undefined) instead of changing the build.
// One esbuild pass over every file of dist/ with mangleProps: one name, one short name in every file, none equal to
// a property name the files keep. Quoted names ('name_', o['name_']) are left as written.
// Usage: node scripts/mangle_props.mjs
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const files = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'cjs' ? [] : files(path);
    return name.endsWith('.js') ? [path] : [];
  });

const entryPoints = files(dist);
const result = await build({
  entryPoints,
  outdir: dist,
  outbase: dist,
  allowOverwrite: true,
  bundle: false,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  // `__proto__`-like names and the bare `_` are not the convention's.
  mangleProps: /^[A-Za-z$][\w$]*_$/,
  mangleCache: {},
  logLevel: 'warning',
});
const count = Object.keys(result.mangleCache ?? {}).length;
console.log(`mangle_props: ${count} property names ending in _ shortened in ${entryPoints.length} files of dist/`);
