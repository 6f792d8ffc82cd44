// Measures openJson on a large file or on the dataset generator's output piped in (never stored): wall time and
// peak RSS growth over the process's baseline after init(). One measurement per process:
//
//   node bench/tools/open_json_measure.mjs MODE FILE|- [--reuse]   (- reads stdin: `gen-dataset.mjs articles 500000 | ...`)
//
// --reuse (transient modes) reads the file into one 64 KiB buffer, reused for every chunk (fine for a transient document, which is
// done with a chunk before it asks for the next), so the measured growth is openJson's and not the garbage of a
// Node stream's fresh 64 KiB Buffers, which alone grows RSS by ~35 MiB before the GC catches up.
//
// MODE: late      transient openJson, get('$.total') (everything before it skipped in wasm)
//       early     transient openJson, get('$._embedded.articles[0].id')
//       iterate   transient openJson, iterate every article, then get('$.total')
//       kept-late kept (default) openJson, get('$.total')
//       parse     the whole input read into memory, JSON.parse, .total (the baseline)
//       leaves    get('$._embedded.articles[i].id') for i = 0..N-1 in order, transient and kept (N: LEAVES env,
//                 default 25000; the file is read into memory first, as a Uint8Array source)
//       leaves-random  the same N requests in a seeded random order on a kept document
//       all-leaves  any JSON file: one get per leaf (paths from JSON.parse's reading), in document order on a
//                 transient and a kept document, then shuffled on a kept one (e.g. tests/corpus/jsonexamples/twitter.json)
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { init, openJson } from '../../dist/index.js';

const [mode, file, flag] = process.argv.slice(2);
const reuse = flag === '--reuse';

async function* reused(path) {
  const handle = await open(path);
  const buffer = new Uint8Array(64 * 1024);
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return;
      yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}
if (!mode || !file) {
  console.error(
    'usage: node bench/tools/open_json_measure.mjs late|early|iterate|kept-late|parse|leaves|leaves-random|all-leaves FILE|-',
  );
  process.exit(2);
}
await init();
globalThis.gc?.();
const base = process.memoryUsage().rss;
let peak = base;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const input =
  file === '-' ? process.stdin : reuse ? reused(file) : createReadStream(file, { highWaterMark: 64 * 1024 });
const start = performance.now();
let result;
if (mode === 'leaves' || mode === 'leaves-random') {
  clearInterval(timer);
  const { readFileSync } = await import('node:fs');
  const bytes = new Uint8Array(readFileSync(file));
  const n = Number(process.env.LEAVES ?? 25000);
  const order = Array.from({ length: n }, (_, i) => i);
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
  if (mode === 'leaves-random') {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
  }
  for (const transient of mode === 'leaves' ? [true, false] : [false]) {
    const doc = openJson(bytes, { transient });
    const t = performance.now();
    let sum = 0;
    for (const i of order) sum += await doc.get(`$._embedded.articles[${i}].id`);
    console.log(JSON.stringify({ mode, transient, requests: n, sum, ms: Math.round(performance.now() - t) }));
  }
  const t = performance.now();
  const value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  let sum = 0;
  for (const i of order) sum += value._embedded.articles[i].id;
  console.log(JSON.stringify({ mode: 'JSON.parse + reads', sum, ms: Math.round(performance.now() - t) }));
  process.exit(0);
}
if (mode === 'all-leaves') {
  clearInterval(timer);
  const { readFileSync } = await import('node:fs');
  const bytes = new Uint8Array(readFileSync(file));
  const leaves = [];
  (function walk(v, p) {
    if (v !== null && typeof v === 'object') {
      if (Array.isArray(v)) for (let i = 0; i < v.length; i++) walk(v[i], `${p}[${i}]`);
      else for (const k of Object.keys(v)) walk(v[k], `${p}[${JSON.stringify(k)}]`);
    } else leaves.push(p);
  })(JSON.parse(Buffer.from(bytes).toString('utf8')), '$');
  const shuffled = [...leaves];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  // Object.keys puts integer-like names first: then "document order" is not the stream's, and a transient
  // document rightly throws JsonPassedError; such runs are reported as failed.
  for (const [order, list, transient] of [
    ['document', leaves, true],
    ['document', leaves, false],
    ['shuffled', shuffled, false],
  ]) {
    const doc = openJson(bytes, { transient });
    const t = performance.now();
    let failed = null;
    try {
      for (const p of list) await doc.get(p);
    } catch (error) {
      failed = error.code ?? String(error);
    }
    const ms = performance.now() - t;
    console.log(
      JSON.stringify({
        mode,
        order,
        transient,
        gets: list.length,
        ms: Math.round(ms),
        usPerGet: Math.round((ms * 1000) / list.length),
        ...(failed ? { failed } : {}),
      }),
    );
  }
  process.exit(0);
}
if (mode === 'parse') {
  const parts = [];
  for await (const chunk of input) parts.push(chunk);
  result = JSON.parse(Buffer.concat(parts).toString('utf8')).total;
} else {
  const doc = openJson(input, { transient: mode !== 'kept-late' });
  if (mode === 'early') result = await doc.get('$._embedded.articles[0].id');
  else if (mode === 'iterate') {
    let n = 0;
    for await (const a of doc.iterate('$._embedded.articles[*]')) n += a.id >= 0 ? 1 : 0;
    result = [n, await doc.get('$.total')];
  } else result = await doc.get('$.total');
  await doc.close();
}
const ms = performance.now() - start;
peak = Math.max(peak, process.memoryUsage().rss);
clearInterval(timer);
console.log(
  JSON.stringify({ mode, result, ms: Math.round(ms), peakRssGrowthMiB: +((peak - base) / 2 ** 20).toFixed(1) }),
);
if (file === '-') process.exit(0);
