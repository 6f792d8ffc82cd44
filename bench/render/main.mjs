// Renders the benchmark results into docs/benchmarks.md (every table, with machine, runtimes and versions named)
// and the charts docs/benchmarks.svg (parse) and docs/benchmarks-stringify.svg, and refreshes the README's benchmark section when the README marks it with
// <!-- benchmarks:start --> and <!-- benchmarks:end -->.
// Usage: node bench/render/main.mjs [RESULT.json ...]   (default: the newest result of each kind in bench/results/)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderChart } from './chart.mjs';
import { documentMarkdown, machineLine, summaryMarkdown } from './markdown.mjs';
import { parseMatrix, stringifyMatrix } from './model.mjs';
import { KINDS, loadResults, newestResults } from './results.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
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
  if (Object.keys(results).length === 0) throw new Error(`render: no results in ${RESULTS_DIR}: run npm run bench first`);

  mkdirSync(docs, { recursive: true });
  const written = [];
  const matrix = parseMatrix(results, 'articles');
  if (matrix.libraries.length) {
    const d = matrix.dataset;
    const runs = results.parse?.data.options.runs ?? results.browser?.data.options.runs;
    const svg = renderChart(matrix, {
      title: `Parsing ${(d.bytes / 1e6).toFixed(0)} MB of JSON (${d.count.toLocaleString('en-US')} articles), 64 KiB chunks`,
      caption: [
        `Median of ${runs} runs, each a fresh process (Chromium: a fresh renderer); every element consumed; memory: peak RSS growth over the input.`,
        machineLine(results).replace(/ \(a shared machine[^)]*\)/, ' (a shared machine)'),
        'npm run bench · docs/benchmarks.md',
      ],
    });
    writeFileSync(join(docs, 'benchmarks.svg'), svg);
    written.push(join(docs, 'benchmarks.svg'));
  }
  const writers = stringifyMatrix(results);
  if (writers.libraries.length) {
    const first = writers.runtimes[0];
    const stringifyRuns = results.engines?.data.options.runs ?? results.stringify?.data.options.runs;
    const svg = renderChart({ runtimes: writers.runtimes, libraries: writers.libraries.map((lib) => ({ ...lib, label: lib.short })) }, {
      title: `Writing ${(first.bytes / 1e6).toFixed(0)} MB of JSON (${first.count.toLocaleString('en-US')} articles from an async generator) as a stream`,
      caption: [
        `Median of ${stringifyRuns} runs, each a fresh process (Chromium: a fresh renderer); output consumed as UTF-8 chunks; memory: peak RSS growth.`,
        machineLine(results).replace(/ \(a shared machine[^)]*\)/, ' (a shared machine)'),
        'npm run bench · docs/benchmarks.md',
      ],
    });
    writeFileSync(join(docs, 'benchmarks-stringify.svg'), svg);
    written.push(join(docs, 'benchmarks-stringify.svg'));
  }
  writeFileSync(join(docs, 'benchmarks.md'), documentMarkdown(results, { command: 'npm run bench' }));
  written.push(join(docs, 'benchmarks.md'));

  if (readme && existsSync(README)) {
    const readme = readFileSync(README, 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    if (start >= 0 && end > start) {
      const section = `${START}\n${summaryMarkdown(results, { assets: 'docs/' })}\n${END}`;
      writeFileSync(README, readme.slice(0, start) + section + readme.slice(end + END.length));
      written.push(README);
    }
  }
  return { written, sources: Object.values(results).map((r) => r.file) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log('usage: node bench/render/main.mjs [RESULT.json ...]   (default: the newest of each kind in bench/results/)');
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
