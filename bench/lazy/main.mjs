// npm run bench:lazy: reading some of a buffered document's leaves, each run a fresh process (child.mjs), interleaved.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { COMPETITORS } from '../competitors/lazy.mjs';
import { ensureDataset, fileSize } from '../datasets.mjs';
import { startReport } from '../harness/environment.mjs';
import { roundRobin, runIn } from '../harness/runtime.mjs';
import { finish } from '../harness/save.mjs';
import { loadLine, mdTable, median, ms as fmt } from '../harness/stats.mjs';
import { integer, list, log, readFlags } from '../harness/cli.mjs';

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));

// arrayPath: the record array parseJsonArray streams (null: no parseJsonArray row).
const corpus = (name) => () => fileURLToPath(new URL(`../../tests/corpus/jsonexamples/${name}.json`, import.meta.url));
const DATASETS = {
  twitter: { file: corpus('twitter'), arrayPath: ['statuses'] },
  citm_catalog: { file: corpus('citm_catalog'), arrayPath: null },
  canada: { file: corpus('canada'), arrayPath: ['features', 0, 'geometry', 'coordinates'] },
  articles: { file: () => ensureDataset('articles', 250_000, { log }), arrayPath: ['_embedded', 'articles'] },
};
const FRACTIONS = [0.01, 0.1, 1];
const TIMES = { ms: 'first document in a fresh process (cold)', warmMs: 'later documents in the same process (warm)' };
const RATIOS = { 'from the root': ['lazyparse', 'json-parse'], walking: ['lazyparse-walk', 'json-parse-walk'] };
const OPENJSON_MAX_GETS = 2_000;

const options = readFlags(
  `usage: npm run bench:lazy -- [options]
  --dataset NAMES  comma-separated: ${Object.keys(DATASETS).join(', ')} (default: all)
  --runs N         runs per competitor, dataset and fraction; the tables show medians (default: 5)`,
  { datasets: Object.keys(DATASETS), runs: 5 },
  { '--dataset': list('datasets', Object.keys(DATASETS)), '--runs': integer('runs', 1) },
);

const method =
  `Method (bench/README.md, bench:lazy): medians of ${options.runs} runs, each a fresh process, interleaved; ` +
  `openJson not run above ${OPENJSON_MAX_GETS} get() calls ('–').`;
const { env, results } = startReport('bench:lazy', [], method, { options, datasets: [] });
let problems = 0;

for (const name of options.datasets) {
  const dataset = DATASETS[name];
  const file = await dataset.file();
  const bytes = fileSize(file);
  const loadBefore = os.loadavg();
  const rows = COMPETITORS.filter((c) => !c.arrayPath || dataset.arrayPath !== null);
  const table = {};
  let leaves = 0;
  for (const fraction of FRACTIONS) {
    let read = 0; // leaves the lazyParse run of this round read: openJson's get() calls
    const runs = await roundRobin({
      runs: options.runs,
      entries: rows.map((c) => ({ key: c.id, label: c.label.padEnd(52), c })),
      runOnce: async ({ c }) => {
        // openJson's get() costs about 0.35 ms on twitter.json: one per leaf only for the smaller leaf sets.
        if (c.fractions && !c.fractions.includes(fraction)) return { error: 'not run at this fraction', skipped: true };
        if (c.id === 'openjson' && read > OPENJSON_MAX_GETS)
          return { error: `skipped: ${read} get() calls (over ${OPENJSON_MAX_GETS})`, skipped: true };
        const spec = { competitor: c.id, file, fraction, arrayPath: dataset.arrayPath, repeats: bytes > 20e6 ? 2 : 31 };
        const result = await runIn('node', spec, { script: CHILD });
        leaves = result.leaves ?? leaves;
        if (c.id === 'lazyparse') read = result.read ?? 0;
        return result;
      },
      check: (_, r) => (r.checksum === r.expected ? undefined : `checksum ${r.checksum}, expected ${r.expected}`),
      shown: (r) => `${fmt(r.ms)}, warm ${fmt(r.warmMs)}`,
      tag: `${name} ${fraction * 100}%`,
    });
    problems += rows.flatMap((c) => runs[c.id]).filter((r) => r.error && !r.skipped).length;
    table[fraction] = Object.fromEntries(
      rows.map((c) => {
        const ok = runs[c.id].filter((r) => !r.error);
        const of = (get) => median(ok.map(get));
        const read = ok[0]?.read ?? null;
        const rssGrowthMiB = of((r) => r.rssGrowth / 2 ** 20);
        return [c.id, { ms: of((r) => r.ms), warmMs: of((r) => r.warmMs), read, rssGrowthMiB, runs: runs[c.id] }];
      }),
    );
  }
  const loadAfter = os.loadavg();
  const lines = ['', `## ${name}: ${(bytes / 1e6).toFixed(1)} MB, ${leaves} leaves`];
  const head = ['competitor', ...FRACTIONS.map((f) => `${f * 100} % of leaves`)];
  for (const [key, title] of Object.entries(TIMES)) {
    const ratio = ([what, [lazy, whole]]) => [
      `**JSON.parse time / lazyParse time, ${what}**`,
      ...FRACTIONS.map((f) => {
        const [a, b] = [table[f][lazy]?.[key], table[f][whole]?.[key]];
        return a && b ? `**${(b / a).toFixed(2)}x**` : '–';
      }),
    ];
    const cells = rows.map((c) => [c.label, ...FRACTIONS.map((f) => fmt(table[f][c.id][key]))]);
    lines.push('', `${title}:`, '', ...mdTable(head, [...cells, ...Object.entries(RATIOS).map(ratio)]));
  }
  const read = `Leaves read: ${FRACTIONS.map((f) => table[f].lazyparse.read).join(', ')}.`;
  lines.push('', `${read} Targets: 1 % >= 5x, 100 % >= 0.7x.`, loadLine(loadBefore, loadAfter, env.cores));
  console.log(lines.join('\n'));
  results.datasets.push({ name, bytes, leaves, loadBefore, loadAfter, table });
}

finish('lazy', results, problems);
