// matrixMain, the engine matrix of engines/ and browser/: three sizes in memory and paced over HTTP, then the writers.
import { CEILING_COMPETITORS, COMPETITORS, HTTP_COMPETITORS } from '../competitors/parse.mjs';
import { STRINGIFY_COMPETITORS } from '../competitors/stringify.mjs';
import { ensureDataset, fileSize } from '../datasets.mjs';
import { startBenchServer } from './bench_server.mjs';
import { integer, list, log, readFlags, set } from './cli.mjs';
import { environment, packageVersion } from './environment.mjs';
import { available as procAvailable } from './proc_rss.mjs';
import { measureTable } from './runtime.mjs';
import { finish } from './save.mjs';
import { loadLine, markdownTable, summarise } from './stats.mjs';

const SIZES = { '1MB': 2_500, '10MB': 25_000, '100MB': 250_000 };
export const CHUNK_SIZE = 64 * 1024;
const PATH = '$._embedded.articles[*]';
const PACE_MBPS = 50; // 400 Mbit/s, a fast connection

export function matrixMethod({ paceMBps, runs }) {
  return (
    `The articles dataset (bench/gen-dataset.mjs) at each size; every element at ${PATH} is consumed (counted, ` +
    'its id summed into a checksum all must agree on). memory: the input, in memory before the clock starts, fed in ' +
    '64 KiB subarrays (JSON.parse: one TextDecoder.decode of it whole, then JSON.parse). http: fetch() of a response ' +
    `served on 127.0.0.1 in 64 KiB writes paced at ${paceMBps} MB/s, timed from fetch(). Time to first element: from ` +
    "the start to the first element delivered. Peak memory growth: the peak RSS of the competitor's process (a " +
    'browser: its web content processes), sampled every 2 ms from /proc, minus its RSS once set up. Medians of ' +
    `${runs} run${runs === 1 ? '' : 's'}, each a fresh process (a browser: a fresh page in a new context; WebKit: a ` +
    'new browser process), interleaved round-robin; MB = 10^6 bytes.'
  );
}

async function runCell({ plan, tag, title, competitors, runOnce, check = () => undefined, bytes, agreed }) {
  const entries = plan.targets.flatMap((target) =>
    competitors(target).map((c) => ({ key: `${target}/${c.id}`, label: `${target.padEnd(8)} ${c.label}`, target, c })),
  );
  const cell = await measureTable({
    runs: plan.runs,
    competitors: entries,
    runOnce: ({ target, c }, earlier) => {
      // One run that did not finish in time is enough to know: the others would cost the same wait.
      const timedOut = earlier.find((r) => r.timedOut);
      return timedOut ? { ...timedOut } : runOnce(target, c);
    },
    check: ({ c }, r) => check(c, r),
    bytes,
    tag,
  });
  const { runs, loadBefore, loadAfter, bytes: measured } = cell;
  const all = Object.values(runs).flat();
  const rows = [];
  const engines = plan.targets.map((target) => {
    const label = plan.labels[target] ?? target;
    const measuredHere = competitors(target).map((c) => {
      const list = runs[`${target}/${c.id}`];
      const summary = summarise(measured, list);
      rows.push({ label: `${label}: ${c.label}`, summary, note: `failed: ${list.find((r) => r.error)?.error ?? ''}` });
      return { id: c.id, label: c.label, summary, timedOut: list.filter((r) => r.timedOut).length, runs: list };
    });
    return { id: target, label, competitors: measuredHere };
  });
  const checksums = new Set(all.filter((r) => !r.error && r.checksum != null).map((r) => r.checksum));
  // A run that timed out is a measurement (the table says it did not finish), not a broken pipeline.
  const failures = all.filter((r) => r.error && !r.timedOut).length;
  const line =
    checksums.size > 1
      ? `CHECK FAILED: the competitors disagree: ${[...checksums].join(', ')}`
      : `${agreed(measured)}${failures ? ` (failed runs: ${failures})` : ''}.`;
  console.log(['', title(measured), '', markdownTable(rows), '', loadLine(loadBefore, loadAfter), line].join('\n'));
  return { engines, bytes: measured, loadBefore, loadAfter, problems: failures + (checksums.size > 1 ? 1 : 0) };
}

// The host: kind, known, where, packages, open(names) -> { targets, labels, engines, skipped }, extraCompetitors(target),
// input(mode, size, origin, dataset), run(target, spec, origin), peersLine(versions, labels), close().
export async function matrixMain(host) {
  const usage = `usage: node bench/${host.kind}/main.mjs [options]
  --runs N          runs per competitor in each cell; tables show medians (default 3)
  --sizes LIST      comma-separated: ${Object.keys(SIZES).join(', ')} (default: all)
  --stringify-count N  articles written by the stringify runs (default 100000; 0: no stringify runs)
  --ceiling         value mode against its ceiling instead (CEILING_COMPETITORS, bench/competitors/parse.mjs),
                    in memory; defaults then: --sizes 10MB --stringify-count 0`;
  const options = readFlags(
    usage,
    { runs: 3, sizes: null, stringifyCount: null, targets: host.known, ceiling: false },
    {
      '--runs': integer('runs', 1),
      '--sizes': list('sizes', Object.keys(SIZES)),
      '--stringify-count': integer('stringifyCount', 0),
      '--ceiling': set({ ceiling: true }),
    },
  );
  options.sizes ??= options.ceiling ? ['10MB'] : Object.keys(SIZES);
  options.stringifyCount ??= options.ceiling ? 0 : 100_000;
  options.modes = options.ceiling ? ['memory'] : ['memory', 'http'];
  options.paceMBps = PACE_MBPS;
  if (!procAvailable) {
    console.error(`${host.kind}: RSS is sampled from /proc, which this system does not have`);
    process.exit(1);
  }
  const env = environment();
  const versions = Object.fromEntries(Object.entries(host.packages).map(([name, p]) => [name, packageVersion(p)]));
  const withVersion = (c) => (c.package ? { ...c, label: `${c.label} ${versions[c.package]}` } : c);
  const competitors = (target, mode) =>
    (options.ceiling
      ? CEILING_COMPETITORS
      : [...(mode === 'http' ? HTTP_COMPETITORS : COMPETITORS), ...(host.extraCompetitors?.(target) ?? [])]
    ).map(withVersion);
  const datasets = {};
  for (const size of options.sizes) {
    const file = await ensureDataset('articles', SIZES[size], { log });
    datasets[size] = { file, count: SIZES[size], bytes: fileSize(file) };
  }
  const browser = host.kind === 'browser';
  const server = await startBenchServer(datasets, { paceMBps: options.paceMBps, streamparser: browser });
  const results = { date: new Date().toISOString(), environment: env, options, versions, cells: [] };
  let problems = 0;
  try {
    const plan = { ...(await host.open(options.targets)), runs: options.runs };
    const { targets, labels, engines, skipped } = plan;
    Object.assign(results, { engines, skipped });
    if (browser) problems += skipped.length;
    const title = `# bench: ${options.ceiling ? "value mode's ceiling" : 'the engine matrix'} in ${host.where}`;
    const machine = `Machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}; sluice ${env.sluice}`;
    const names = targets.map((t) => labels[t]);
    const peers = host.peersLine(versions, names);
    const skips = skipped.map(({ name, reason }) => `\nSkipped ${name}: ${reason}`);
    console.log([title, '', machine, peers, '', `Method: ${matrixMethod(options)}`, ...skips].join('\n'));
    const run = (target, spec) => host.run(target, spec, server.origin);
    for (const size of options.sizes) {
      const { count, bytes } = datasets[size];
      for (const mode of options.modes) {
        const input = host.input(mode, size, server.origin, datasets[size]);
        const cell = await runCell({
          plan,
          tag: `${size} ${mode}`,
          title: () =>
            `## ${size} (${(bytes / 1e6).toFixed(1)} MB, ${count.toLocaleString('en-US')} articles), ` +
            `${mode === 'http' ? 'over HTTP' : 'in memory'}`,
          competitors: (target) => competitors(target, mode),
          runOnce: (target, c) => run(target, { mode, competitor: c.id, path: PATH, field: 'id', ...input }),
          check: (c, r) => {
            const expected = c.expectsNoElements ? 0 : count;
            if (r.elements !== expected) return `delivered ${r.elements} elements, expected ${expected}`;
            if (c.expectsNoElements && r.bytes !== bytes) return `read ${r.bytes} bytes, expected ${bytes}`;
          },
          bytes,
          agreed: () => `Check: every run delivered ${count} elements`,
        });
        problems += cell.problems;
        const { loadBefore, loadAfter } = cell;
        for (const { id, competitors: list } of cell.engines)
          results.cells.push({ engine: id, size, mode, count, bytes, loadBefore, loadAfter, competitors: list });
      }
    }
    const count = options.stringifyCount;
    if (count > 0) {
      const cell = await runCell({
        plan,
        tag: `stringify ${count}`,
        title: (bytes) =>
          `## stringify: { _embedded: { articles }, total } with ${count.toLocaleString('en-US')} articles from an ` +
          `async generator: ${(bytes / 1e6).toFixed(1)} MB\n\n"time to first element": to the first byte of output.`,
        competitors: () => STRINGIFY_COMPETITORS,
        runOnce: (target, c) => run(target, { bench: 'stringify', competitor: c.id, count }),
        bytes: null,
        agreed: (bytes) => `Check: every run wrote the same ${bytes} bytes (sampled checksum)`,
      });
      problems += cell.problems;
      const { bytes, loadBefore, loadAfter, engines } = cell;
      results.stringify = { count, bytes, loadBefore, loadAfter, engines };
    }
  } finally {
    await host.close?.();
    await server.close();
  }
  finish(options.ceiling ? `ceiling-${host.kind}` : host.kind, results, problems);
}
