// node bench/harness/render/main.mjs [RESULT.json ...]: docs/benchmarks.md, .svg and the README's block from results.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULTS_DIR, renderBlock } from '../save.mjs';
import { documentMarkdown, headlineChart, summaryMarkdown } from './markdown.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const README = join(ROOT, 'README.md');
const KINDS = ['parse', 'stringify', 'browser', 'engines', 'ceiling-browser', 'ceiling-engines', 'sizes'];
const kindOf = (file) => KINDS.find((kind) => new RegExp(`^${kind}-\\d{4}-`).test(basename(file)));

/** Renders `files` over the newest of each kind into `docs`; returns the paths written and read. */
export function render(files = [], { docs = DOCS, readme = true } = {}) {
  const names = existsSync(RESULTS_DIR) ? readdirSync(RESULTS_DIR).sort() : [];
  const loaded = {};
  for (const file of [...names.filter((name) => kindOf(name)).map((name) => join(RESULTS_DIR, name)), ...files]) {
    const kind = kindOf(file);
    if (!kind) throw new Error(`render: ${file} is not a KIND-DATE.json result (KIND: ${KINDS.join(', ')})`);
    loaded[kind] = { file, data: JSON.parse(readFileSync(file, 'utf8')) };
  }
  const results = Object.fromEntries(KINDS.filter((kind) => loaded[kind]).map((kind) => [kind, loaded[kind]]));
  if (Object.keys(results).length === 0)
    throw new Error(`render: no results in ${RESULTS_DIR}: run npm run bench first`);
  mkdirSync(docs, { recursive: true });
  const texts = { 'benchmarks.svg': headlineChart(results), 'benchmarks.md': documentMarkdown(results) };
  const written = Object.keys(texts).flatMap((name) => (texts[name] ? [join(docs, name)] : []));
  for (const file of written) writeFileSync(file, texts[basename(file)]);
  const block = summaryMarkdown(results, { assets: 'docs/', link: true });
  if (readme && existsSync(README) && renderBlock(README, 'benchmarks', block)) written.push(README);
  return { written, sources: Object.values(results).map((r) => r.file) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log('usage: node bench/harness/render/main.mjs [RESULT.json ...] (default: newest per kind in results/)');
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
