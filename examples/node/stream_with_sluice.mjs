// Measured by demo.mjs in a process of its own: streams a file from disk through sluice, 64 KiB at a time.
// Usage: node stream_with_sluice.mjs FILE   (reports to demo.mjs over IPC when started by it)
import { createReadStream } from 'node:fs';
import { init, parseJsonArray } from 'sluice';

const report = (message) => process.send?.(message);
const file = process.argv[2];

await init(); // Loads the wasm once per process; done before the clock starts, as a server would at boot.
const startRss = process.memoryUsage().rss;

const started = performance.now();
const source = createReadStream(file, { highWaterMark: 64 * 1024 });
const progress = setInterval(() => report({ bytesRead: source.bytesRead }), 100);
let firstAt = 0;
let count = 0;
let idSum = 0;
for await (const article of parseJsonArray(source, { path: '$._embedded.articles[*]' })) {
  if (count === 0) firstAt = performance.now();
  count++;
  idSum += article.id;
}
const ended = performance.now();
clearInterval(progress);

const result = {
  ms: ended - started,
  firstElementMs: firstAt - started,
  count,
  idSum,
  startRss,
  peakRss: process.resourceUsage().maxRSS * 1024,
};
if (process.send) report({ result });
else console.log(result);
