// Renders the benchmark results into docs/benchmarks.md (every table, with machine, engines, versions, dates and
// load named) and its chart docs/benchmarks.svg, and refreshes the README's benchmark block (one chart, one
// table, a link; no dates or run logs) when the README marks it with <!-- benchmarks:start --> and
// <!-- benchmarks:end -->.
// Usage: node bench/harness/render/main.mjs [RESULT.json ...]   (default: the newest result of each kind in bench/results/)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentMarkdown } from './markdown.mjs';
import { KINDS, loadResults, newestResults } from './results.mjs';
import { headline, headlineChart, machineShort, summaryMarkdown } from './summary.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RESULTS_DIR = join(ROOT, 'bench', 'results');
const DOCS = join(ROOT, 'docs');
const README = join(ROOT, 'README.md');
const START = '<!-- benchmarks:start -->';
const END = '<!-- benchmarks:end -->';

/**
 * Renders `files` (newest of each kind where a kind is missing); returns the paths written. `docs`: where to write
 * benchmarks.md and benchmarks.svg; `readme`: whether to refresh the README's marked section (a quick smoke run
 * writes elsewhere and leaves the README alone, so its one-run numbers are never published by accident).
 */
export function render(files = [], { docs = DOCS, readme = true } = {}) {
  const newest = newestResults(RESULTS_DIR);
  const given = loadResults(files);
  const results = { ...loadResults(KINDS.filter((k) => newest[k] && !given[k]).map((k) => newest[k])), ...given };
  if (Object.keys(results).length === 0)
    throw new Error(`render: no results in ${RESULTS_DIR}: run npm run bench first`);

  mkdirSync(docs, { recursive: true });
  const written = [];
  const matrix = headline(results);
  if (matrix) {
    const options = (results.engines ?? results.browser).data.options;
    const svg = headlineChart(matrix, [
      `Medians of ${options.runs} run${options.runs === 1 ? '' : 's'}, each in a fresh process or page; ` +
        (matrix.mode === 'http'
          ? `fetch() of a response paced at ${options.paceMBps} MB/s on 127.0.0.1`
          : 'fed from memory in 64 KiB chunks') +
        '; every element consumed; memory: peak RSS growth of the process (a browser: its web content processes).',
      `${machineShort(results)}.`,
      'npm run bench · docs/benchmarks.md',
    ]);
    writeFileSync(join(docs, 'benchmarks.svg'), svg);
    written.push(join(docs, 'benchmarks.svg'));
  }
  writeFileSync(join(docs, 'benchmarks.md'), documentMarkdown(results, { command: 'npm run bench' }));
  written.push(join(docs, 'benchmarks.md'));

  if (readme && existsSync(README)) {
    const readme = readFileSync(README, 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    if (start >= 0 && end > start) {
      const section = `${START}\n${summaryMarkdown(results, { assets: 'docs/', link: true })}\n${END}`;
      writeFileSync(README, readme.slice(0, start) + section + readme.slice(end + END.length));
      written.push(README);
    }
  }
  return { written, sources: Object.values(results).map((r) => r.file) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(
      'usage: node bench/harness/render/main.mjs [RESULT.json ...]   (default: the newest of each kind in bench/results/)',
    );
    process.exit(0);
  }
  try {
    const { written, sources } = render(args);
    console.log(`render: from ${sources.map((f) => relative(ROOT, f)).join(', ')}`);
    console.log(`render: wrote ${written.map((f) => relative(ROOT, f)).join(', ')}`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
