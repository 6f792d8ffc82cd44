// Child process of lazy_memory.test.ts: lazyParse() of one ~48 MB text, `count` times in a synchronous loop, each
// document dropped (no releaseLazy) before the next, so that no finalizer ever gets a turn. Prints one JSON line:
// how many documents were read, the peak RSS and the peak of the wasm heap in use, or the error that stopped it.
// Usage: node lazy_dropped_documents.mjs simd|scalar COUNT
import { readFileSync } from 'node:fs';

const [build, count] = [process.argv[2], Number(process.argv[3])];
const dist = new URL('../../dist/', import.meta.url);
const { init, lazyParse } = await import(new URL('index.js', dist).href);
const { nativeModule } = await import(new URL('internal.js', dist).href);
await init(readFileSync(new URL(`sluice.${build}.wasm`, dist)));

// Records like an API's: 48 MB of them.
const row = (i) => `{"id":${i},"name":"user ${i}","tags":["a","b"],"score":${i / 7},"bio":"${'x'.repeat(200)}"}`;
const rows = [];
for (let i = 0, size = 0; size < 48e6; i++) {
  rows.push(row(i));
  size += rows[i].length + 1;
}
const text = `{"rows":[${rows.join(',')}],"total":${rows.length}}`;
rows.length = 0;

let peakRss = 0;
let peakHeap = 0;
let done = 0;
let error = null;
// In a function of its own, so that nothing of a document outlives its turn.
const readOne = (i) => {
  const doc = lazyParse(text);
  const n = doc.rows.length;
  if (doc.rows[i % n].id !== i % n || doc.total !== n) throw new Error(`document ${i} read wrong`);
};
try {
  for (let i = 0; i < count; i++) {
    readOne(i);
    done++;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    peakHeap = Math.max(peakHeap, nativeModule().heapInUse());
  }
} catch (e) {
  error = { name: e.name, code: e.code, message: String(e.message).slice(0, 200) };
}
console.log(JSON.stringify({ done, textBytes: text.length, peakRss, peakHeap, error }));
