// npm run bench:partial: the partial-JSON libraries reading a model's output token by token (issue 20), CPU time
// per token at four sizes and the wrong snapshots each shows, then the measurements behind sluice's design. Every
// library and size runs in a fresh child process (child.mjs), the design measurements in one more (design.mjs).
// Writes bench/results/partial-*.json and, for a full run, the tables of docs/partial.md.
import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { readOptions } from '../cli.mjs';
import { environment } from '../parse/environment.mjs';
import { PEERS } from './peers.mjs';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));
const DOC = fileURLToPath(new URL('../../docs/partial.md', import.meta.url));
const SIZES = { '2k': 2e3, '20k': 20e3, '200k': 200e3, '1m': 1e6 };
const CHECK_SIZE = 20e3;

const USAGE = `usage: npm run bench:partial -- [options]
  --sizes LIST     comma-separated of ${Object.keys(SIZES).join(', ')} (default: all)
  --only IDS       comma-separated of ${PEERS.map((p) => p.id).join(', ')} (default: all)
  --runs N         timed runs per library and size, median (default: 3)
  --full-max SIZE  libraries that re-parse the whole text on every token are timed on every token up to this
                   size (${Object.keys(SIZES).join(', ')}), on --sample tokens above it (default: 2k)
  --sample N       tokens timed per size above --full-max (default: 40)
  --no-design      skip the design measurements
  --quick          --sizes 2k,20k --runs 1 --sample 10 and a short design run; never writes docs/partial.md`;

function parseOptions(argv) {
  const options = { sizes: Object.keys(SIZES), only: PEERS.map((p) => p.id), runs: 3, fullMax: SIZES['2k'], sample: 40,
    design: true, quick: false };
  const list = (value, known, flag) => {
    const items = (value ?? '').split(',').filter(Boolean);
    const unknown = items.filter((item) => !known.includes(item));
    if (unknown.length || items.length === 0) throw new RangeError(`${flag}: unknown "${unknown}"\n${USAGE}`);
    return items;
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--sizes') options.sizes = list(value(), Object.keys(SIZES), flag);
    else if (flag === '--only') options.only = list(value(), PEERS.map((p) => p.id), flag);
    else if (flag === '--runs' || flag === '--sample') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new RangeError(`${flag} must be an integer >= 1\n${USAGE}`);
      options[flag.slice(2)] = n;
    } else if (flag === '--full-max') options.fullMax = SIZES[list(value(), Object.keys(SIZES), flag)[0]];
    else if (flag === '--no-design') options.design = false;
    else if (flag === '--quick') Object.assign(options, { quick: true, sizes: ['2k', '20k'], runs: 1, sample: 10 });
    else if (flag === '--help' || flag === '-h') options.help = true;
    else throw new RangeError(`unknown option ${argv[i]}\n${USAGE}`);
  }
  return options;
}

function runChild(script, spec) {
  return new Promise((resolve) => {
    let result = null;
    const child = fork(fileURLToPath(new URL(script, import.meta.url)), [JSON.stringify(spec)],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (message) => { result = message; });
    child.on('error', (error) => resolve({ error: error.message }));
    child.on('exit', (code, signal) => resolve(result ?? { error: `child exited with ${signal ?? `code ${code}`}` }));
  });
}

const log = (line) => process.stderr.write(`${line}\n`);
const count = (n) => n.toLocaleString('en-US');
const kb = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} kB`);
const ms = (value) => (value >= 100_000 ? `${count(Math.round(value / 1000))} s` : value >= 1000
  ? `${(value / 1000).toFixed(2)} s` : value >= 10 ? `${value.toFixed(0)} ms` : `${value.toFixed(2)} ms`);
const us = (value) => (value >= 100 ? `${value.toFixed(0)} µs` : value >= 10 ? `${value.toFixed(1)} µs`
  : `${value.toFixed(2)} µs`);

function peersTable(results, sizes) {
  const peers = [...new Set(results.map((r) => r.peer))];
  const cell = (peer, size) => results.find((r) => r.peer === peer && r.size === SIZES[size]);
  const header = sizes.map((size) => {
    const any = results.find((r) => r.size === SIZES[size] && !r.error);
    return any ? `${kb(any.bytes)}, ${count(any.tokens)} tokens` : size;
  });
  const checkedBytes = results.find((r) => r.wrong !== undefined)?.bytes ?? CHECK_SIZE;
  const lines = [`| library | ${header.join(' | ')} | wrong snapshots (${kb(checkedBytes)} corpus) |`,
    `|---|${sizes.map(() => '---:').join('|')}|---:|`];
  for (const peer of peers) {
    const first = results.find((r) => r.peer === peer && !r.error);
    const name = peer === 'sluice' ? `**${first?.label ?? peer}**` : first?.label ?? peer;
    const cells = sizes.map((size) => {
      const r = cell(peer, size);
      if (!r) return '–';
      if (r.error) return 'failed';
      return `${r.sampled ? '~' : ''}${ms(r.totalMs)} · ${us(r.usPerToken)}`;
    });
    const checked = results.find((r) => r.peer === peer && r.wrong !== undefined);
    const wrong = checked ? `${count(checked.wrong)} of ${count(checked.tokens)}` : '–';
    lines.push(`| ${name} | ${cells.join(' | ')} | ${peer === 'sluice' ? `**${wrong}**` : wrong} |`);
  }
  return lines.join('\n');
}

function designTable(d) {
  const t = d.tiny.usPerToken;
  const pct = (a, b) => `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(0)} %`;
  const rows = [
    ['tiny deltas: the whole JS parser, text tokens', `${us(t.jsText)} per token`],
    ['tiny deltas: the whole JS parser, the same tokens as UTF-8 bytes', `${us(t.jsBytes)} per token`],
    ['tiny deltas: one WebAssembly feed() per token, nothing built (text / bytes)',
      `${us(t.wasmFloorText)} / ${us(t.wasmFloorBytes)} per token`],
    ...Object.entries(d.freeze).map(([size, v]) => [`freezing snapshots, ${kb(Number(size))} corpus`,
      `${us(v.frozen)} against ${us(v.notFrozen)} per token unfrozen (${pct(v.frozen, v.notFrozen)})`]),
    ...Object.entries(d.views).map(([size, v]) => [`long open arrays as views from 32 / from 128 (the default) / ` +
      `never, ${kb(Number(size))} corpus`, `${us(v.from32)} / ${us(v.from128)} / ${us(v.never)} per token`]),
    ['reading an element of a 1,000-element array', `view ${d.read.nsPerElement.view.toFixed(1)} ns, frozen array ` +
      `${d.read.nsPerElement.frozen.toFixed(1)} ns`],
    [`big pushes: ${kb(d.big.bytes)} in ${d.big.chunks} chunks of 64 KiB`, `partialJson ${ms(d.big.ms.partialJson)}, ` +
      `parseJsonArray(…, { path: '$' }) ${ms(d.big.ms.parseJsonArray)}: ` +
      `**${(d.big.ms.partialJson / d.big.ms.parseJsonArray).toFixed(2)}x**`],
  ];
  return ['| measurement | CPU time |', '|---|---|', ...rows.map(([a, b]) => `| ${a} | ${b} |`)].join('\n');
}

/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` in docs/partial.md. */
function render(name, body) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const doc = readFileSync(DOC, 'utf8');
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) {
    log(`bench:partial: docs/partial.md has no ${start} … ${end}: not rendered`);
    return;
  }
  writeFileSync(DOC, `${doc.slice(0, a + start.length)}\n${body}\n${doc.slice(b)}`);
}

const options = readOptions(() => parseOptions(process.argv.slice(2)), USAGE);
const env = environment();
const loadBefore = os.loadavg();
const date = new Date().toISOString();
const results = [];
let problems = 0;
for (const size of options.sizes) {
  for (const id of options.only) {
    const spec = { peer: id, size: SIZES[size], runs: options.runs, check: SIZES[size] === CHECK_SIZE,
      fullMax: options.fullMax, sample: options.sample };
    const result = await runChild('./child.mjs', spec);
    if (result.error) problems++;
    results.push({ ...spec, ...result });
    log(`[${size}] ${(result.label ?? id).padEnd(48)} ${result.error ? `FAILED: ${result.error}`
      : `${result.sampled ? '~' : ''}${ms(result.totalMs)}, ${us(result.usPerToken)} per token` +
        (result.wrong !== undefined ? `, ${result.wrong} wrong of ${result.tokens}` : '')}`);
  }
}
let design = null;
if (options.design) {
  log('design measurements (one process, interleaved)...');
  design = await runChild('./design.mjs', { rounds: options.quick ? 1 : 5, bigBytes: options.quick ? 1e6 : 10e6 });
  if (design.error) {
    problems++;
    log(`design: FAILED: ${design.error}`);
    design = null;
  }
}
const loadAfter = os.loadavg();

const machine = `${env.cpu}, ${env.cores} cores, Node ${env.node} (V8 ${env.v8}); sluice ${env.sluice}; ${date.slice(0, 10)}; ` +
  `load average ${loadBefore[0].toFixed(1)} before, ${loadAfter[0].toFixed(1)} after`;
const table = peersTable(results, options.sizes);
const command = `npm run bench:partial${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const peersSection = [table, '',
  `CPU time to read the corpus token by token, reading the value after every token: total · per token (median of ` +
  `${options.runs} runs in a fresh process per library and size, after warm-up runs). ~: estimated from ` +
  `${options.sample} tokens spread over the document, each parsed alone (these libraries re-parse the whole text on ` +
  `every token). Wrong snapshots: tokens after which the value shown differs from what the text says ` +
  '(tests/support/partial_oracle.mjs). ' + `${machine}. \`${command}\`.`].join('\n');
console.log(`\n## Libraries\n\n${peersSection}`);
if (design) console.log(`\n## Design measurements\n\n${designTable(design)}\n\n${machine}.`);

mkdirSync(RESULTS_DIR, { recursive: true });
const file = `${RESULTS_DIR}partial-${date.replace(/:/g, '-').replace(/\..*/, '')}.json`;
writeFileSync(file, `${JSON.stringify({ date, environment: env, options, loadBefore, loadAfter, results, design }, null, 2)}\n`);
console.log(`\nJSON results: ${file}`);
const full = !options.quick && options.sizes.length === Object.keys(SIZES).length && options.only.length === PEERS.length;
if (full && problems === 0) {
  render('bench:partial', peersSection);
  if (design) render('bench:partial-design', `${designTable(design)}\n\n${machine}. \`${command}\`.`);
  console.log('docs/partial.md: tables rendered');
}
if (problems) {
  console.error(`bench:partial: ${problems} failed run(s) above`);
  process.exitCode = 1;
}
