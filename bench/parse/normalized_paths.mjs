// The cost of withNormalizedPath (issue 33): createParser over the articles dataset in 64 KiB chunks from memory,
// `$._embedded.articles[*].tags` and `$..tags` (arrival order), output 'value' and 'bytes', the option off and on,
// wall time of alternated rounds in one process; medians. 250,000 articles are the 105 MB of bench:parse.
//
//   node bench/parse/normalized_paths.mjs [--count 250000] [--rounds 7]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createParser, init } from '../../dist/index.js';
import { ensureDataset } from '../datasets.mjs';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '250000' },
    rounds: { type: 'string', default: '7' },
  },
});
await init();
const bytes = readFileSync(await ensureDataset('articles', Number(values.count)));
const CHUNK = 64 * 1024;

function run(options) {
  const start = performance.now();
  const parser = createParser(options);
  let n = 0;
  for (let at = 0; at < bytes.length; at += CHUNK) n += parser.push(bytes.subarray(at, at + CHUNK)).length;
  n += parser.end().length;
  return { ms: performance.now() - start, n };
}

const cases = [];
for (const [path, order] of [
  ['$._embedded.articles[*].tags', 'rfc'],
  ['$..tags', 'arrival'],
]) {
  for (const output of ['value', 'bytes']) {
    for (const withNormalizedPath of [false, true]) cases.push({ path, order, output, withNormalizedPath });
  }
}
const times = cases.map(() => []);
const counts = [];
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [i, options] of cases.entries()) {
    const { ms, n } = run(options);
    times[i].push(ms);
    counts[i] = n;
  }
}
console.log(`| query | output | withNormalizedPath | ms (median of ${values.rounds}) | MB/s | elements |`);
console.log('|---|---|---|---|---|---|');
for (const [i, { path, output, withNormalizedPath }] of cases.entries()) {
  const ms = times[i].sort((a, b) => a - b)[times[i].length >> 1];
  const mbs = bytes.length / 1e6 / (ms / 1000);
  console.log(
    `| \`${path}\` | ${output} | ${withNormalizedPath} | ${ms.toFixed(0)} | ${mbs.toFixed(0)} | ${counts[i]} |`,
  );
}
