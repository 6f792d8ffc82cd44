// npm run bench: every benchmark (bundle sizes; the Node deep dive of bench:parse; the engine matrix: parse at 1, 10
// and 100 MB, in memory and over a paced HTTP response, in Node, Deno and Bun and in Chromium, Firefox and WebKit,
// with the stringify runs of every engine; value mode against its ceiling, bytes mode and the first element in every
// engine at 10 MB; stringify in Node with its peers), then the rendered tables and chart.
// Each benchmark is its own program (it can be run alone; see its --help) that writes bench/results/KIND-DATE.json
// and prints `JSON results: FILE`; this one runs them one after the other, collects those files and renders
// docs/benchmarks.md and docs/benchmarks.svg (and the README's block between its markers). A benchmark that fails
// does not stop the others. The whole run prints its duration and each benchmark's.
// Usage: npm run bench -- [--runs N] [--quick] [--only LIST] [--skip LIST] [--no-render]
import { spawn } from 'node:child_process';
import os from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { render } from '../harness/render/main.mjs';
import { integer, list, readFlags, set } from '../harness/cli.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const script = (path) => fileURLToPath(new URL(path, import.meta.url));
// --quick: the smallest size, one run, a small stringify document: every program and the renderer, in minutes.
const QUICK_MATRIX = ['--sizes', '1MB', '--stringify-count', '2000'];

// In order: quick ones first, so a problem with the build shows early.
const SUITES = {
  sizes: { what: 'bundle sizes', script: script('../sizes/main.mjs'), args: () => [] },
  parse: {
    what: 'parse in Node, every mode and peer (bench:parse)',
    script: script('../parse/main.mjs'),
    args: (o) => [
      '--runs',
      String(o.runs),
      ...(o.quick ? ['--dataset', 'articles', '--only', 'sluice-value-simd,json-parse'] : []),
    ],
  },
  engines: {
    what: 'the engine matrix in Node, Deno and Bun',
    script: script('../engines/main.mjs'),
    args: (o) => ['--runs', String(o.runs), ...(o.quick ? QUICK_MATRIX : [])],
  },
  browser: {
    what: 'the engine matrix in Chromium, Firefox and WebKit',
    script: script('../browser/main.mjs'),
    args: (o) => ['--runs', String(o.runs), ...(o.quick ? QUICK_MATRIX : [])],
  },
  'ceiling-engines': {
    what: 'value mode against its ceiling, bytes mode and the first element in Node, Deno and Bun (10 MB)',
    script: script('../engines/main.mjs'),
    args: (o) => ['--ceiling', '--runs', String(o.runs), ...(o.quick ? ['--sizes', '1MB'] : [])],
  },
  'ceiling-browser': {
    what: 'value mode against its ceiling, bytes mode and the first element in Chromium, Firefox and WebKit (10 MB)',
    script: script('../browser/main.mjs'),
    args: (o) => ['--ceiling', '--runs', String(o.runs), ...(o.quick ? ['--sizes', '1MB'] : [])],
  },
  stringify: {
    what: 'stringify in Node (bench:stringify)',
    script: script('../stringify/main.mjs'),
    // 100,000 articles (42 MB) per source: the million-article tables take several minutes more.
    args: (o) => [
      '--runs',
      String(o.runs),
      '--counts',
      o.quick ? '10000' : '100000',
      ...(o.quick ? ['--sources', 'async', '--no-http'] : []),
    ],
  },
};

// Names that stand for several benchmarks in --only and --skip.
const GROUPS = { ceiling: ['ceiling-engines', 'ceiling-browser'] };

const USAGE = `usage: npm run bench -- [options]
  --runs N       runs per competitor in every benchmark; tables show medians (default 3)
  --quick        a smoke run of the pipeline (a few minutes): --runs 1 unless given, the engine matrix at 1 MB only,
                 bench:parse on articles with two competitors, small stringify runs; renders into
                 bench/results/quick/, never docs/ or the README
  --only LIST    comma-separated benchmarks to run: ${Object.keys(SUITES).join(', ')} (default: all);
                 ceiling: both ceiling-engines and ceiling-browser
  --skip LIST    comma-separated benchmarks not to run
  --no-render    do not render docs/benchmarks.md and its charts
Benchmarks not run now are rendered from their newest result in bench/results/.`;

function parseOptions() {
  // --only and --skip take suite names or group names (GROUPS).
  const suites = (key) => (options, text, flag, fail) => {
    list(key)(options, text, flag, fail);
    options[key] = options[key].flatMap((name) => GROUPS[name] ?? [name]);
    const unknown = options[key].filter((name) => !SUITES[name]);
    if (unknown.length) fail(`${flag}: unknown "${unknown.join(',')}"`);
  };
  const options = readFlags(
    USAGE,
    { runs: null, quick: false, only: Object.keys(SUITES), skip: [], render: true },
    {
      '--runs': integer('runs', 1),
      '--quick': set({ quick: true }),
      '--only': suites('only'),
      '--skip': suites('skip'),
      '--no-render': set({ render: false }),
    },
  );
  options.suites = Object.keys(SUITES).filter((name) => options.only.includes(name) && !options.skip.includes(name));
  options.runs ??= options.quick ? 1 : 3;
  return options;
}

/** Runs one benchmark, echoing its output; resolves to its exit code and the results file it named. */
function runSuite(suite, options) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [suite.script, ...suite.args(options)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let file = null;
    let pending = '';
    child.stdout.on('data', (data) => {
      process.stdout.write(data);
      pending += data;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) file = /^JSON results: (.+)$/.exec(line)?.[1] ?? file;
    });
    child.on('error', (error) => resolve({ code: 1, error: error.message, file }));
    child.on('close', (code, signal) => {
      file = /^JSON results: (.+)$/.exec(pending)?.[1] ?? file;
      resolve({ code: signal ? 128 : code, file });
    });
  });
}

const options = parseOptions();

const started = performance.now();
const minutes = (ms) => (ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 60_000).toFixed(1)} min`);
const outcomes = [];
for (const name of options.suites) {
  const suite = SUITES[name];
  const load = os.loadavg()[0].toFixed(2);
  console.log(`\n<!-- npm run bench: ${name}: ${suite.what}, ${options.runs} runs; load average ${load} -->\n`);
  const suiteStarted = performance.now();
  const outcome = await runSuite(suite, options);
  outcomes.push({ name, ...outcome, ms: performance.now() - suiteStarted });
  console.error(
    `bench: ${name} ${outcome.code === 0 ? 'done' : `FAILED (exit ${outcome.code})`} in ` +
      `${minutes(performance.now() - suiteStarted)}${outcome.file ? `: ${relative(ROOT, outcome.file)}` : ''}`,
  );
}

console.log('\n## npm run bench: summary\n');
console.log('| benchmark | result | time | results file |\n|---|---|---:|---|');
for (const o of outcomes) {
  console.log(
    `| ${o.name} | ${o.code === 0 ? 'ok' : `FAILED (exit ${o.code})`} | ${minutes(o.ms)} | ${o.file ? relative(ROOT, o.file) : '–'} |`,
  );
}
console.log(
  `\nTotal: ${minutes(performance.now() - started)}; load average now ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')} on ${os.availableParallelism?.() ?? os.cpus().length} cores.`,
);

if (options.render) {
  try {
    const files = outcomes.filter((o) => o.file).map((o) => o.file);
    const { written, sources } = options.quick
      ? render(files, { docs: fileURLToPath(new URL('../results/quick/', import.meta.url)), readme: false })
      : render(files);
    const older = sources.filter((f) => !outcomes.some((o) => o.file === f));
    console.log(
      `Rendered ${written.map((f) => relative(ROOT, f)).join(', ')}` +
        (older.length
          ? ` (with older results for what did not run now: ${older.map((f) => relative(ROOT, f)).join(', ')})`
          : '.'),
    );
  } catch (error) {
    console.error(`bench: render failed: ${error.message}`);
    process.exitCode = 1;
  }
}
if (outcomes.some((o) => o.code !== 0)) {
  console.error(
    `bench: failed: ${outcomes
      .filter((o) => o.code !== 0)
      .map((o) => o.name)
      .join(', ')}`,
  );
  process.exitCode = 1;
}
