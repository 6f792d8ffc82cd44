// npm start: streams a generated 100 MB JSON file through sluice and, side by side, parses it whole with
// JSON.parse. Each is measured in a process of its own, so one's memory never shows up in the other's RSS.
// Usage: node examples/node/demo.mjs [--count N]   (N articles, default 250000: about 100 MB)
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { datasetFile, ensureDataset, fileSize } from '../../bench/datasets.mjs';

const USAGE = 'usage: node examples/node/demo.mjs [--count N]   (N articles, default 250000: about 100 MB)';
const PATH = '$._embedded.articles[*]';
const MiB = 2 ** 20;

function parseArgs(argv) {
  let count = 250_000;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--help' || argv[i] === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (argv[i] === '--count' && /^\d+$/.test(argv[i + 1] ?? '') && Number(argv[i + 1]) > 0) {
      count = Number(argv[++i]);
    } else {
      console.error(`demo: unexpected argument ${argv[i]}\n${USAGE}`);
      process.exit(2);
    }
  }
  return { count };
}

// MARK: progress

const FRAMES = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
const interactive = process.stderr.isTTY;

/** Shows `label` with a spinner and the latest `status()` text while `task` runs (a plain line when not a TTY). */
async function withProgress(label, status, task) {
  const started = performance.now();
  let frame = 0;
  const draw = () => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(`\r\x1b[2K  ${FRAMES[frame++ % FRAMES.length]} ${label}  ${status()}  ${seconds} s`);
  };
  if (interactive) draw();
  else process.stderr.write(`  ${label}...\n`);
  const timer = interactive ? setInterval(draw, 80) : null;
  try {
    return await task();
  } finally {
    clearInterval(timer);
    if (interactive) process.stderr.write('\r\x1b[2K');
  }
}

// MARK: measurement

function measure(script, file, onMessage) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL(script, import.meta.url)), [file], { stdio: 'inherit' });
    let result = null;
    child.on('message', (message) => {
      if (message.result) result = message.result;
      else onMessage(message);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (result) resolve(result);
      else reject(new Error(`${script} exited with ${signal ?? `code ${code}`} before reporting (its error is above)`));
    });
  }).catch((error) => {
    console.error(`demo: ${error.message}`);
    process.exit(1);
  });
}

// MARK: output

const mb = (bytes) => (bytes / 1e6).toFixed(1);
const seconds = (ms) => (ms < 1000 ? `${ms.toFixed(ms < 10 ? 2 : 1)} ms` : `${(ms / 1000).toFixed(2)} s`);
const grouped = (n) => Math.round(n).toLocaleString('en-US');
const mib = (bytes) => `${Math.round(bytes / MiB)} MiB`;

function table(bytes, columns) {
  const rows = [
    ['', ...columns.map((c) => c.name)],
    ['elements/s', ...columns.map(({ r }) => grouped(r.count / (r.ms / 1000)))],
    ['MB/s', ...columns.map(({ r }) => (bytes / 1e6 / (r.ms / 1000)).toFixed(1))],
    ['time to first element', ...columns.map(({ r }) => seconds(r.firstElementMs))],
    ['total time', ...columns.map(({ r }) => seconds(r.ms))],
    ['peak RSS', ...columns.map(({ r }) => mib(r.peakRss))],
    ['  growth during the parse', ...columns.map(({ r }) => `+${mib(r.peakRss - r.startRss)}`)],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i] + 3))).join('')).join('\n');
}

// MARK: main

const { count } = parseArgs(process.argv.slice(2));
let file = datasetFile('articles', count);
if (!existsSync(file)) {
  file = await withProgress(`generating the test file (${count} articles, once)`, () => '',
    () => ensureDataset('articles', count));
}
const bytes = fileSize(file);
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';

console.log(`sluice demo: ${mb(bytes)} MB of JSON, ${grouped(count)} articles at ${PATH}`);
console.log(`file: ${relative(process.cwd(), file)} · ${cpu}, ${os.cpus().length} cores · Node ${process.versions.node}`);
console.log('each measured in a process of its own\n');

let bytesRead = 0;
const streamed = await withProgress('sluice: streaming from disk in 64 KiB chunks',
  () => `${Math.round((100 * bytesRead) / bytes)}% (${mb(bytesRead)} of ${mb(bytes)} MB read)`,
  () => measure('./stream_with_sluice.mjs', file, (m) => { bytesRead = m.bytesRead ?? bytesRead; }));
console.log(`  ✓ sluice      ${grouped(streamed.count)} articles in ${seconds(streamed.ms)}`);

let phase = 'starting';
const whole = await withProgress('JSON.parse: the whole file at once', () => phase,
  () => measure('./parse_whole_file.mjs', file, (m) => { phase = m.phase ?? phase; }));
console.log(`  ✓ JSON.parse  ${grouped(whole.count)} articles in ${seconds(whole.ms)}\n`);

for (const [name, r] of [['sluice', streamed], ['JSON.parse', whole]]) {
  if (r.count !== count || r.idSum !== (count * (count + 1)) / 2) {
    console.error(`demo: ${name} delivered ${r.count} articles (id sum ${r.idSum}), expected ${count}`);
    process.exitCode = 1;
  }
}

console.log(table(bytes, [
  { name: 'sluice (streaming)', r: streamed },
  { name: 'JSON.parse (whole file)', r: whole },
]));

const times = (a, b) => `${(a / b).toFixed(a / b < 10 ? 1 : 0)}×`;
console.log(`\nsluice delivered the first article ${times(whole.firstElementMs, streamed.firstElementMs)} sooner, ` +
  `finished ${streamed.ms < whole.ms ? `${times(whole.ms, streamed.ms)} faster` : `${times(streamed.ms, whole.ms)} slower`}, ` +
  `and its memory grew ${times(whole.peakRss - whole.startRss, Math.max(streamed.peakRss - streamed.startRss, MiB))} less.`);
