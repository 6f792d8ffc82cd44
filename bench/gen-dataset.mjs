#!/usr/bin/env node
// Provenance: copied unchanged (but for these two lines) from the team's shared tools/gen-dataset.mjs, so that
// benchmarks and the demo regenerate byte-identical data on a fresh clone.
// Deterministic generator of the benchmark datasets, so every benchmark measures the same bytes.
// Usage: node gen-dataset.mjs KIND COUNT [OUTFILE]   (stdout when OUTFILE is omitted)
// Same KIND, COUNT and --seed give byte-identical output on every machine.
import { createWriteStream } from 'node:fs';

const KINDS = {
  articles:
    'the Symfony example: {"_embedded":{"articles":[ARTICLE...]},"total":COUNT}; elements at $._embedded.articles[*]',
  array: 'a top-level array of COUNT articles; elements at $[*]',
  ndjson: 'COUNT articles, one per line (NDJSON)',
  numbers:
    'a top-level array of COUNT numbers: integers, decimals, exponents, negatives (numeric-heavy, like canada.json)',
  deep: 'a top-level array of COUNT objects, each nested 20 levels deep',
  escapes: 'a top-level array of COUNT strings, 200-600 bytes each, dense with escapes and non-ASCII (string-heavy)',
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

// xorshift32: tiny, fast, and identical everywhere.
let state = seed >>> 0 || 1;
function rand() {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 4294967296;
}
const pick = (list) => list[Math.floor(rand() * list.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

const WORDS = [
  'stream',
  'json',
  'edge',
  'worker',
  'array',
  'value',
  'chunk',
  'memory',
  'fast',
  'simd',
  'parser',
  'encoder',
  'response',
  'fetch',
  'browser',
  'article',
  'title',
  'description',
  'more',
  'text',
  'data',
  'list',
];
const SPICE = [
  'café',
  'naïve',
  'élan',
  '中文',
  '日本語',
  'Ωmega',
  '😀',
  '🚀',
  'über',
  'São Paulo',
  'quote "q"',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  'ctrl\u0001',
  'é',
];

function sentence(minLen, maxLen) {
  const target = int(minLen, maxLen);
  let s = '';
  while (s.length < target) s += (s ? ' ' : '') + (rand() < 0.12 ? pick(SPICE) : pick(WORDS));
  return s;
}

function article(i) {
  const day = 1 + (i % 28);
  return {
    id: i + 1,
    title: `Article ${i + 1}: ${sentence(10, 40)}`,
    description: `Description ${i + 1}\n${sentence(100, 300)}`,
    createdAt: `2026-0${1 + (i % 9)}-${String(day).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00:00Z`,
    tags: [pick(WORDS), pick(WORDS), pick(WORDS)],
    score: Math.round(rand() * 1e6) / 100,
    published: rand() < 0.8,
  };
}

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
