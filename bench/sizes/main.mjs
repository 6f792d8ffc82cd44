// node bench/sizes/main.mjs: each entry bundled with its .wasm against its budget, the features (features.mjs), peers.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { environment, packageVersion } from '../harness/environment.mjs';
import { sizesDetails } from '../harness/render/markdown.mjs';
import { finish } from '../harness/save.mjs';
import { featureCosts } from './features.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist');
const BENCH_MODULES = fileURLToPath(new URL('../node_modules/', import.meta.url));

// The peers of bench:parse and bench:stringify, each as its README imports it: [name, use, export statements].
const PEERS = [
  ['@streamparser/json', 'parse', "{ JSONParser } from '@streamparser/json'"],
  [
    'stream-json',
    'parse',
    "{ parser } from 'stream-json'",
    "{ streamArray } from 'stream-json/streamers/stream-array.js'",
    "{ pick } from 'stream-json/filters/pick.js'",
  ],
  ['JSONStream', 'parse, stringify', "{ default } from 'JSONStream'"],
  ['@discoveryjs/json-ext', 'parse, stringify', "{ parseChunked, stringifyChunked } from '@discoveryjs/json-ext'"],
  ['json-stream-stringify', 'stringify', "{ JsonStreamStringify } from 'json-stream-stringify'"],
];
// The budgets, total gzip (JS + the .wasm it loads) per entry: docs/decisions.md, 2026-12-06 and 2026-12-07.
const ENTRIES = [
  ['all', "everything (`import * from 'sluice'`)", '*', 94e3],
  ['parse', '`parseJsonArray` only', '{ parseJsonArray }', 50e3],
  ['encode', '`stringifyStream` only', '{ stringifyStream }', 45e3],
  [
    'model',
    '`readModelStream`, `partialJson` (no .wasm)',
    '{ readModelStream, partialJson, createPartialParser }',
    20e3,
  ],
];

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
const measure = (bytes) => ({ raw: bytes.length, gzip: gzip(bytes) });
const sum = (a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip });

/** `source` bundled and minified for the browser, or, needing Node built-ins, for Node; `stub`'s exports undefined. */
async function bundle(source, resolveDir, stub) {
  const names = stub ? Object.keys(await import(stub)) : [];
  const contents = names.map((n) => `export const ${n} = void 0;`).join('\n');
  const setup = (b) =>
    b.onLoad({ filter: /\.js$/ }, (args) => (args.path === stub ? { contents, loader: 'js' } : undefined));
  const plugins = stub ? [{ name: 'stub', setup }] : [];
  const options = { plugins, stdin: { contents: source, resolveDir, loader: 'js' }, bundle: true, minify: true };
  Object.assign(options, { format: 'esm', write: false, logLevel: 'silent', legalComments: 'none' });
  const built = async (platform) => ({
    bytes: (await build({ ...options, platform })).outputFiles[0].contents,
    platform,
  });
  return built('browser').catch(() => built('node'));
}

const env = environment();
const sluice = [];
for (const [id, label, names, budget] of ENTRIES) {
  const { bytes } = await bundle(`export ${names} from ${JSON.stringify(join(DIST, 'index.js'))};`, ROOT);
  const js = measure(bytes);
  const text = new TextDecoder().decode(bytes);
  for (const build of ['simd', 'scalar']) {
    // The parser's module, or the lazy index's (which holds the parser) where lazyParse is in; none for pure JS.
    const files = [`sluice-lazy.${build}.wasm`, `sluice.${build}.wasm`].filter((f) => text.includes(f)).slice(0, 1);
    const wasm = files.map((file) => measure(readFileSync(join(DIST, file)))).reduce(sum, { raw: 0, gzip: 0 });
    sluice.push({ entry: id, label, build, files, js, wasm, total: sum(js, wasm), budget });
  }
}

const peers = [];
for (const [name, use, ...exported] of PEERS) {
  const { bytes, platform } = await bundle(exported.map((e) => `export ${e};`).join(' '), BENCH_MODULES);
  peers.push({ name, version: packageVersion(name), use, platform, ...measure(bytes) });
}

const shipped = readdirSync(DIST, { recursive: true })
  .filter((file) => /\.(m?js|wasm)$/.test(file))
  .sort()
  .map((file) => ({ file: relative(ROOT, join(DIST, file)), ...measure(readFileSync(join(DIST, file))) }));
const features = await featureCosts(DIST, async (source, stub) => gzip((await bundle(source, ROOT, stub)).bytes));
const esbuild = packageVersion('../../node_modules/esbuild');
const results = { date: new Date().toISOString(), environment: env, esbuild, sluice, peers, shipped, features };
// The tables docs/benchmarks.md shows, as its renderer writes them.
console.log(sizesDetails({ sizes: { data: results } }).join('\n'));
finish('sizes', results);

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
for (const s of sluice.filter((s) => s.total.gzip > s.budget)) {
  console.error(`over budget: ${s.label}, ${s.build}: ${kb(s.total.gzip)} gzip, budget ${kb(s.budget)}`);
  process.exitCode = 1;
}
