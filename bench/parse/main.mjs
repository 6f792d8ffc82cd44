// npm run bench:parse: sluice against the ceiling, JSON.parse and the streaming peers, each run a fresh Node process.
import { PARSE_COMPETITORS as COMPETITORS } from '../competitors/node.mjs';
import { DATASETS, ensureDataset, fileSize } from '../datasets.mjs';
import { integer, list, log, only, readFlags, selected } from '../harness/cli.mjs';
import { startReport, withVersions } from '../harness/environment.mjs';
import { CHUNK_SIZE } from '../harness/matrix.mjs';
import { measureTable, runIn } from '../harness/runtime.mjs';
import { finish } from '../harness/save.mjs';

const PEERS = ['@streamparser/json', 'stream-json', 'stream-chain', 'JSONStream'];

const options = readFlags(
  `usage: npm run bench:parse -- [options]
  --dataset NAMES  comma-separated: ${Object.keys(DATASETS).join(', ')} (default: all but bigints)
  --only IDS       comma-separated competitor ids or parts of ids, e.g. sluice,ceiling (default: all but
                   sluice-value-bigint-simd, run only when named whole)
  --runs N         runs per competitor; the table shows medians (default: 5)`,
  { datasets: Object.keys(DATASETS).filter((name) => !DATASETS[name].optIn), only: null, runs: 5 },
  {
    '--dataset': list('datasets', Object.keys(DATASETS)),
    '--only': only(COMPETITORS.map((c) => c.id)),
    '--runs': integer('runs', 1),
  },
);
options.chunkSize = CHUNK_SIZE;

const { versions, competitors } = withVersions(COMPETITORS.filter((c) => selected(options, c.id, c.optIn)));
const { env, results } = startReport(
  'bench:parse',
  PEERS,
  `Method (bench/README.md, bench:parse): ${CHUNK_SIZE}-byte chunks, medians of ${options.runs} runs, each a fresh process.`,
  { versions, options, datasets: [] },
);
let problems = 0;

for (const name of options.datasets) {
  const dataset = DATASETS[name];
  const file = await ensureDataset(dataset.kind, dataset.count, { log });
  const bytes = fileSize(file);
  const spec = { file, path: dataset.path, field: dataset.field, chunkSize: CHUNK_SIZE };
  // The query rows read the articles' own members (tags, score).
  const ran = competitors.filter((c) => c.query === undefined || dataset.kind === 'articles');
  const table = await measureTable({
    runs: options.runs,
    competitors: ran,
    bytes,
    cores: env.cores,
    tag: name,
    runOnce: (c) => runIn('node', { ...spec, competitor: c.id }),
    check: (c, r) => {
      // A filtered row is checked against the other filtered rows below.
      if (c.query?.filtered) return r.elements > 0 && r.elements < dataset.count ? undefined : `${r.elements} elements`;
      const expected = c.expectsNoElements ? 0 : dataset.count;
      return r.elements === expected ? undefined : `delivered ${r.elements} elements, expected ${expected}`;
    },
  });
  const good = (rows) => ran.filter(rows).flatMap((c) => table.runs[c.id].filter((r) => !r.error));
  // The value-mode rows agree on the checksum (one field summed); the filtered rows (wasm, JS) on the articles.
  const checksums = new Set(good((c) => !c.query && !/^sluice-(bytes|none)/.test(c.id)).map((r) => r.checksum));
  const filtered = new Set(good((c) => c.query?.filtered).map((r) => `${r.elements}/${r.checksum}`));
  if (filtered.size > 1) console.log(`CHECK FAILED: the filtered rows disagree: ${[...filtered].join(', ')}`);
  problems += table.failures + (checksums.size > 1 ? 1 : 0) + (filtered.size > 1 ? 1 : 0);
  const check =
    checksums.size > 1
      ? `CHECK FAILED: value-mode competitors disagree on the checksum: ${[...checksums].join(', ')}`
      : `Check: every run delivered ${dataset.count} elements (none for validate only)` +
        `${table.failures ? ` (except ${table.failures} failed runs)` : ''}; value-mode checksums agree ` +
        `(${[...checksums][0]}).`;
  const title = `## ${name} ${dataset.count}: ${(bytes / 1e6).toFixed(1)} MB (${bytes} bytes), ${dataset.count} elements at ${dataset.path}`;
  console.log(['', title, '', table.markdown, '', check].join('\n'));
  const { kind, count, path } = dataset;
  const { loadBefore, loadAfter, entries } = table;
  results.datasets.push({ name, kind, count, path, bytes, loadBefore, loadAfter, competitors: entries });
}

finish('parse', results, problems);
