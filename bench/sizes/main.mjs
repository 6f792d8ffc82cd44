// What a user downloads: each sluice build as a browser app ships it (the package's JS bundled and minified with
// esbuild, plus the .wasm it loads: the parser's, or where lazyParse is in the bundle the lazy index's, which holds
// the parser too), raw and gzipped, next to the peers of the benchmarks bundled the same way (their package's main
// entry, esbuild --bundle --minify). Also the files of dist/ as npm installs them.
// Usage: node bench/sizes/main.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { environment, packageVersion } from '../harness/environment.mjs';
import { sizesDetails } from '../harness/render/markdown.mjs';
import { saveResults } from '../harness/save.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist');
const BENCH_MODULES = fileURLToPath(new URL('../node_modules/', import.meta.url));
const ESBUILD_VERSION = packageVersion('../../node_modules/esbuild');

// The peers of bench/parse and bench/stringify, each as its README imports it.
const PEERS = [
  { name: '@streamparser/json', use: 'parse', source: "export { JSONParser } from '@streamparser/json';" },
  {
    name: 'stream-json',
    use: 'parse',
    source:
      "export { parser } from 'stream-json'; export { streamArray } from 'stream-json/streamers/stream-array.js'; export { pick } from 'stream-json/filters/pick.js';",
  },
  { name: 'JSONStream', use: 'parse, stringify', source: "export { default } from 'JSONStream';" },
  {
    name: '@discoveryjs/json-ext',
    use: 'parse, stringify',
    source: "export { parseChunked, stringifyChunked } from '@discoveryjs/json-ext';",
  },
  {
    name: 'json-stream-stringify',
    use: 'stringify',
    source: "export { JsonStreamStringify } from 'json-stream-stringify';",
  },
];

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;

/**
 * `source` bundled and minified into one ES module. Browser first; a package that needs Node built-ins (streams)
 * is bundled for Node instead, with the built-ins left out (a browser would need polyfills on top).
 */
async function bundle(source, resolveDir) {
  const options = {
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

function measure(bytes) {
  return { raw: bytes.length, gzip: gzip(bytes) };
}

function distFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(m?js|wasm)$/.test(entry)) files.push(path);
    }
  };
  walk(DIST);
  return files;
}

const env = environment();
const sluiceEntries = [
  {
    id: 'all',
    label: "everything (`import * from 'sluice'`)",
    source: `export * from ${JSON.stringify(join(DIST, 'index.js'))};`,
  },
  {
    id: 'parse',
    label: '`parseJsonArray` only',
    source: `export { parseJsonArray } from ${JSON.stringify(join(DIST, 'index.js'))};`,
  },
];
const sluice = [];
for (const entry of sluiceEntries) {
  const { bytes } = await bundle(entry.source, ROOT);
  const js = measure(bytes);
  const text = new TextDecoder().decode(bytes);
  for (const buildName of ['simd', 'scalar']) {
    // The parser's module, or where lazyParse is in the bundle the lazy index's, which holds the parser too and
    // which init() then loads in its place (js/lazy/native_lazy.ts).
    const lazy = `sluice-lazy.${buildName}.wasm`;
    const files = [text.includes(lazy) ? lazy : `sluice.${buildName}.wasm`];
    const wasm = files
      .map((file) => measure(readFileSync(join(DIST, file))))
      .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }));
    sluice.push({
      entry: entry.id,
      label: entry.label,
      build: buildName,
      files,
      js,
      wasm,
      total: { raw: js.raw + wasm.raw, gzip: js.gzip + wasm.gzip },
    });
  }
}

const peers = [];
for (const peer of PEERS) {
  const { bytes, platform } = await bundle(peer.source, BENCH_MODULES);
  peers.push({ name: peer.name, version: packageVersion(peer.name), use: peer.use, platform, ...measure(bytes) });
}

const shipped = distFiles().map((file) => ({ file: relative(ROOT, file), ...measure(readFileSync(file)) }));

const results = { date: new Date().toISOString(), environment: env, esbuild: ESBUILD_VERSION, sluice, peers, shipped };
// The tables docs/benchmarks.md shows, as its renderer writes them.
console.log(sizesDetails({ sizes: { data: results } }).join('\n'));
saveResults('sizes', results);
