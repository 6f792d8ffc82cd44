// Measured by demo.mjs in a process of its own: the usual way, the whole file read into one string and parsed.
// Usage: node parse_whole_file.mjs FILE   (reports to demo.mjs over IPC when started by it)
import { readFile } from 'node:fs/promises';

const report = (message) => process.send?.(message);
const file = process.argv[2];
const startRss = process.memoryUsage().rss;

const started = performance.now();
report({ phase: 'reading the whole file' });
const text = await readFile(file, 'utf8');
report({ phase: 'JSON.parse' });
const articles = JSON.parse(text)._embedded.articles;
const firstAt = performance.now();
let idSum = 0;
for (const article of articles) idSum += article.id;
const ended = performance.now();

const result = {
  ms: ended - started,
  firstElementMs: firstAt - started,
  count: articles.length,
  idSum,
  startRss,
  peakRss: process.resourceUsage().maxRSS * 1024,
};
if (process.send) report({ result });
else console.log(result);
