// CPU time per warm document, which a loaded machine disturbs far less than wall time: one process reads a
// corpus document 40 times the way bench:lazy's warm runs do (settled between documents: two collections and
// timers, so finalizers run), and prints the median CPU time (user + system) of documents 16 to 40, in ms.
// Compare two builds by alternating processes:
//   node --expose-gc bench/tools/lazy_cpu.mjs FILE FRACTION root|walk|json [--dist DIR]
// FILE: a file of tests/corpus/jsonexamples; FRACTION: of the leaves read (bench/lazy/leaves.mjs); root: each
// leaf by its path from the root, walk: walking the structure (FRACTION 1), json: TextDecoder + JSON.parse + the
// reads from the root. --dist: another build's dist/ (default: this tree's).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chooseLeaves, leafValue } from '../lazy/leaves.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--dist');
const dist =
  at >= 0 ? new URL(`file://${args.splice(at, 2)[1].replace(/\/?$/, '/')}`) : new URL('../../dist/', import.meta.url);
const [file, fraction, mode] = args;
if (!file || !fraction || !['root', 'walk', 'json'].includes(mode) || typeof globalThis.gc !== 'function') {
  console.error('usage: node --expose-gc bench/tools/lazy_cpu.mjs FILE FRACTION root|walk|json [--dist DIR]');
  process.exit(2);
}
const sluice = await import(new URL('index.js', dist).href);
await sluice.init(readFileSync(new URL('sluice.simd.wasm', dist)));
const bytes = readFileSync(fileURLToPath(new URL(`../../tests/corpus/jsonexamples/${file}`, import.meta.url)));
const { paths } = chooseLeaves(JSON.parse(new TextDecoder().decode(bytes)), Number(fraction));

function walk(value) {
  if (typeof value !== 'object' || value === null) return leafValue(value);
  let sum = 0;
  if (Array.isArray(value)) for (const item of value) sum += walk(item);
  else for (const key of Object.keys(value)) sum += walk(value[key]);
  return sum;
}

function read() {
  const doc = mode === 'json' ? JSON.parse(new TextDecoder().decode(bytes)) : sluice.lazyParse(bytes);
  if (mode === 'walk') return walk(doc);
  let sum = 0;
  for (const path of paths) {
    let v = doc;
    for (const k of path) v = v[k];
    sum += leafValue(v);
  }
  return sum;
}

const times = [];
for (let n = 0; n < 40; n++) {
  for (let k = 0; k < 2; k++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const start = process.cpuUsage();
  read();
  const used = process.cpuUsage(start);
  if (n >= 15) times.push((used.user + used.system) / 1000);
}
times.sort((a, b) => a - b);
console.log(times[times.length >> 1].toFixed(3));
