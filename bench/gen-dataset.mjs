#!/usr/bin/env node
// Provenance: the team's shared tools/gen-dataset.mjs, its random source and article shape now in
// bench/articles.mjs (shared with the in-memory rows), plus the bigints kind; output byte-identical to it.
// Deterministic generator of the benchmark datasets, so every benchmark measures the same bytes.
// Usage: node gen-dataset.mjs KIND COUNT [OUTFILE]   (stdout when OUTFILE is omitted)
// Same KIND, COUNT and --seed give byte-identical output on every machine.
import { createWriteStream } from 'node:fs';
import { article as articleOf, random, SPICE } from './articles.mjs';

const KINDS = {
  articles:
    'the Symfony example: {"_embedded":{"articles":[ARTICLE...]},"total":COUNT}; elements at $._embedded.articles[*]',
  array: 'a top-level array of COUNT articles; elements at $[*]',
  ndjson: 'COUNT articles, one per line (NDJSON)',
  numbers:
    'a top-level array of COUNT numbers: integers, decimals, exponents, negatives (numeric-heavy, like canada.json)',
  deep: 'a top-level array of COUNT objects, each nested 20 levels deep',
  escapes: 'a top-level array of COUNT strings, 200-600 bytes each, dense with escapes and non-ASCII (string-heavy)',
  bigints: 'a top-level array of COUNT integers of 17 to 20 digits, a third negative (past 2^53, like 64-bit ids)',
};

function usage(code) {
  const lines = ['usage: gen-dataset.mjs KIND COUNT [OUTFILE] [--seed N]', '', 'KIND:'];
  for (const [k, v] of Object.entries(KINDS)) lines.push(`  ${k.padEnd(9)} ${v}`);
  lines.push(
    '',
    'An article is {"id","title","description","createdAt","tags","score","published"};',
    'descriptions are 100-300 characters with some non-ASCII (é, 中文, emoji) and escapes (\\n, \\", \\u00e9).',
    'Sizes: articles/array/ndjson about 410 bytes per element (COUNT=250000 is ~100 MB); numbers about 11 bytes;',
    'deep about 700 bytes; escapes about 500 bytes.',
  );
  (code ? process.stderr : process.stdout).write(lines.join('\n') + '\n');
  process.exit(code);
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) usage(0);
let seed = 42;
const seedAt = args.indexOf('--seed');
if (seedAt >= 0) {
  seed = Number(args[seedAt + 1]);
  args.splice(seedAt, 2);
}
const [kind, countText, outFile] = args;
const count = Number(countText);
if (!KINDS[kind] || !Number.isInteger(count) || count < 0 || !Number.isInteger(seed)) usage(2);

const r = random(seed);
const { rand, pick, int, sentence } = r;
const article = (i) => articleOf(r, i);

function number() {
  const r = rand();
  if (r < 0.3) return String(int(-1e6, 1e6));
  if (r < 0.8) return String(Math.round((rand() - 0.5) * 1e9) / 1e6);
  if (r < 0.9) return `${(rand() * 9 + 1).toFixed(int(1, 15))}e${int(-300, 300)}`;
  return String(-(rand() * 180))
    .slice(0, int(4, 20))
    .replace(/\.$/, '.5');
}

function deep(i) {
  let v = { leaf: i, name: sentence(5, 20) };
  for (let d = 0; d < 19; d++) v = { level: 19 - d, child: v, list: [d, d + 1] };
  return v;
}

function bigint() {
  let digits = String(1 + Math.floor(rand() * 9));
  for (let n = 16 + Math.floor(rand() * 4); n > 0; n--) digits += Math.floor(rand() * 10);
  return rand() < 1 / 3 ? `-${digits}` : digits;
}

function escapes() {
  let s = '';
  const target = int(200, 600);
  while (s.length < target) s += rand() < 0.5 ? pick(SPICE) : `\\u${int(0, 0xffff).toString(16).padStart(4, '0')}`;
  return s;
}

const out = outFile ? createWriteStream(outFile) : process.stdout;
let buffer = '';
async function write(text) {
  buffer += text;
  if (buffer.length >= 1 << 20) await flush();
}
out.on('error', (error) => {
  process.stderr.write(`gen-dataset: ${error.message}\n`);
  process.exit(1);
});
function flush() {
  const text = buffer;
  buffer = '';
  return new Promise((resolve) => {
    if (out.write(text)) resolve();
    else out.once('drain', resolve);
  });
}

const element = {
  articles: (i) => JSON.stringify(article(i)),
  array: (i) => JSON.stringify(article(i)),
  ndjson: (i) => JSON.stringify(article(i)),
  numbers: () => number(),
  deep: (i) => JSON.stringify(deep(i)),
  escapes: () => JSON.stringify(escapes()),
  bigints: () => bigint(),
}[kind];

const [open, separator, close] = {
  articles: ['{"_embedded":{"articles":[', ',', `]},"total":${count}}`],
  ndjson: ['', '\n', count ? '\n' : ''],
}[kind] ?? ['[', ',', ']'];

await write(open);
for (let i = 0; i < count; i++) await write((i ? separator : '') + element(i));
await write(close);
await flush();
if (outFile) out.end();
