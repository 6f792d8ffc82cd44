// The driver both engine harnesses share (bench/engines for Node, Deno and Bun; bench/browser for Chromium,
// Firefox and WebKit), matrixMain, and its loop: for each size and mode, every run of every competitor in every
// engine, interleaved round-robin so that drift of a shared machine hits all alike; then the checks (every run
// delivered every element; every competitor in every engine summed the same checksum) and the medians. The host
// supplies one run, in a fresh process or page.
import os from 'node:os';
import { CEILING_COMPETITORS, COMPETITORS, HTTP_COMPETITORS } from '../competitors/parse.mjs';
import { STRINGIFY_COMPETITORS } from '../competitors/stringify.mjs';
import { startBenchServer } from './bench_server.mjs';
import { readOptions } from './cli.mjs';
import { environment, packageVersion } from './environment.mjs';
import { FIELD, MATRIX_USAGE, PATH, matrixDatasets, methodLines, parseMatrixOptions } from './matrix.mjs';
import { available as procAvailable } from './proc_rss.mjs';
import { saveResults } from './save.mjs';
import { markdownTable, summarise } from './stats.mjs';

/** The medians of `target`'s runs of `c`, and its row (pushed onto `rows`) of the printed table. */
function summariseRow(plan, runs, target, c, bytes, rows) {
  const list = runs.get(`${target}/${c.id}`);
  const summary = summarise(bytes, list);
  const note = `failed: ${list.find((r) => r.error)?.error ?? ''}`;
  rows.push({ label: `${plan.labels[target] ?? target}: ${c.label}`, summary, note });
  return { list, summary };
}

/**
 * @param {object} plan
 * @param {string[]} plan.targets  engine ids
 * @param {Record<string, string>} plan.labels  engine id -> 'Deno 2.9.6'
 * @param {string[]} plan.sizes
 * @param {string[]} plan.modes
 * @param {number} plan.runs
 * @param {Record<string, { count: number, bytes: number }>} plan.datasets  by size
 * @param {(target: string, mode: string) => object[]} plan.competitors  the competitors measured there
 * @param {(target: string, mode: string, competitor: object, size: string) => Promise<object>} plan.runOnce
 * @param {(line: string) => void} plan.log
 */
export async function runMatrix(plan) {
  const cells = [];
  let problems = 0;
  for (const size of plan.sizes) {
    const { count, bytes } = plan.datasets[size];
    for (const mode of plan.modes) {
      const loadBefore = os.loadavg();
      const runs = new Map();
      for (const target of plan.targets)
        for (const c of plan.competitors(target, mode)) runs.set(`${target}/${c.id}`, []);
      for (let run = 1; run <= plan.runs; run++) {
        for (const target of plan.targets) {
          for (const c of plan.competitors(target, mode)) {
            const earlier = runs.get(`${target}/${c.id}`);
            // One run that did not finish in time is enough to know: the others would cost the same wait.
            if (earlier.some((r) => r.timedOut)) {
              earlier.push({ error: earlier.find((r) => r.timedOut).error, timedOut: true });
              continue;
            }
            const result = await plan.runOnce(target, mode, c, size);
            const expected = c.expectsNoElements ? 0 : count;
            if (!result.error && result.elements !== expected)
              result.error = `delivered ${result.elements} elements, expected ${expected}`;
            if (!result.error && c.expectsNoElements && result.bytes !== bytes)
              result.error = `read ${result.bytes} bytes, expected ${bytes}`;
            runs.get(`${target}/${c.id}`).push(result);
            const shown = result.error
              ? `FAILED: ${result.error}`
              : `${(bytes / 1e6 / (result.ms / 1000)).toFixed(1)} MB/s`;
            plan.log(`[${size} ${mode} ${run}/${plan.runs}] ${target.padEnd(8)} ${c.label.padEnd(44)} ${shown}`);
          }
        }
      }
      const loadAfter = os.loadavg();
      const all = [...runs.values()].flat();
      const checksums = new Set(
        all.filter((r) => !r.error && r.checksum !== null && r.checksum !== undefined).map((r) => r.checksum),
      );
      // A run that timed out is a measurement (the table says it did not finish), not a broken pipeline.
      const failures = all.filter((r) => r.error && !r.timedOut).length;
      problems += failures + (checksums.size > 1 ? 1 : 0);
      const rows = [];
      for (const target of plan.targets) {
        const competitors = plan.competitors(target, mode).map((c) => {
          const { list, summary } = summariseRow(plan, runs, target, c, bytes, rows);
          return { id: c.id, label: c.label, summary, timedOut: list.filter((r) => r.timedOut).length, runs: list };
        });
        cells.push({ engine: target, size, mode, count, bytes, loadBefore, loadAfter, competitors });
      }
      console.log(
        [
          '',
          `## ${size} (${(bytes / 1e6).toFixed(1)} MB, ${count.toLocaleString('en-US')} articles), ${mode === 'http' ? 'over HTTP' : 'in memory'}`,
          '',
          markdownTable(rows),
          '',
          `Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)}.`,
          checksums.size > 1
            ? `CHECK FAILED: competitors disagree on the checksum: ${[...checksums].join(', ')}`
            : `Check: every run delivered ${count} elements${failures ? ` (except ${failures} failed runs)` : ''}; checksums agree.`,
        ].join('\n'),
      );
    }
  }
  return { cells, problems };
}

/**
 * The stringify runs (bench/competitors/stringify.mjs) in every engine, interleaved the same way.
 * @param {{ targets: string[], labels: Record<string, string>, runs: number, count: number, competitors: object[],
 *   runOnce: (target: string, competitor: object) => Promise<object>, log: (line: string) => void }} plan
 */
export async function runStringify(plan) {
  const loadBefore = os.loadavg();
  const runs = new Map(plan.targets.flatMap((t) => plan.competitors.map((c) => [`${t}/${c.id}`, []])));
  for (let run = 1; run <= plan.runs; run++) {
    for (const target of plan.targets) {
      for (const c of plan.competitors) {
        const result = await plan.runOnce(target, c);
        runs.get(`${target}/${c.id}`).push(result);
        const shown = result.error
          ? `FAILED: ${result.error}`
          : `${(result.bytes / 1e6 / (result.ms / 1000)).toFixed(1)} MB/s`;
        plan.log(`[stringify ${plan.count} ${run}/${plan.runs}] ${target.padEnd(8)} ${c.label.padEnd(46)} ${shown}`);
      }
    }
  }
  const loadAfter = os.loadavg();
  const ok = [...runs.values()].flat().filter((r) => !r.error);
  const checksums = new Set(ok.map((r) => r.checksum));
  const problems = [...runs.values()].flat().length - ok.length + (checksums.size > 1 ? 1 : 0);
  const bytes = ok[0]?.bytes ?? 0;
  const rows = [];
  const engines = plan.targets.map((target) => ({
    id: target,
    label: plan.labels[target] ?? target,
    competitors: plan.competitors.map((c) => {
      const { list, summary } = summariseRow(plan, runs, target, c, bytes, rows);
      return { id: c.id, label: c.label, summary, runs: list };
    }),
  }));
  console.log(
    [
      '',
      `## stringify: { _embedded: { articles }, total } with ${plan.count.toLocaleString('en-US')} articles from an async ` +
        `generator: ${(bytes / 1e6).toFixed(1)} MB`,
      '',
      '"time to first element" is the time to the first byte of output.',
      '',
      markdownTable(rows),
      '',
      checksums.size > 1
        ? `CHECK FAILED: competitors wrote different bytes: ${[...checksums].join(', ')}`
        : `Check: every run wrote the same ${bytes} bytes (sampled checksum).`,
    ].join('\n'),
  );
  return { stringify: { count: plan.count, bytes, loadBefore, loadAfter, engines }, problems };
}

/**
 * The whole matrix run, for bench/engines (Node, Deno, Bun) and bench/browser (Chromium, Firefox, WebKit): options,
 * header, the parse cells, the stringify runs, the results file. The host says how a run is made there:
 * @param {object} host
 * @param {string} host.kind  'engines' | 'browser': the folder and the results' kind
 * @param {string} host.flag  the list flag, '--runtimes' | '--engines'
 * @param {string[]} host.known  its values
 * @param {string} host.where  'Node, Deno and Bun'
 * @param {[string, string][]} host.packages  [name in the header, package] whose versions are printed
 * @param {object} host.serverOptions  for startBenchServer
 * @param {boolean} host.skipIsProblem  a target that does not start fails the run
 * @param {(names: string[], log: Function) => Promise<{ targets, labels, engines, skipped }>} host.open
 * @param {(target: string) => object[]} host.extraCompetitors  the host's own peers (not in --ceiling)
 * @param {(mode: string, size: string, origin: string, dataset: object) => object} host.input  the spec's input
 * @param {(target: string, spec: object, origin: string) => Promise<object>} host.run  one run
 * @param {(versions: object, labels: string[]) => string} host.peersLine
 * @param {() => Promise<void>} host.close
 */
export async function matrixMain(host) {
  const usage = `usage: node bench/${host.kind}/main.mjs [options]
  ${host.flag.padEnd(16)}  comma-separated: ${host.known.join(', ')} (default: all)
${MATRIX_USAGE}`;
  const options = readOptions(
    () =>
      parseMatrixOptions(process.argv.slice(2), {
        flag: host.flag,
        known: host.known,
        defaults: host.known,
        usage,
      }),
    usage,
  );
  if (!procAvailable) {
    console.error(`${host.kind}: RSS is sampled from /proc, which this system does not have`);
    process.exit(1);
  }
  const log = (line) => process.stderr.write(`${line}\n`);
  const env = environment();
  const versions = Object.fromEntries(host.packages.map(([name, path]) => [name, packageVersion(path)]));
  const withVersion = (c) => (c.package ? { ...c, label: `${c.label} ${versions[c.package]}` } : c);
  const competitors = (target, mode) =>
    (options.ceiling
      ? CEILING_COMPETITORS
      : [...(mode === 'http' ? HTTP_COMPETITORS : COMPETITORS), ...host.extraCompetitors(target)]
    ).map(withVersion);

  const datasets = await matrixDatasets(options.sizes, log);
  const server = await startBenchServer(datasets, { paceMBps: options.paceMBps, ...host.serverOptions });
  const results = { date: new Date().toISOString(), environment: env, options, versions, cells: [] };
  let problems = 0;
  try {
    const { targets, labels, engines, skipped } = await host.open(options.targets, log);
    Object.assign(results, { engines, skipped });
    if (host.skipIsProblem) problems += skipped.length;
    console.log(
      [
        `# bench: ${options.ceiling ? "value mode's ceiling" : 'the engine matrix'} in ${host.where}`,
        '',
        `Machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}; sluice ${env.sluice}`,
        host.peersLine(
          versions,
          targets.map((t) => labels[t]),
        ),
        '',
        ...methodLines(options),
        ...skipped.map(({ name, reason }) => `\nSkipped ${name}: ${reason}`),
      ].join('\n'),
    );
    const run = (target, spec) => host.run(target, spec, server.origin);
    const matrix = await runMatrix({
      targets,
      labels,
      sizes: options.sizes,
      modes: options.modes,
      runs: options.runs,
      datasets,
      competitors,
      log,
      runOnce: (target, mode, c, size) =>
        run(target, {
          mode,
          competitor: c.id,
          path: PATH,
          field: FIELD,
          ...host.input(mode, size, server.origin, datasets[size]),
        }),
    });
    results.cells = matrix.cells;
    problems += matrix.problems;
    if (options.stringifyCount > 0) {
      const count = options.stringifyCount;
      const written = await runStringify({
        targets,
        labels,
        runs: options.runs,
        count,
        competitors: STRINGIFY_COMPETITORS,
        log,
        runOnce: (target, c) => run(target, { bench: 'stringify', competitor: c.id, count }),
      });
      results.stringify = written.stringify;
      problems += written.problems;
    }
  } finally {
    await host.close();
    await server.close();
  }

  saveResults(options.ceiling ? `ceiling-${host.kind}` : host.kind, results);
  if (problems) {
    console.error(`${host.kind}: ${problems} problem(s) above`);
    process.exitCode = 1;
  }
}
