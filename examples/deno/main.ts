// Streams a JSON document from a file or a URL through sluice under Deno and prints what it found, one JSON line:
// how many elements, the time to the first one, the total time and the throughput.
//   deno run --allow-read --allow-net main.ts FILE_OR_URL [PATH]
// In a project of your own, map "sluice" to "npm:sluice" in deno.json (here it maps to this repository's build).
import { parseJsonArray } from 'sluice';

const [source, path = '$[*]'] = Deno.args;
if (source === undefined) {
  console.error('usage: deno run --allow-read --allow-net main.ts FILE_OR_URL [PATH]');
  Deno.exit(2);
}

const started = performance.now();
const body = /^https?:\/\//.test(source) ? (await fetch(source)).body : (await Deno.open(source)).readable;
let count = 0;
let firstElementMs: number | null = null;
for await (const _element of parseJsonArray(body, { path })) {
  if (count++ === 0) firstElementMs = performance.now() - started;
}
const totalMs = performance.now() - started;
const bytes = /^https?:\/\//.test(source) ? null : (await Deno.stat(source)).size;
console.log(
  JSON.stringify({
    runtime: `deno ${Deno.version.deno}`,
    count,
    firstElementMs: firstElementMs === null ? null : Math.round(firstElementMs),
    totalMs: Math.round(totalMs),
    mbPerSecond: bytes === null ? null : Math.round(bytes / 1e6 / (totalMs / 1000)),
  }),
);
