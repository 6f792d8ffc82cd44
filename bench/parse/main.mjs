// npm run bench:parse: sluice against the materialisation ceiling, JSON.parse and the streaming peers, on the
// generated datasets fed from memory in fixed-size chunks. Every run of every competitor is a fresh child process
// (child.mjs); runs are interleaved round-robin so that drift of the machine hits every competitor alike.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { built, PARSE_COMPETITORS as COMPETITORS } from '../competitors/node.mjs';
import { DATASETS, ensureDataset, fileSize } from '../datasets.mjs';
import { environment, memoryCostLine, packageVersion } from '../harness/environment.mjs';
import { parseOptions, selected, USAGE } from './options.mjs';
import { ratioTable } from './report.mjs';
import { runChild } from '../harness/fork.mjs';
import { saveResults } from '../harness/save.mjs';
import { loadLine, markdownTable, summarise } from '../harness/stats.mjs';
import { readOptions } from '../harness/cli.mjs';

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const SAMPLE_INTERVAL_MS = 1;

const options = readOptions(
  () =>
    parseOptions(
      process.argv.slice(2),
      COMPETITORS.map((c) => c.id),
    ),
  USAGE,
);

const log = (line) => process.stderr.write(`${line}\n`);

const env = environment();
const competitors = COMPETITORS.filter((c) => selected(options, c.id, c.optIn));
const versions = Object.fromEntries(competitors.filter((c) => c.package).map((c) => [c.id, packageVersion(c.package)]));
const labelOf = (c) => (versions[c.id] ? `${c.label} ${versions[c.id]}` : c.label);
const missing = competitors.filter((c) => !built(c));

const header = [
  '# bench:parse',
  '',
  `Machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}`,
  `Runtime: Node ${env.node}, V8 ${env.v8}; sluice ${env.sluice}`,
  memoryCostLine(env.memory),
  `Peers: ${['@streamparser/json', 'stream-json', 'stream-chain', 'JSONStream'].map((p) => `${p} ${packageVersion(p)}`).join(', ')}`,
  '',
  'Method:',
  `- input held in memory as one Uint8Array, fed as ${options.chunkSize}-byte chunks (subarrays); every element is`,
  '  consumed (counted, one field summed); MB = 10^6 bytes; medians of ' + `${options.runs} runs.`,
  ...(options.warm === 0
    ? [
        '- each run of each competitor is a fresh child process (node --expose-gc), cold (no warm-up); the runs are',
        '  interleaved round-robin across competitors.',
      ]
    : [
        `- each run of each competitor is a fresh child process (node --expose-gc), warm: the timed run follows ${options.warm}`,
        '  untimed runs in the same process (JIT and heap sizes settled; memory the allocator gave back to the OS is',
        '  touched afresh, as in a server after a GC: see the page-fault column); interleaved round-robin.',
      ]),
  `- peak RSS growth = max(RSS sampled every ${SAMPLE_INTERVAL_MS} ms by a worker thread, RSS after the run) minus the`,
  '  baseline taken after the input is loaded, setup is done (modules, wasm init, precomputed batches) and a GC.',
  '- time to first element: from the first push (or write) to the first element delivered.',
  '- CPU / wall: CPU time of the child (all its threads) over wall time; well under 1 means the run waited for',
  '  a CPU that other work was using, so its MB/s understates it.',
  '- page faults: minor page faults of the child during the timed run (median): pages it touched for the first',
  '  time, each at the cost the Memory line gives (4096 bytes a page).',
];
console.log(header.join('\n'));
if (missing.length) {
  console.log(`\nSkipped (dist/ not built): ${missing.map((c) => c.id).join(', ')}`);
}
const measured = competitors.filter(built);

const results = { date: new Date().toISOString(), environment: env, versions, options, datasets: [] };
let problems = 0;

for (const name of options.datasets) {
  const dataset = DATASETS[name];
  const file = await ensureDataset(dataset.kind, dataset.count, { log });
  const bytes = fileSize(file);
  const loadBefore = os.loadavg();
  const runs = Object.fromEntries(measured.map((c) => [c.id, []]));
  for (let run = 1; run <= options.runs; run++) {
    for (const c of measured) {
      const result = await runChild(CHILD, {
        competitor: c.id,
        file,
        path: dataset.path,
        field: dataset.field,
        chunkSize: options.chunkSize,
        warm: options.warm,
        sampleIntervalMs: SAMPLE_INTERVAL_MS,
      });
      const expected = c.expectsNoElements ? 0 : dataset.count;
      if (!result.error && result.elements !== expected) {
        result.error = `delivered ${result.elements} elements, expected ${expected}`;
      }
      runs[c.id].push(result);
      const shown = result.error ? `FAILED: ${result.error}` : `${(bytes / 1e6 / (result.ms / 1000)).toFixed(1)} MB/s`;
      log(`[${name} ${run}/${options.runs}] ${labelOf(c).padEnd(44)} ${shown}`);
    }
  }

  // Every value-mode competitor must see the same elements: the sum of one field over all of them agrees.
  const valueIds = measured
    .map((c) => c.id)
    .filter((id) => !id.startsWith('sluice-bytes') && !id.startsWith('sluice-none'));
  const checksums = new Set(valueIds.flatMap((id) => runs[id].filter((r) => !r.error).map((r) => r.checksum)));
  const failures = Object.values(runs)
    .flat()
    .filter((r) => r.error).length;
  problems += failures + (checksums.size > 1 ? 1 : 0);

  const loadAfter = os.loadavg();
  const byId = Object.fromEntries(measured.map((c) => [c.id, summarise(bytes, runs[c.id])]));
  const rows = competitors.map((c) => ({
    label: labelOf(c),
    summary: byId[c.id],
    note: built(c) ? undefined : 'not built',
  }));
  const ratios = ratioTable(byId, name === 'articles');
  console.log(
    [
      '',
      `## ${name} ${dataset.count}: ${(bytes / 1e6).toFixed(1)} MB (${bytes} bytes), ${dataset.count} elements at ` +
        `${dataset.path}`,
      '',
      markdownTable(rows),
      '',
      loadLine(loadBefore, loadAfter, env.cores),
      ...(ratios ? ['', ratios.markdown] : []),
      '',
      checksums.size > 1
        ? `CHECK FAILED: value-mode competitors disagree on the checksum: ${[...checksums].join(', ')}`
        : `Check: every run delivered ${dataset.count} elements (none for validate only)${failures ? ` (except ${failures} failed runs)` : ''}` +
          `; value-mode checksums agree (${[...checksums][0]}).`,
    ].join('\n'),
  );
  results.datasets.push({
    name,
    kind: dataset.kind,
    count: dataset.count,
    path: dataset.path,
    bytes,
    loadBefore,
    loadAfter,
    competitors: measured.map((c) => ({ id: c.id, label: labelOf(c), summary: byId[c.id], runs: runs[c.id] })),
    ratios: ratios?.values ?? null,
  });
}

saveResults('parse', results);
if (problems) {
  console.error(`bench:parse: ${problems} problem(s) above`);
  process.exitCode = 1;
}
