// The driver both engine harnesses share (bench/engines for Node, Deno and Bun; bench/browser for Chromium,
// Firefox and WebKit), matrixMain, and its loop: for each size and mode, every run of every competitor in every
// engine, interleaved round-robin so that drift of a shared machine hits all alike; then the checks (every run
// delivered every element; every competitor in every engine summed the same checksum) and the medians. The host
// supplies one run, in a fresh process or page.
import os from 'node:os';
import { CEILING_COMPETITORS, COMPETITORS, HTTP_COMPETITORS } from '../competitors/parse.mjs';
import { STRINGIFY_COMPETITORS } from '../competitors/stringify.mjs';
import { startBenchServer } from './bench_server.mjs';
import { log, readOptions } from './cli.mjs';
import { environment, packageVersion } from './environment.mjs';
import { roundRobin } from './fork.mjs';
import { FIELD, MATRIX_USAGE, PATH, matrixDatasets, methodLines, parseMatrixOptions } from './matrix.mjs';
import { available as procAvailable } from './proc_rss.mjs';
import { saveResults } from './save.mjs';
import { markdownTable, summarise } from './stats.mjs';

/** The entries of roundRobin for `targets` × `competitors(target)`: key `target/id`, label `target  label`. */
const entriesOf = (targets, competitors) =>
  targets.flatMap((target) =>
    competitors(target).map((c) => ({ key: `${target}/${c.id}`, label: `${target.padEnd(8)} ${c.label}`, target, c })),
  );

/** Per target, its competitors' medians; their rows (target: label) of the printed table go onto `rows`. */
function summariseTargets(plan, runs, competitors, bytes, rows) {
  return plan.targets.map((target) => ({
    target,
    competitors: competitors(target).map((c) => {
      const list = runs[`${target}/${c.id}`];
      const summary = summarise(bytes, list);
      const note = `failed: ${list.find((r) => r.error)?.error ?? ''}`;
      rows.push({ label: `${plan.labels[target] ?? target}: ${c.label}`, summary, note });
      return { id: c.id, label: c.label, summary, timedOut: list.filter((r) => r.timedOut).length, runs: list };
    }),
  }));
}

/** The line under a table: whether every run checked out and every checksum agreed. */
function checkLine(all, agreed, failed) {
  const checksums = new Set(all.filter((r) => !r.error && r.checksum != null).map((r) => r.checksum));
  // A run that timed out is a measurement (the table says it did not finish), not a broken pipeline.
  const failures = all.filter((r) => r.error && !r.timedOut).length;
  const line =
    checksums.size > 1
      ? `CHECK FAILED: the competitors disagree: ${[...checksums].join(', ')}`
      : `${agreed}${failures ? ` (${failed}: ${failures})` : ''}.`;
  return { line, problems: failures + (checksums.size > 1 ? 1 : 0) };
}

/**
 * For each size and mode, every run of every competitor in every engine, interleaved; the checks and the medians.
 * plan: { targets, labels (engine id -> 'Deno 2.9.6'), sizes, modes, runs, datasets (by size: { count, bytes }),
 * competitors(target, mode), runOnce(target, mode, competitor, size), log }.
 */
export async function runMatrix(plan) {
  const cells = [];
  let problems = 0;
  for (const size of plan.sizes) {
    const { count, bytes } = plan.datasets[size];
    for (const mode of plan.modes) {
      const loadBefore = os.loadavg();
      const competitors = (target) => plan.competitors(target, mode);
      const runs = await roundRobin({
        runs: plan.runs,
        entries: entriesOf(plan.targets, competitors),
        runOnce: ({ target, c }, earlier) => {
          // One run that did not finish in time is enough to know: the others would cost the same wait.
          const timedOut = earlier.find((r) => r.timedOut);
          return timedOut ? { ...timedOut } : plan.runOnce(target, mode, c, size);
        },
        check: ({ c }, r) => {
          const expected = c.expectsNoElements ? 0 : count;
          if (r.elements !== expected) return `delivered ${r.elements} elements, expected ${expected}`;
          if (c.expectsNoElements && r.bytes !== bytes) return `read ${r.bytes} bytes, expected ${bytes}`;
        },
        shown: (r) => `${(bytes / 1e6 / (r.ms / 1000)).toFixed(1)} MB/s`,
        log: plan.log,
        tag: `${size} ${mode}`,
      });
      const loadAfter = os.loadavg();
      const rows = [];
      for (const { target, competitors: list } of summariseTargets(plan, runs, competitors, bytes, rows))
        cells.push({ engine: target, size, mode, count, bytes, loadBefore, loadAfter, competitors: list });
      const check = checkLine(
        Object.values(runs).flat(),
        `Check: every run delivered ${count} elements`,
        'failed runs',
      );
      problems += check.problems;
      console.log(
        [
          '',
          `## ${size} (${(bytes / 1e6).toFixed(1)} MB, ${count.toLocaleString('en-US')} articles), ${mode === 'http' ? 'over HTTP' : 'in memory'}`,
          '',
          markdownTable(rows),
          '',
          `Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)}.`,
          check.line,
        ].join('\n'),
      );
    }
  }
  return { cells, problems };
}

/**
 * The stringify runs (bench/competitors/stringify.mjs) in every engine, interleaved the same way.
 * plan: { targets, labels, runs, count, competitors, runOnce(target, competitor), log }.
 */
export async function runStringify(plan) {
  const loadBefore = os.loadavg();
  const competitors = () => plan.competitors;
  const runs = await roundRobin({
    runs: plan.runs,
    entries: entriesOf(plan.targets, competitors),
    runOnce: ({ target, c }) => plan.runOnce(target, c),
    shown: (r) => `${(r.bytes / 1e6 / (r.ms / 1000)).toFixed(1)} MB/s`,
    log: plan.log,
    tag: `stringify ${plan.count}`,
  });
  const loadAfter = os.loadavg();
  const all = Object.values(runs).flat();
  const bytes = all.find((r) => !r.error)?.bytes ?? 0;
  const rows = [];
  const engines = summariseTargets(plan, runs, competitors, bytes, rows).map(({ target, competitors: list }) => ({
    id: target,
    label: plan.labels[target] ?? target,
    competitors: list.map(({ timedOut, ...c }) => c),
  }));
  const check = checkLine(all, `Check: every run wrote the same ${bytes} bytes (sampled checksum)`, 'failed runs');
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
      check.line,
    ].join('\n'),
  );
  return { stringify: { count: plan.count, bytes, loadBefore, loadAfter, engines }, problems: check.problems };
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
