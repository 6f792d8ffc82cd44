// Streams a JSON document from a file or a URL through sluice under Bun and prints what it found, one JSON line:
// how many elements, the time to the first one, the total time and the throughput.
//   bun main.ts FILE_OR_URL [PATH]
import { parseJsonArray } from 'sluice';

const [source, path = '$[*]'] = process.argv.slice(2);
if (source === undefined) {
  console.error('usage: bun main.ts FILE_OR_URL [PATH]');
  process.exit(2);
}

const started = performance.now();
const remote = /^https?:\/\//.test(source);
const body = remote ? (await fetch(source)).body : Bun.file(source).stream();
let count = 0;
let firstElementMs: number | null = null;
for await (const _element of parseJsonArray(body, { path })) {
  if (count++ === 0) firstElementMs = performance.now() - started;
}
const totalMs = performance.now() - started;
const bytes = remote ? null : Bun.file(source).size;
console.log(
  JSON.stringify({
    runtime: `bun ${Bun.version}`,
    count,
    firstElementMs: firstElementMs === null ? null : Math.round(firstElementMs),
    totalMs: Math.round(totalMs),
    mbPerSecond: bytes === null ? null : Math.round(bytes / 1e6 / (totalMs / 1000)),
  }),
);
