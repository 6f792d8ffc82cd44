// npm run bench: the suites behind docs/benchmarks.md in turn (a failure stops none of the others), then the renderer.
import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { integer, list, readFlags, set } from '../harness/cli.mjs';
import { render } from '../harness/render/main.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const QUICK_MATRIX = ['--sizes', '1MB', '--stringify-count', '2000'];

// Quick ones first, so a problem with the build shows early: [folder, its arguments, with --quick].
const SUITES = {
  sizes: ['sizes', [], []],
  parse: ['parse', [], ['--dataset', 'articles', '--only', 'sluice-value-simd,json-parse']],
  engines: ['engines', [], QUICK_MATRIX],
  browser: ['browser', [], QUICK_MATRIX],
  'ceiling-engines': ['engines', ['--ceiling'], ['--ceiling', '--sizes', '1MB']],
  'ceiling-browser': ['browser', ['--ceiling'], ['--ceiling', '--sizes', '1MB']],
  // 100,000 articles (42 MB) per source: the million-article tables take several minutes more.
  stringify: ['stringify', ['--counts', '100000'], ['--counts', '10000', '--sources', 'async', '--no-http']],
};

const USAGE = `usage: npm run bench -- [options]
  --runs N       runs per competitor in every suite; tables show medians (default 3)
  --quick        a smoke run of the pipeline (a few minutes): --runs 1 unless given, the engine matrix at 1 MB only,
                 bench:parse on articles with two competitors, small stringify runs; renders into
                 bench/results/quick/, never docs/ or the README
  --only LIST    comma-separated suites to run: ${Object.keys(SUITES).join(', ')} (default: all);
                 ceiling: both ceiling-engines and ceiling-browser
Suites not run now are rendered from their newest result in bench/results/.`;

const ceilings = (name) => (name === 'ceiling' ? ['ceiling-engines', 'ceiling-browser'] : name);
const options = readFlags(
  USAGE,
  { runs: null, quick: false, only: Object.keys(SUITES) },
  {
    '--runs': integer('runs', 1),
    '--quick': set({ quick: true }),
    '--only': list('only', [...Object.keys(SUITES), 'ceiling'], ceilings),
  },
);
options.runs ??= options.quick ? 1 : 3;

const minutes = (ms) => (ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 60_000).toFixed(1)} min`);
const failed = [];
for (const name of Object.keys(SUITES).filter((n) => options.only.flat().includes(n))) {
  const [folder, full, quick] = SUITES[name];
  const started = performance.now();
  console.log(`\n<!-- npm run bench: ${name}, ${options.runs} runs -->\n`);
  const runs = folder === 'sizes' ? [] : ['--runs', String(options.runs)];
  const args = [`bench/${folder}/main.mjs`, ...runs, ...(options.quick ? quick : full)];
  const { status } = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (status !== 0) failed.push(name);
  const how = status === 0 ? 'done' : `FAILED (exit ${status})`;
  console.error(`bench: ${name} ${how} in ${minutes(performance.now() - started)}`);
}

const paths = (files) => files.map((f) => relative(ROOT, f)).join(', ');
try {
  const docs = options.quick ? fileURLToPath(new URL('../results/quick/', import.meta.url)) : undefined;
  const { written, sources } = render([], { docs, readme: !options.quick });
  console.log(`Rendered ${paths(written)} from ${paths(sources)}`);
} catch (error) {
  console.error(`bench: render failed: ${error.message}`);
  process.exitCode = 1;
}
if (failed.length) {
  console.error(`bench: failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
