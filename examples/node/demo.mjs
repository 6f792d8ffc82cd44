// npm start: serves a generated 100 MB JSON document on 127.0.0.1 at a steady pace, like a slow API, and fetches it
// twice from Node: `await res.json()`, then sluice's `parseJsonArray(res.body)`, each in a process of its own.
// Prints the side-by-side table in Markdown, then serves the browser version (examples/browser-fetch) until Ctrl-C.
import { fork, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { datasetFile, ensureDataset, fileSize } from '../../bench/datasets.mjs';
import { CHUNK_BYTES, startPacedServer, wallNow } from './paced_server.mjs';
import { bar, withProgress } from './progress.mjs';
import { resultTable, seconds, summary } from './report.mjs';

const USAGE = `usage: node examples/node/demo.mjs [options]   (npm start -- [options])
  --count N     articles in the document (default 250000: about 100 MB)
  --rate MB/s   pace of the server, 64 KiB at a time (default 32: about 3 s for 100 MB)
  --port N      port of the browser example served at the end (default 8080, another free one if taken)
  --no-serve    exit after the table instead of serving the browser example
  --json        also print the results as one JSON line at the end`;
const PATH = '$._embedded.articles[*]';
const BROWSER_SERVER = fileURLToPath(new URL('../browser-fetch/server.mjs', import.meta.url));
// bench/gen-dataset.mjs writes about 418.5 bytes per article: enough to draw the generation's progress bar.
const BYTES_PER_ARTICLE = 418.5;

function parseArgs(argv) {
  const options = { count: 250_000, rate: 32, port: 8080, serve: true, json: false };
  const number = (flag, value, min) => {
    const n = Number(value);
    if (value === undefined || !Number.isFinite(n) || n < min) fail(`${flag} needs a number >= ${min}`);
    return n;
  };
  const fail = (message) => {
    console.error(`demo: ${message}\n${USAGE}`);
    process.exit(2);
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (flag === '--count') options.count = Math.floor(number(flag, argv[++i], 1));
    else if (flag === '--rate') options.rate = number(flag, argv[++i], 0.01);
    else if (flag === '--port') options.port = Math.floor(number(flag, argv[++i], 0));
    else if (flag === '--no-serve') options.serve = false;
    else if (flag === '--json') options.json = true;
    else fail(`unexpected argument ${flag}`);
  }
  return options;
}

// MARK: measurement

/** Runs one measured program against the server; `onProgress` gets its `{ count, rss }` reports. */
function measure(script, origin, onProgress) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL(script, import.meta.url)), [origin], { stdio: 'inherit' });
    let result = null;
    child.on('message', (message) => {
      if (message.result) result = message.result;
      else onProgress(message);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (result) resolve(result);
      else reject(new Error(`${script} exited with ${signal ?? `code ${code}`} before reporting (its error is above)`));
    });
  });
}

async function run(label, script, server) {
  let latest = { count: 0, rss: 0 };
  const runStartedAt = wallNow();
  const current = () => (server.transfer?.startedAt >= runStartedAt ? server.transfer : null);
  const status = () => {
    const t = current();
    const fraction = t ? t.sent / t.total : 0;
    const articles = latest.count ? `${latest.count.toLocaleString('en-US')} articles` : 'no article yet';
    const rss = latest.rss ? ` · RSS ${Math.round(latest.rss / 2 ** 20)} MiB` : '';
    return `${bar(fraction)} ${String(Math.round(100 * fraction)).padStart(3)}% sent · ${articles}${rss}`;
  };
  const result = await withProgress(label.padEnd(26), status, () =>
    measure(script, server.origin, (message) => {
      latest = message;
    }),
  );
  const transfer = current();
  const lastByteMs = transfer?.lastByteAt ? transfer.lastByteAt - result.startedAt : null;
  console.error(
    `  ✓ ${label.padEnd(26)} ${result.count.toLocaleString('en-US')} articles, the first after ` +
      `${seconds(result.firstElementMs)}, all after ${seconds(result.ms)}`,
  );
  return { ...result, lastByteMs };
}

// MARK: the browser example

/** `preferred` when nothing listens there, else 0 (any free port). */
function freePort(preferred) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(0));
    probe.listen(preferred, '127.0.0.1', () => probe.close(() => resolve(preferred)));
  });
}

async function serveBrowserExample({ count, rate, port }) {
  const args = [
    BROWSER_SERVER,
    '--port',
    String(await freePort(port)),
    '--count',
    String(count),
    '--rate',
    String(rate),
  ];
  console.log('\nThe same in a browser: open the address below, then press both buttons (Ctrl-C stops).');
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  // Ctrl-C in a terminal reaches the child too (same process group); a signal sent to this process alone is passed
  // on. Either way this process waits for the child, so the shell prompt comes back after its last line.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on('exit', (exitCode, signal) => resolve(signal ? 0 : exitCode)));
  process.exitCode = code;
}

// MARK: main

const options = parseArgs(process.argv.slice(2));
let file = datasetFile('articles', options.count);
if (!existsSync(file)) {
  const expected = options.count * BYTES_PER_ARTICLE;
  const written = () => {
    try {
      return statSync(`${file}.${process.pid}.partial`).size;
    } catch {
      return 0;
    }
  };
  file = await withProgress(
    `generating the document (${options.count.toLocaleString('en-US')} articles, once)`,
    () => `${bar(Math.min(0.99, written() / expected))} ${(written() / 1e6).toFixed(0)} MB`,
    () => ensureDataset('articles', options.count),
  );
}
const bytes = fileSize(file);
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const cores = os.availableParallelism?.() ?? os.cpus().length;
const loadBefore = os.loadavg()[0];
const pace = `${options.rate} MB/s, ${CHUNK_BYTES / 1024} KiB every ${((CHUNK_BYTES / (options.rate * 1e6)) * 1000).toFixed(1)} ms`;

console.log(
  `sluice demo: ${(bytes / 1e6).toFixed(1)} MB of JSON (${options.count.toLocaleString('en-US')} articles at ` +
    `${PATH}), served on 127.0.0.1 at ${pace}, fetched from Node twice, each time in a fresh process.\n`,
);

const server = await startPacedServer({ file, rate: options.rate });
let whole;
let streamed;
try {
  whole = await run('await res.json()', './fetch_res_json.mjs', server);
  streamed = await run('parseJsonArray(res.body)', './fetch_sluice.mjs', server);
} catch (error) {
  console.error(`demo: ${error.message}`);
  process.exit(1);
} finally {
  await server.close();
}
const loadAfter = os.loadavg()[0];

const expectedIdSum = (options.count * (options.count + 1)) / 2;
for (const [name, r] of [
  ['await res.json()', whole],
  ['parseJsonArray', streamed],
]) {
  if (r.count !== options.count || r.idSum !== expectedIdSum) {
    console.error(`demo: ${name} delivered ${r.count} articles (id sum ${r.idSum}), expected ${options.count}`);
    process.exitCode = 1;
  }
}

const busy = Math.max(loadBefore, loadAfter) > cores * 0.75;
console.log(
  [
    '',
    `${(bytes / 1e6).toFixed(1)} MB, ${options.count.toLocaleString('en-US')} articles, paced at ${pace}:`,
    '',
    resultTable([
      { name: '`await res.json()`', r: whole },
      { name: '`parseJsonArray(res.body)`', r: streamed },
    ]),
    '',
    `Node ${process.versions.node}, ${cpu}, ${cores} cores; load average ${loadBefore.toFixed(1)} before, ` +
      `${loadAfter.toFixed(1)} after${busy ? ' (a busy machine: times vary from run to run)' : ''}.`,
    '',
    summary(whole, streamed),
  ].join('\n'),
);

if (options.json) {
  console.log(
    JSON.stringify({ bytes, count: options.count, rate: options.rate, whole, streamed, loadBefore, loadAfter }),
  );
}
if (options.serve && !process.exitCode) await serveBrowserExample(options);
