// node bench/sizes/main.mjs: what a browser app downloads: each sluice entry bundled and minified with esbuild plus the
// .wasm it loads, raw and gzipped, against its budget (exit 1 over one); the JS each feature adds (features.mjs); the
// peers bundled alike; the files of dist/ as npm installs them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { environment, packageVersion } from '../harness/environment.mjs';
import { sizesDetails } from '../harness/render/markdown.mjs';
import { saveResults } from '../harness/save.mjs';
import { featureCosts } from './features.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist');
const BENCH_MODULES = fileURLToPath(new URL('../node_modules/', import.meta.url));
const ESBUILD_VERSION = packageVersion('../../node_modules/esbuild');

// The peers of bench:parse and bench:stringify, each as its README imports it: [name, use, { names: module }].
const PEERS = [
  ['@streamparser/json', 'parse', { JSONParser: '@streamparser/json' }],
  [
    'stream-json',
    'parse',
    {
      parser: 'stream-json',
      streamArray: 'stream-json/streamers/stream-array.js',
      pick: 'stream-json/filters/pick.js',
    },
  ],
  ['JSONStream', 'parse, stringify', { default: 'JSONStream' }],
  ['@discoveryjs/json-ext', 'parse, stringify', { 'parseChunked, stringifyChunked': '@discoveryjs/json-ext' }],
  ['json-stream-stringify', 'stringify', { JsonStreamStringify: 'json-stream-stringify' }],
];

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;

/** `source` bundled and minified for the browser, or, needing Node built-ins, for Node without them. */
async function bundle(source, resolveDir, stub) {
  const options = {
    plugins: stub ? [await stubPlugin(stub)] : [],
    stdin: { contents: source, resolveDir, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  };
  try {
    const out = await build({ ...options, platform: 'browser' });
    return { bytes: out.outputFiles[0].contents, platform: 'browser' };
  } catch {
    const out = await build({ ...options, platform: 'node' });
    return { bytes: out.outputFiles[0].contents, platform: 'node' };
  }
}

/** An esbuild plugin that replaces the module at `path` with one exporting its names as undefined. */
async function stubPlugin(path) {
  const names = Object.keys(await import(path));
  return {
    name: 'stub',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) =>
        args.path === path
          ? { contents: names.map((n) => `export const ${n} = void 0;`).join('\n'), loader: 'js' }
          : undefined,
      );
    },
  };
}

const measure = (bytes) => ({ raw: bytes.length, gzip: gzip(bytes) });

const env = environment();
const INDEX = JSON.stringify(join(DIST, 'index.js'));
// The budgets, total gzip (JS + the .wasm it loads) per entry: docs/decisions.md, 2026-12-06.
const entry = (id, label, names, budget) => ({ id, label, source: `export ${names} from ${INDEX};`, budget });
const sluiceEntries = [
  entry('all', "everything (`import * from 'sluice'`)", '*', 92e3),
  entry('parse', '`parseJsonArray` only', '{ parseJsonArray }', 48e3),
  entry('encode', '`stringifyStream` only', '{ stringifyStream }', 44e3),
  entry(
    'model',
    '`readModelStream`, `partialJson` (no .wasm)',
    '{ readModelStream, partialJson, createPartialParser }',
    20e3,
  ),
];
const sluice = [];
for (const entry of sluiceEntries) {
  const { bytes } = await bundle(entry.source, ROOT);
  const js = measure(bytes);
  const text = new TextDecoder().decode(bytes);
  for (const buildName of ['simd', 'scalar']) {
    // The parser's module, or the lazy index's (which holds the parser) where lazyParse is in; none for pure JS.
    const lazy = `sluice-lazy.${buildName}.wasm`;
    const parser = `sluice.${buildName}.wasm`;
    const files = text.includes(lazy) ? [lazy] : text.includes(parser) ? [parser] : [];
    const wasm = files
      .map((file) => measure(readFileSync(join(DIST, file))))
      .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
    sluice.push({
      entry: entry.id,
      label: entry.label,
      build: buildName,
      files,
      js,
      wasm,
      total: { raw: js.raw + wasm.raw, gzip: js.gzip + wasm.gzip },
      budget: entry.budget,
    });
  }
}

const peers = [];
for (const [name, use, imports] of PEERS) {
  const source = Object.entries(imports).map(([names, from]) => `export { ${names} } from '${from}';`);
  const { bytes, platform } = await bundle(source.join(' '), BENCH_MODULES);
  peers.push({ name, version: packageVersion(name), use, platform, ...measure(bytes) });
}

const shipped = readdirSync(DIST, { recursive: true })
  .filter((file) => /\.(m?js|wasm)$/.test(file))
  .sort()
  .map((file) => ({ file: relative(ROOT, join(DIST, file)), ...measure(readFileSync(join(DIST, file))) }));

const features = await featureCosts({
  dist: DIST,
  bundle: async (source, stub) => (await bundle(source, ROOT, stub)).bytes,
  gzip,
});
const results = {
  date: new Date().toISOString(),
  environment: env,
  esbuild: ESBUILD_VERSION,
  sluice,
  peers,
  shipped,
  features,
};
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
// The tables docs/benchmarks.md shows, as its renderer writes them.
console.log(sizesDetails({ sizes: { data: results } }).join('\n'));
saveResults('sizes', results);

const over = sluice.filter((s) => s.total.gzip > s.budget);
for (const s of over) {
  console.error(`over budget: ${s.label}, ${s.build}: ${kb(s.total.gzip)} gzip, budget ${kb(s.budget)}`);
}
if (over.length > 0) process.exitCode = 1;
