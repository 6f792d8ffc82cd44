// Why the Bun column's memory is large: JavaScriptCore sizes its collections to the live heap, and the engine
// benchmark keeps its whole input in memory. Parses a dataset file streamed from disk (nothing held; first, before
// anything else has grown the heap), then runs a garbage-making loop (JSON.parse(decoder.decode(batch)) over one
// 61 kB batch of 160 articles, 1,600 times: about 100 MB) alone and beside a held buffer, printing the time and the
// peak RSS growth of each.
// Usage: node|bun|deno run -A bench/all/engines/held_heap.mjs [--held-mib N] [--file PATH]
// (PATH: bench/data/articles-250000.json unless given, the file `npm run bench:parse` generates)
import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const DIST = new URL('../../../dist/', import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const heldMiB = Number(option('--held-mib', 100));
const file = option('--file', fileURLToPath(new URL('../../data/articles-250000.json', import.meta.url)));

function batchOfArticles() {
  const articles = [];
  for (let i = 0; i < 160; i++) {
    articles.push({ id: i, title: `Article ${i}`, description: `${'x'.repeat(300)}é`, tags: ['a', 'b'], score: 1.5 });
  }
  return new TextEncoder().encode(JSON.stringify(articles));
}

// Each runtime's own file stream: Node's fs.openAsBlob reads the whole file into memory in Deno.
async function fileStream(path) {
  if (typeof Deno !== 'undefined') return (await Deno.open(path)).readable;
  if (typeof Bun !== 'undefined') return Bun.file(path).stream();
  return Readable.toWeb(createReadStream(path, { highWaterMark: 64 * 1024 }));
}

function measure(label, run) {
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const sample = () => {
    const rss = process.memoryUsage().rss;
    if (rss > peak) peak = rss;
  };
  const startedAt = performance.now();
  return Promise.resolve(run(sample)).then(() => {
    sample();
    const ms = performance.now() - startedAt;
    const growth = ((peak - rss0) / 2 ** 20).toFixed(1);
    console.log(`${label.padEnd(52)} ${ms.toFixed(0).padStart(6)} ms   peak RSS growth ${growth} MiB`);
  });
}

function decodeAndParse(batch) {
  return (sample) => {
    const decoder = new TextDecoder();
    let elements = 0;
    for (let i = 0; i < 1600; i++) {
      elements += JSON.parse(decoder.decode(batch)).length;
      if (i % 50 === 0) sample();
    }
    return elements;
  };
}

const { init, parseJsonArray } = await import(new URL('index.js', DIST).href);
await init(readFileSync(new URL('sluice.simd.wasm', DIST)));
await measure('sluice value mode, the file streamed from disk', async (sample) => {
  const stream = await fileStream(file);
  let elements = 0;
  for await (const _ of parseJsonArray(stream, { path: '$._embedded.articles[*]' })) {
    if ((++elements & 4095) === 0) sample();
  }
});

const batch = batchOfArticles();
await measure('decode + JSON.parse of 1,600 batches', decodeAndParse(batch));
// Module scope keeps it alive through the loop.
const held = new Uint8Array(heldMiB * 2 ** 20).fill(1);
await measure(`the same, beside a held ${held.byteLength / 2 ** 20} MiB Uint8Array`, decodeAndParse(batch));
