// A filter evaluated natively against the same selection filtered in JS (issue 33): parseJsonArray with
// `$._embedded.articles[?@.score < LIMIT]` against `$._embedded.articles[*]` followed by `.score < LIMIT`, CPU time
// of alternated rounds over the articles dataset in 64 KiB chunks. Scores are uniform over [0, 10000): the
// default limit 1000 passes about 10 %.
//
//   node bench/parse/filter.mjs [--count 20000] [--rounds 10] [--limit 1000]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseJsonArray } from '../../dist/index.js';
import { ensureDataset } from '../datasets.mjs';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '10' },
    limit: { type: 'string', default: '1000' },
  },
});
const limit = Number(values.limit);
const bytes = readFileSync(await ensureDataset('articles', Number(values.count)));
const CHUNK = 64 * 1024;
const chunks = [];
for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.subarray(at, at + CHUNK));
async function* source() {
  yield* chunks;
}

const runs = {
  native: async () => {
    let n = 0;
    for await (const _ of parseJsonArray(source(), { path: `$._embedded.articles[?@.score < ${limit}]` })) n++;
    return n;
  },
  js: async () => {
    let n = 0;
    for await (const a of parseJsonArray(source(), { path: '$._embedded.articles[*]' })) if (a.score < limit) n++;
    return n;
  },
};

const cpu = { native: [], js: [] };
let kept;
for (let round = 0; round < Number(values.rounds) + 1; round++) {
  for (const name of round % 2 === 0 ? ['native', 'js'] : ['js', 'native']) {
    const start = process.cpuUsage();
    const n = await runs[name]();
    const used = process.cpuUsage(start);
    if (kept !== undefined && n !== kept) throw new Error(`${name} kept ${n}, the other ${kept}`);
    kept = n;
    if (round > 0) cpu[name].push((used.user + used.system) / 1000); // round 0 warms up
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];
const total = Number(values.count);
console.log(
  `${total} articles, ${(bytes.length / 1e6).toFixed(1)} MB, kept ${kept} (${((100 * kept) / total).toFixed(1)} %)`,
);
console.log(
  `native filter: median ${median(cpu.native).toFixed(1)} ms CPU; [*] + JS filter: ${median(cpu.js).toFixed(1)} ms`,
);
console.log(`ratio ${(median(cpu.js) / median(cpu.native)).toFixed(2)}x`);
