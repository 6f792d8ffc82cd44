// Shortens the package's internal property names in dist/*.js (scripts/build.mjs runs it after tsc). A bundler
// minifies local names but never property names: `this.pendingSurrogate_` stays as long as it is written. The
// convention: a property whose name ends in `_` is the package's own (no user, platform API, protocol or test reads
// it by that name), and only those are shortened. What is shortened follows from js/ alone: dist/ is the same
// whatever tests/ reads, and a test that reads a `_` name fails (it reads undefined) instead of changing the build.
// esbuild over every file of dist/ with mangleProps: one name, one short name in every file, none equal to an
// identifier any file keeps (below). Quoted names ('name_', o['name_']) are left as written.
// Usage: node scripts/mangle_props.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transformSync } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const files = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'cjs' ? [] : files(path);
    return name.endsWith('.js') ? [path] : [];
  });

const entryPoints = files(dist);
// esbuild keeps a short name clear of the unmangled property names of the file it writes, not of every file: a
// subclass (object_handler.js) got `id`, a field its base class (container_handler.js) keeps. So every identifier
// of dist/ (comments aside) is reserved, and a short name that is one is dealt again.
const code = (path) => transformSync(readFileSync(path, 'utf8'), { minifyWhitespace: true, format: 'esm' }).code;
const kept = new Set(entryPoints.flatMap((path) => code(path).match(/[A-Za-z$][\w$]*/g) ?? []));
const options = {
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
  logLevel: 'warning',
};
const first = await build({ ...options, write: false, mangleCache: {} });
const mangleCache = { ...first.mangleCache };
const taken = new Set(Object.values(mangleCache));
const fresh = shortNames();
let dealtAgain = 0;
for (const [name, short] of Object.entries(mangleCache)) {
  if (short === false || !kept.has(short)) continue;
  let next = fresh.next().value;
  while (kept.has(next) || taken.has(next)) next = fresh.next().value;
  mangleCache[name] = next;
  taken.add(next);
  dealtAgain++;
}
const result = await build({ ...options, mangleCache });
const count = Object.keys(result.mangleCache ?? {}).length;
console.log(
  `mangle_props: ${count} property names ending in _ shortened in ${entryPoints.length} files of dist/ ` +
    `(${dealtAgain} short names dealt again: another file keeps them)`,
);

/** Names of two characters, then three: none ends in _ (the convention's mark). */
function* shortNames() {
  const first = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$';
  const rest = `${first}0123456789`;
  for (const a of first) for (const b of rest) yield a + b;
  for (const a of first) for (const b of rest) for (const c of rest) yield a + b + c;
}
