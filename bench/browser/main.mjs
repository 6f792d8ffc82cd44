// The engine matrix in the browsers: Chromium, Firefox and WebKit (Debian's packages, driven by the engines of
// tests/browser/engines, never a downloaded browser) run the competitors of Node, Deno and Bun in a page on
// 127.0.0.1 (page/runner.js): the articles dataset at 1, 10 and 100 MB from memory and over a paced response, then
// the stringify competitors. Each run is a fresh page (a new context; WebKit: a new browser process), runs
// interleaved round-robin across engines and competitors; the content processes' RSS is sampled from /proc.
// With --ceiling, the value mode's ceiling set instead (10 MB in memory; results kind ceiling-browser).
// Usage: node bench/browser/main.mjs [--engines chromium,firefox,webkit] [--runs N] [--sizes ...] [--modes ...]
//        [--ceiling]
import { launchEngine, ENGINE_NAMES } from '../../tests/browser/engines/index.mjs';
import { environment, packageVersion } from '../harness/environment.mjs';
import { CEILING_COMPETITORS, COMPETITORS, HTTP_COMPETITORS } from '../competitors/parse.mjs';
import { STRINGIFY_COMPETITORS } from '../competitors/stringify.mjs';
import { startBenchServer } from '../harness/bench_server.mjs';
import {
  CHUNK_SIZE,
  FIELD,
  MATRIX_USAGE,
  PATH,
  matrixDatasets,
  methodLines,
  parseMatrixOptions,
} from '../harness/matrix.mjs';
import { available as procAvailable, cpuMsOf, GrowthPeak } from '../harness/proc_rss.mjs';
import { runMatrix, runStringify } from '../harness/run_matrix.mjs';
import { saveResults } from '../harness/save.mjs';
import { readOptions } from '../harness/cli.mjs';
import { contentProcesses } from './content_processes.mjs';

// A run that takes longer is reported as timed out (WebKit's @streamparser/json at 100 MB can take minutes).
const RUN_TIMEOUT_MS = 90_000;
const SETUP_TIMEOUT_MS = 2 * 60_000;
const ENGINE_OF = { chromium: 'V8', firefox: 'SpiderMonkey', webkit: 'JavaScriptCore' };

const USAGE = `usage: node bench/browser/main.mjs [options]
  --engines LIST    comma-separated: ${ENGINE_NAMES.join(', ')} (default: all)
${MATRIX_USAGE}`;

const options = readOptions(
  () =>
    parseMatrixOptions(process.argv.slice(2), {
      flag: '--engines',
      known: [...ENGINE_NAMES],
      defaults: [...ENGINE_NAMES],
      usage: USAGE,
    }),
  USAGE,
);
if (!procAvailable) {
  console.error("browser: the page processes' RSS is sampled from /proc, which this system does not have");
  process.exit(1);
}

class RunTimeout extends Error {}
const withTimeout = (promise, ms) => {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new RunTimeout(`timed out after ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
};

/**
 * One run in a fresh page: set up, baseline, run while sampling, close. A run that takes longer than
 * RUN_TIMEOUT_MS is a result (`timedOut`), and the engine, whose page may still be busy, is launched anew.
 */
async function runOnce(name, origin, spec) {
  const engine = launched[name];
  let page = null;
  try {
    page = await withTimeout(engine.open(`${origin}/bench/browser/page/index.html`, { fresh: true }), SETUP_TIMEOUT_MS);
    await withTimeout(page.waitFor("typeof window.benchSetup === 'function'"), SETUP_TIMEOUT_MS);
    await withTimeout(page.call('benchSetup', spec), SETUP_TIMEOUT_MS);
    const pids = contentProcesses(engine.name);
    const sampler = new GrowthPeak(pids);
    const cpuBefore = pids.map(cpuMsOf);
    const rssBaseline = sampler.start();
    let result;
    try {
      result = await withTimeout(page.call('benchRun'), RUN_TIMEOUT_MS);
    } finally {
      result = { ...result, rssBaseline, rssPeak: rssBaseline + sampler.stop() };
    }
    const cpuMs = pids.reduce((sum, pid, i) => sum + ((cpuMsOf(pid) ?? 0) - (cpuBefore[i] ?? 0)), 0);
    await withTimeout(page.close(), SETUP_TIMEOUT_MS).catch(() => {});
    return { ...result, cpuMs };
  } catch (error) {
    if (error instanceof RunTimeout) {
      log(`${name}: ${error.message}: launching it anew`);
      await engine.close().catch(() => {});
      launched[name] = await launchEngine(name, launchOptions(name));
      return { error: error.message, timedOut: true };
    }
    await page?.close().catch(() => {});
    return { error: String(error.message ?? error).split('\n')[0] };
  }
}

const launchOptions = (name) => (name === 'chromium' ? { chromiumArgs: ['--js-flags=--expose-gc'] } : {});

const log = (line) => process.stderr.write(`${line}\n`);
const env = environment();
const versions = {
  '@streamparser/json': packageVersion('@streamparser/json'),
  esbuild: packageVersion('../../node_modules/esbuild'),
};
const withVersion = (c) => (c.package ? { ...c, label: `${c.label} ${versions[c.package]}` } : c);

const datasets = await matrixDatasets(options.sizes, log);
const server = await startBenchServer(datasets, { paceMBps: options.paceMBps });
const launched = {};
const engines = {};
const labels = {};
const results = {
  date: new Date().toISOString(),
  environment: env,
  options,
  versions,
  engines,
  skipped: [],
  cells: [],
};
let problems = 0;
try {
  for (const name of options.targets) {
    try {
      const engine = await launchEngine(name, launchOptions(name));
      launched[name] = engine;
      const [title, version] = engine.label.split(' ');
      engines[name] = { name: title, version, engine: ENGINE_OF[name] };
      labels[name] = engine.label;
    } catch (error) {
      results.skipped.push({ name, reason: String(error.message ?? error).split('\n')[0] });
    }
  }
  const targets = options.targets.filter((name) => launched[name]);
  console.log(
    [
      `# bench: ${options.ceiling ? "value mode's ceiling" : 'the engine matrix'} in Chromium, Firefox and WebKit`,
      '',
      `Machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}; sluice ${env.sluice}`,
      `Browsers: ${targets.map((t) => labels[t]).join(', ')} (Debian's; tests/browser/engines); @streamparser/json ` +
        `${versions['@streamparser/json']} bundled with esbuild ${versions.esbuild}; sluice loads its .wasm by URL`,
      '',
      ...methodLines(options),
      ...results.skipped.map(({ name, reason }) => `\nSkipped ${name}: ${reason}`),
    ].join('\n'),
  );

  const matrix = await runMatrix({
    targets,
    labels,
    sizes: options.sizes,
    modes: options.modes,
    runs: options.runs,
    datasets,
    log,
    competitors: (_, mode) =>
      (options.ceiling ? CEILING_COMPETITORS : mode === 'http' ? HTTP_COMPETITORS : COMPETITORS).map(withVersion),
    runOnce: (name, mode, c, size) =>
      runOnce(
        name,
        server.origin,
        mode === 'http'
          ? { mode, competitor: c.id, url: `/paced/${size}.json`, path: PATH, field: FIELD }
          : { mode, competitor: c.id, dataset: `/data/${size}.json`, path: PATH, field: FIELD, chunkSize: CHUNK_SIZE },
      ),
  });
  results.cells = matrix.cells;
  problems += matrix.problems + results.skipped.length;
  if (options.stringifyCount > 0) {
    const written = await runStringify({
      targets,
      labels,
      runs: options.runs,
      count: options.stringifyCount,
      competitors: STRINGIFY_COMPETITORS,
      log,
      runOnce: (name, c) =>
        runOnce(name, server.origin, { bench: 'stringify', competitor: c.id, count: options.stringifyCount }),
    });
    results.stringify = written.stringify;
    problems += written.problems;
  }
} finally {
  await Promise.all(Object.values(launched).map((engine) => engine.close().catch(() => {})));
  await server.close();
}

saveResults(options.ceiling ? 'ceiling-browser' : 'browser', results);
if (problems) {
  console.error(`browser: ${problems} problem(s) above`);
  process.exitCode = 1;
}
