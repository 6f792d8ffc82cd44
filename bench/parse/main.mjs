// npm run bench:parse: sluice against the materialisation ceiling, JSON.parse and the streaming peers, on the
// generated datasets fed from memory in fixed-size chunks. Every run of every competitor is a fresh child process
// (child.mjs); runs are interleaved round-robin so that drift of the machine hits every competitor alike.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { built, PARSE_COMPETITORS as COMPETITORS } from '../competitors/node.mjs';
import { DATASETS, ensureDataset, fileSize } from '../datasets.mjs';
import { integer, list, log, only, readFlags } from '../harness/cli.mjs';
import { environment, reportHeader, withVersions } from '../harness/environment.mjs';
import { roundRobin, runChild } from '../harness/fork.mjs';
import { saveResults } from '../harness/save.mjs';
import { workloadTable } from '../harness/stats.mjs';

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const SAMPLE_INTERVAL_MS = 1;
const PEERS = ['@streamparser/json', 'stream-json', 'stream-chain', 'JSONStream'];

const USAGE = `usage: npm run bench:parse -- [options]
  --dataset NAMES  comma-separated: ${Object.keys(DATASETS).join(', ')} (default: all but bigints)
  --only IDS       comma-separated competitor ids or parts of ids, e.g. sluice,ceiling (default: all but
                   sluice-value-bigint-simd, run only when named whole)
  --runs N         runs per competitor; the table shows medians (default: 5)
  --chunk SIZE     chunk size in bytes, or with a k/KiB suffix (default: 64KiB)`;

const chunk = (options, text, flag, fail) => {
  const match = /^(\d+)\s*(k|kib|m|mib)?$/i.exec(text ?? '');
  const unit = { k: 1024, kib: 1024, m: 1 << 20, mib: 1 << 20 }[match?.[2]?.toLowerCase()] ?? 1;
  options.chunkSize = match ? Number(match[1]) * unit : NaN;
  if (!(options.chunkSize >= 1)) fail(`${flag} must be a size like 65536 or 64k`);
};

const options = readFlags(
  USAGE,
  {
    datasets: Object.keys(DATASETS).filter((name) => !DATASETS[name].optIn),
    only: null,
    runs: 5,
    chunkSize: 65536,
  },
  {
    '--dataset': list('datasets', Object.keys(DATASETS)),
    '--only': only(COMPETITORS.map((c) => c.id)),
    '--runs': integer('runs', 1),
    '--chunk': chunk,
  },
);

/** An opt-in competitor (options.integers) runs only when --only names its whole id. */
const selected = (id, optIn) =>
  optIn
    ? (options.only?.some((part) => id === part.toLowerCase()) ?? false)
    : options.only === null || options.only.some((part) => id.includes(part.toLowerCase()));

const env = environment();
const { versions, competitors } = withVersions(COMPETITORS.filter((c) => selected(c.id, c.optIn)));
const missing = competitors.filter((c) => !built(c));

console.log(
  [
    ...reportHeader('bench:parse', env, PEERS),
    '',
    'Method:',
    `- input held in memory as one Uint8Array, fed as ${options.chunkSize}-byte chunks (subarrays); every element is`,
    `  consumed (counted, one field summed); MB = 10^6 bytes; medians of ${options.runs} runs.`,
    '- each run of each competitor is a fresh child process (node --expose-gc), cold (no warm-up); the runs are',
    '  interleaved round-robin across competitors.',
    `- peak RSS growth = max(RSS sampled every ${SAMPLE_INTERVAL_MS} ms by a worker thread, RSS after the run) minus the`,
    '  baseline taken after the input is loaded, setup is done (modules, wasm init, precomputed batches) and a GC.',
    '- time to first element: from the first push (or write) to the first element delivered.',
    '- CPU / wall: CPU time of the child (all its threads) over wall time; well under 1 means the run waited for',
    '  a CPU that other work was using, so its MB/s understates it.',
    '- page faults: minor page faults of the child during the timed run (median): pages it touched for the first',
    '  time, each at the cost the Memory line gives (4096 bytes a page).',
    ...(missing.length ? ['', `Skipped (dist/ not built): ${missing.map((c) => c.id).join(', ')}`] : []),
  ].join('\n'),
);
const measured = competitors.filter(built);

const results = { date: new Date().toISOString(), environment: env, versions, options, datasets: [] };
let problems = 0;

for (const name of options.datasets) {
  const dataset = DATASETS[name];
  const file = await ensureDataset(dataset.kind, dataset.count, { log });
  const bytes = fileSize(file);
  const loadBefore = os.loadavg();
  const spec = { file, path: dataset.path, field: dataset.field, chunkSize: options.chunkSize };
  const runs = await roundRobin({
    runs: options.runs,
    entries: measured.map((c) => ({ key: c.id, label: c.label, c })),
    runOnce: ({ c }) => runChild(CHILD, { ...spec, competitor: c.id, sampleIntervalMs: SAMPLE_INTERVAL_MS }),
    check: ({ c }, r) => {
      const expected = c.expectsNoElements ? 0 : dataset.count;
      return r.elements === expected ? undefined : `delivered ${r.elements} elements, expected ${expected}`;
    },
    shown: (r) => `${(bytes / 1e6 / (r.ms / 1000)).toFixed(1)} MB/s`,
    log,
    tag: name,
  });

  // Every value-mode competitor must see the same elements: the sum of one field over all of them agrees.
  const valueIds = measured.map((c) => c.id).filter((id) => !/^sluice-(bytes|none)/.test(id));
  const checksums = new Set(valueIds.flatMap((id) => runs[id].filter((r) => !r.error).map((r) => r.checksum)));
  const failures = Object.values(runs)
    .flat()
    .filter((r) => r.error).length;
  problems += failures + (checksums.size > 1 ? 1 : 0);

  const loadAfter = os.loadavg();
  const table = workloadTable({ competitors, runs, bytes, loadBefore, loadAfter, cores: env.cores });
  console.log(
    [
      '',
      `## ${name} ${dataset.count}: ${(bytes / 1e6).toFixed(1)} MB (${bytes} bytes), ${dataset.count} elements at ` +
        `${dataset.path}`,
      '',
      table.markdown,
      '',
      checksums.size > 1
        ? `CHECK FAILED: value-mode competitors disagree on the checksum: ${[...checksums].join(', ')}`
        : `Check: every run delivered ${dataset.count} elements (none for validate only)${failures ? ` (except ${failures} failed runs)` : ''}` +
          `; value-mode checksums agree (${[...checksums][0]}).`,
    ].join('\n'),
  );
  results.datasets.push({
    ...{ name, kind: dataset.kind, count: dataset.count, path: dataset.path, bytes, loadBefore, loadAfter },
    competitors: table.entries,
  });
}

saveResults('parse', results);
if (problems) {
  console.error(`bench:parse: ${problems} problem(s) above`);
  process.exitCode = 1;
}
