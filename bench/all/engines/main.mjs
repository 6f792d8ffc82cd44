// The parse and stringify benchmarks in other JavaScript runtimes: the competitors of competitors.mjs (sluice SIMD
// and scalar, JSON.parse, @streamparser/json) and stringify_competitors.mjs (sluice stringifyStream,
// JSON.stringify whole, JSON.stringify per row) in Deno and Bun (and Node with --runtimes, to check that this harness agrees
// with bench/parse, which measures Node), each run a fresh process, interleaved round-robin; RSS sampled from /proc
// by this process. Deno and Bun are the npm binaries of the root package; a runtime that does not start here is
// reported as skipped, not failed.
// Usage: node bench/all/engines/main.mjs [--runs N] [--dataset articles,numbers] [--runtimes deno,bun,node]
//        [--stringify-count N]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DATASETS, ensureDataset, fileSize } from '../../datasets.mjs';
import { environment, packageVersion } from '../../parse/environment.mjs';
import { markdownTable, summarise } from '../../parse/report.mjs';
import { COMPETITORS } from './competitors.mjs';
import { STRINGIFY_COMPETITORS, STRINGIFY_COUNT } from './stringify_competitors.mjs';
import { available as procAvailable, RssPeak } from './proc_rss.mjs';
import { readOptions } from '../../cli.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const RESULTS_DIR = fileURLToPath(new URL('../../results/', import.meta.url));
const CHUNK_SIZE = 64 * 1024;
const BIN = (name) => `${ROOT}node_modules/.bin/${name}`;

const RUNTIMES = {
  node: { command: process.execPath, args: ['--expose-gc', CHILD] },
  // The JS engine's own gc(); no network, no prompts, no update check: nothing here may leave the machine.
  deno: { command: BIN('deno'), args: ['run', '--allow-read', '--allow-env', '--v8-flags=--expose-gc', '--no-prompt', CHILD] },
  bun: { command: BIN('bun'), args: [CHILD] },
};
const CHILD_ENV = { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' };

const USAGE = `usage: node bench/all/engines/main.mjs [options]
  --runs N          runs per competitor and runtime; tables show medians (default 3)
  --dataset NAMES   comma-separated: ${Object.keys(DATASETS).join(', ')} (default: all)
  --runtimes NAMES  comma-separated: ${Object.keys(RUNTIMES).join(', ')} (default: deno,bun; skipped where they do not start)
  --stringify-count N  articles written by the stringify runs (default ${STRINGIFY_COUNT}; 0: no stringify runs)`;

function parseOptions(argv) {
  const options = { runs: 3, datasets: Object.keys(DATASETS), runtimes: ['deno', 'bun'], stringifyCount: STRINGIFY_COUNT };
  const list = (value, known, flag) => {
    const items = (value ?? '').split(',').filter(Boolean);
    const unknown = items.filter((item) => !known.includes(item));
    if (items.length === 0 || unknown.length) throw new RangeError(`${flag}: unknown "${unknown.join(',')}"\n${USAGE}`);
    return items;
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--runs') {
      options.runs = Number(value());
      if (!Number.isInteger(options.runs) || options.runs < 1) throw new RangeError(`--runs must be an integer >= 1\n${USAGE}`);
    } else if (flag === '--dataset') options.datasets = list(value(), Object.keys(DATASETS), flag);
    else if (flag === '--runtimes') options.runtimes = list(value(), Object.keys(RUNTIMES), flag);
    else if (flag === '--stringify-count') {
      options.stringifyCount = Number(value());
      if (!Number.isInteger(options.stringifyCount) || options.stringifyCount < 0) throw new RangeError(`--stringify-count must be an integer >= 0\n${USAGE}`);
    }
    else if (flag === '--help' || flag === '-h') options.help = true;
    else throw new RangeError(`unknown option ${argv[i]}\n${USAGE}`);
  }
  return options;
}

/** The runtime's version line, or why it does not run here. */
function probe(name) {
  const { command } = RUNTIMES[name];
  if (!existsSync(command)) return { error: `${command} is not installed (npm ci)` };
  const out = spawnSync(command, ['--version'], { encoding: 'utf8', env: CHILD_ENV, timeout: 30_000 });
  if (out.status !== 0) return { error: `${name} --version failed: ${(out.stderr || out.error?.message || '').trim()}` };
  return { version: out.stdout.split('\n')[0].trim() };
}

/** One run: spawn, wait for "ready", take the RSS baseline, "go", sample until the result arrives. */
function runChild(runtime, spec) {
  return new Promise((resolve) => {
    const { command, args } = RUNTIMES[runtime];
    const child = spawn(command, [...args, JSON.stringify(spec)], { cwd: ROOT, env: CHILD_ENV, stdio: ['pipe', 'pipe', 'pipe'] });
    const sampler = new RssPeak(() => [child.pid]);
    let stderr = '';
    let ready = null;
    let result = null;
    let rssBaseline = 0;
    child.stderr.on('data', (data) => { stderr += data; });
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        return; // a runtime's own notice on stdout; the protocol lines are JSON
      }
      if (message.ready) {
        ready = message.ready;
        rssBaseline = sampler.baseline();
        sampler.start();
        child.stdin.write('go\n');
      } else if (message.result) {
        const rssPeak = Math.max(sampler.stop(), message.result.rssAfter);
        result = { ...message.result, rssBaseline, rssPeak };
      }
    });
    child.on('error', (error) => resolve({ error: error.message }));
    child.on('exit', (code, signal) => {
      sampler.stop();
      if (result && code === 0) resolve({ ...result, runtime: ready });
      else resolve({ error: `exited with ${signal ?? `code ${code}`}: ${stderr.trim().split('\n').slice(-3).join(' / ')}` });
    });
  });
}

const options = readOptions(() => parseOptions(process.argv.slice(2)), USAGE);
if (!procAvailable) {
  console.error('engines: RSS is sampled from /proc, which this system does not have');
  process.exit(1);
}

const log = (line) => process.stderr.write(`${line}\n`);
const env = environment();
const runtimes = [];
const skipped = [];
for (const name of options.runtimes) {
  const found = probe(name);
  if (found.error) skipped.push({ name, reason: found.error });
  else runtimes.push(name);
}

console.log([
  '# bench: parse across runtimes',
  '',
  `Machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}`,
  `Peers: @streamparser/json ${packageVersion('@streamparser/json')}; sluice ${env.sluice}`,
  '',
  'Method: the input is read into memory as one Uint8Array and fed as 64 KiB subarrays; every element is consumed',
  `(counted, one field summed); MB = 10^6 bytes; medians of ${options.runs} runs; each run a fresh process, cold, interleaved`,
  'round-robin; peak RSS growth = the peak of the process RSS (sampled every 2 ms from /proc by the parent, and the',
  "child's own reading after the run) minus its RSS once the input is loaded, the competitor set up and a GC done.",
  ...skipped.map(({ name, reason }) => `\nSkipped ${name}: ${reason}`),
].join('\n'));

const results = { date: new Date().toISOString(), environment: env, options, versions: {
  streamparser: packageVersion('@streamparser/json') }, runtimes: {}, skipped, datasets: [] };
let problems = 0;

for (const name of options.datasets) {
  const dataset = DATASETS[name];
  const file = await ensureDataset(dataset.kind, dataset.count, { log });
  const bytes = fileSize(file);
  const loadBefore = os.loadavg();
  const runs = Object.fromEntries(runtimes.flatMap((r) => COMPETITORS.map((c) => [`${r}/${c.id}`, []])));
  for (let run = 1; run <= options.runs; run++) {
    for (const runtime of runtimes) {
      for (const c of COMPETITORS) {
        const spec = { competitor: c.id, file, path: dataset.path, field: dataset.field, chunkSize: CHUNK_SIZE };
        const result = await runChild(runtime, spec);
        if (!result.error && result.elements !== dataset.count) {
          result.error = `delivered ${result.elements} elements, expected ${dataset.count}`;
        }
        if (result.runtime) results.runtimes[runtime] = result.runtime;
        runs[`${runtime}/${c.id}`].push(result);
        const shown = result.error ? `FAILED: ${result.error}` : `${(bytes / 1e6 / (result.ms / 1000)).toFixed(1)} MB/s`;
        log(`[${name} ${run}/${options.runs}] ${runtime.padEnd(5)} ${c.label.padEnd(26)} ${shown}`);
      }
    }
  }
  const loadAfter = os.loadavg();
  const checksums = new Set(Object.values(runs).flat().filter((r) => !r.error).map((r) => r.checksum));
  const failures = Object.values(runs).flat().filter((r) => r.error).length;
  problems += failures + (checksums.size > 1 ? 1 : 0);

  const entry = { name, kind: dataset.kind, count: dataset.count, path: dataset.path, bytes, loadBefore, loadAfter,
    runtimes: [] };
  const tableRows = [];
  for (const runtime of runtimes) {
    const info = results.runtimes[runtime];
    const competitors = COMPETITORS.map((c) => {
      const summary = summarise(bytes, runs[`${runtime}/${c.id}`]);
      tableRows.push({ label: `${info ? `${info.name} ${info.version}` : runtime}: ${c.label}`, summary,
        note: `failed: ${runs[`${runtime}/${c.id}`].find((r) => r.error)?.error ?? ''}` });
      return { id: c.id, label: c.label, summary, runs: runs[`${runtime}/${c.id}`] };
    });
    entry.runtimes.push({ id: runtime, ...info, competitors });
  }
  results.datasets.push(entry);
  console.log([
    '',
    `## ${name} ${dataset.count}: ${(bytes / 1e6).toFixed(1)} MB, elements at ${dataset.path}`,
    '',
    markdownTable(tableRows),
    '',
    `Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)} on ${env.cores} cores.`,
    checksums.size > 1
      ? `CHECK FAILED: competitors disagree on the checksum: ${[...checksums].join(', ')}`
      : `Check: every run delivered ${dataset.count} elements${failures ? ` (except ${failures} failed runs)` : ''}; checksums agree.`,
  ].join('\n'));
}

if (options.stringifyCount > 0) {
  // The output size is known only once written: every run reports its bytes, and all must agree.
  const count = options.stringifyCount;
  const loadBefore = os.loadavg();
  const runs = Object.fromEntries(runtimes.flatMap((r) => STRINGIFY_COMPETITORS.map((c) => [`${r}/${c.id}`, []])));
  for (let run = 1; run <= options.runs; run++) {
    for (const runtime of runtimes) {
      for (const c of STRINGIFY_COMPETITORS) {
        const result = await runChild(runtime, { bench: 'stringify', competitor: c.id, count });
        if (result.runtime) results.runtimes[runtime] = result.runtime;
        runs[`${runtime}/${c.id}`].push(result);
        const shown = result.error ? `FAILED: ${result.error}` : `${(result.bytes / 1e6 / (result.ms / 1000)).toFixed(1)} MB/s`;
        log(`[stringify ${count} ${run}/${options.runs}] ${runtime.padEnd(5)} ${c.label.padEnd(46)} ${shown}`);
      }
    }
  }
  const loadAfter = os.loadavg();
  const ok = Object.values(runs).flat().filter((r) => !r.error);
  const checksums = new Set(ok.map((r) => r.checksum));
  const failures = Object.values(runs).flat().length - ok.length;
  problems += failures + (checksums.size > 1 ? 1 : 0);
  const bytes = ok[0]?.bytes ?? 0;
  const entry = { count, bytes, loadBefore, loadAfter, runtimes: [] };
  const tableRows = [];
  for (const runtime of runtimes) {
    const info = results.runtimes[runtime];
    const competitors = STRINGIFY_COMPETITORS.map((c) => {
      const summary = summarise(bytes, runs[`${runtime}/${c.id}`]);
      tableRows.push({ label: `${info ? `${info.name} ${info.version}` : runtime}: ${c.label}`, summary,
        note: `failed: ${runs[`${runtime}/${c.id}`].find((r) => r.error)?.error ?? ''}` });
      return { id: c.id, label: c.label, summary, runs: runs[`${runtime}/${c.id}`] };
    });
    entry.runtimes.push({ id: runtime, ...info, competitors });
  }
  results.stringify = entry;
  console.log([
    '',
    `## stringify: { _embedded: { articles }, total } with ${count.toLocaleString('en-US')} articles from an async generator: ` +
      `${(bytes / 1e6).toFixed(1)} MB`,
    '',
    '"time to first element" is the time to the first byte of output.',
    '',
    markdownTable(tableRows),
    '',
    `Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)} on ${env.cores} cores.`,
    checksums.size > 1
      ? `CHECK FAILED: competitors wrote different bytes: ${[...checksums].join(', ')}`
      : `Check: every run wrote the same ${bytes} bytes (sampled checksum)${failures ? ` (except ${failures} failed runs)` : ''}.`,
  ].join('\n'));
}

mkdirSync(RESULTS_DIR, { recursive: true });
const resultsFile = `${RESULTS_DIR}engines-${results.date.replace(/:/g, '-').replace(/\..*/, '')}.json`;
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nJSON results: ${resultsFile}`);
if (problems) {
  console.error(`engines: ${problems} problem(s) above`);
  process.exitCode = 1;
}
