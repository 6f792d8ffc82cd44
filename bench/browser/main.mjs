// The parse and stringify benchmarks in Chromium: Debian's chromium driven by playwright-core (as tests/browser
// does; never a downloaded browser), the competitors of bench/all/engines in a page on 127.0.0.1. Each run gets a fresh browser
// context (a renderer process of its own), runs are interleaved round-robin, and the renderer's RSS is sampled from
// /proc by this process, as for the Node, Deno and Bun children.
// Usage: node bench/browser/main.mjs [--runs N] [--dataset articles,numbers] [--stringify-count N]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { DATASETS, ensureDataset, fileSize } from '../datasets.mjs';
import { environment, packageVersion } from '../parse/environment.mjs';
import { markdownTable, summarise } from '../parse/report.mjs';
import { COMPETITORS } from '../all/engines/competitors.mjs';
import { STRINGIFY_COMPETITORS, STRINGIFY_COUNT } from '../all/engines/stringify_competitors.mjs';
import { commandLine, cpuMsOf, descendants, available as procAvailable, RssPeak, rssOf } from '../all/engines/proc_rss.mjs';
import { startBenchServer } from './server.mjs';
import { readOptions } from '../cli.mjs';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));
const CHROMIUM = process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium';
const CHUNK_SIZE = 64 * 1024;
// tests/browser/chromium.ts's flags (no GPU, sandbox or QUIC in containers; no traffic off the machine), and gc()
// in pages so that every run starts from a collected heap.
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--js-flags=--expose-gc',
];

const USAGE = `usage: node bench/browser/main.mjs [options]
  --runs N         runs per competitor; tables show medians (default 3)
  --dataset NAMES  comma-separated: ${Object.keys(DATASETS).join(', ')} (default: all)
  --stringify-count N  articles written by the stringify runs (default ${STRINGIFY_COUNT}; 0: no stringify runs)`;

function parseOptions(argv) {
  const options = { runs: 3, datasets: Object.keys(DATASETS), stringifyCount: STRINGIFY_COUNT };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--runs') {
      options.runs = Number(value());
      if (!Number.isInteger(options.runs) || options.runs < 1) throw new RangeError(`--runs must be an integer >= 1\n${USAGE}`);
    } else if (flag === '--dataset') {
      options.datasets = (value() ?? '').split(',').filter(Boolean);
      const unknown = options.datasets.filter((name) => !DATASETS[name]);
      if (options.datasets.length === 0 || unknown.length) throw new RangeError(`--dataset: unknown "${unknown.join(',')}"\n${USAGE}`);
    } else if (flag === '--stringify-count') {
      options.stringifyCount = Number(value());
      if (!Number.isInteger(options.stringifyCount) || options.stringifyCount < 0) throw new RangeError(`--stringify-count must be an integer >= 0\n${USAGE}`);
    } else if (flag === '--help' || flag === '-h') options.help = true;
    else throw new RangeError(`unknown option ${argv[i]}\n${USAGE}`);
  }
  return options;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Chromium's renderers for web pages (not its own UI's), under this process. */
function pageRenderers() {
  return descendants(process.pid).filter((pid) => {
    // Chromium rewrites its command line into one space-separated string.
    const args = commandLine(pid).join(' ');
    return args.includes('--type=renderer') && !args.includes('--top-chrome-webui') && !args.includes('--extension-process');
  });
}

/**
 * The renderer of the page just set up: of the renderers started since `before`, the one holding the most memory
 * (the page holds the whole dataset by now; a spare renderer started meanwhile holds a few tens of MiB).
 */
function pageRenderer(before) {
  const fresh = pageRenderers().filter((pid) => !before.includes(pid));
  if (fresh.length === 0) throw new Error('found no renderer process started for the page');
  return fresh.reduce((best, pid) => (rssOf(pid) > rssOf(best) ? pid : best));
}

async function waitForExit(pid, timeoutMs = 10_000) {
  const deadline = performance.now() + timeoutMs;
  while (rssOf(pid) > 0 && performance.now() < deadline) await sleep(20);
}

async function runOnce(browser, origin, spec) {
  const before = pageRenderers();
  const context = await browser.newContext();
  const errors = [];
  let renderer = null;
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => typeof window.benchSetup === 'function');
    await page.evaluate((s) => window.benchSetup(s), spec);
    renderer = pageRenderer(before);
    const sampler = new RssPeak(() => [renderer]);
    const rssBaseline = sampler.baseline();
    const cpuBefore = cpuMsOf(renderer);
    sampler.start();
    const result = await page.evaluate(() => window.benchRun());
    const rssPeak = sampler.stop();
    const cpuAfter = cpuMsOf(renderer);
    return { ...result, rssBaseline, rssPeak, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
  } catch (error) {
    return { error: `${error.message.split('\n')[0]}${errors.length ? ` (page: ${errors.join('; ')})` : ''}` };
  } finally {
    await context.close();
    // The next run's renderer must be the only busy one, and a dying renderer must not shrink its baseline.
    if (renderer) await waitForExit(renderer);
  }
}

const options = readOptions(() => parseOptions(process.argv.slice(2)), USAGE);
if (!existsSync(CHROMIUM)) {
  console.error(`browser: ${CHROMIUM} is not installed (scripts/setup.sh installs Debian's chromium)`);
  process.exit(1);
}
if (!procAvailable) {
  console.error('browser: the renderer RSS is sampled from /proc, which this system does not have');
  process.exit(1);
}

const log = (line) => process.stderr.write(`${line}\n`);
const env = environment();
const files = {};
for (const name of options.datasets) files[name] = await ensureDataset(DATASETS[name].kind, DATASETS[name].count, { log });
const server = await startBenchServer(files);
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
const chromiumVersion = browser.version();
const versions = { streamparser: packageVersion('@streamparser/json'), esbuild: packageVersion('../../node_modules/esbuild') };
const labelOf = (c) => (c.package ? `${c.label} ${versions.streamparser}` : c.label);

console.log([
  '# bench: parse in Chromium',
  '',
  `Machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}`,
  `Browser: Chromium ${chromiumVersion} (Debian, headless, driven by playwright-core); sluice ${env.sluice}`,
  `Peers: @streamparser/json ${versions.streamparser} (bundled with esbuild ${versions.esbuild})`,
  '',
  'Method: the page fetches the dataset into one Uint8Array before anything is timed and feeds it as 64 KiB',
  'subarrays; every element is consumed (counted, one field summed); MB = 10^6 bytes; medians of ' +
    `${options.runs} runs; each run in a fresh browser context (its own renderer process), runs interleaved round-robin;`,
  'sluice loads its .wasm by URL; peak RSS growth = the peak of the renderer process RSS (sampled every 2 ms from',
  '/proc) minus its RSS after the dataset was loaded, the competitor set up and gc() ran.',
].join('\n'));

const results = { date: new Date().toISOString(), environment: env, browser: { name: 'Chromium', version: chromiumVersion },
  versions, options, datasets: [] };
let problems = 0;
try {
  for (const name of options.datasets) {
    const dataset = DATASETS[name];
    const bytes = fileSize(files[name]);
    const loadBefore = os.loadavg();
    const runs = Object.fromEntries(COMPETITORS.map((c) => [c.id, []]));
    for (let run = 1; run <= options.runs; run++) {
      for (const c of COMPETITORS) {
        const result = await runOnce(browser, server.origin, { competitor: c.id, dataset: `/data/${name}.json`,
          path: dataset.path, field: dataset.field, chunkSize: CHUNK_SIZE });
        if (!result.error && result.elements !== dataset.count) {
          result.error = `delivered ${result.elements} elements, expected ${dataset.count}`;
        }
        runs[c.id].push(result);
        const shown = result.error ? `FAILED: ${result.error}` : `${(bytes / 1e6 / (result.ms / 1000)).toFixed(1)} MB/s`;
        log(`[chromium ${name} ${run}/${options.runs}] ${labelOf(c).padEnd(28)} ${shown}`);
      }
    }
    const loadAfter = os.loadavg();
    const checksums = new Set(Object.values(runs).flat().filter((r) => !r.error).map((r) => r.checksum));
    const failures = Object.values(runs).flat().filter((r) => r.error).length;
    problems += failures + (checksums.size > 1 ? 1 : 0);
    const competitors = COMPETITORS.map((c) => ({ id: c.id, label: labelOf(c), summary: summarise(bytes, runs[c.id]),
      runs: runs[c.id] }));
    results.datasets.push({ name, kind: dataset.kind, count: dataset.count, path: dataset.path, bytes, loadBefore,
      loadAfter, competitors });
    console.log([
      '',
      `## ${name} ${dataset.count}: ${(bytes / 1e6).toFixed(1)} MB, elements at ${dataset.path}`,
      '',
      markdownTable(competitors.map((c) => ({ label: c.label, summary: c.summary,
        note: `failed: ${c.runs.find((r) => r.error)?.error ?? ''}` }))),
      '',
      `Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)} on ${env.cores} cores.`,
      checksums.size > 1
        ? `CHECK FAILED: competitors disagree on the checksum: ${[...checksums].join(', ')}`
        : `Check: every run delivered ${dataset.count} elements${failures ? ` (except ${failures} failed runs)` : ''}; checksums agree.`,
    ].join('\n'));
  }
  if (options.stringifyCount > 0) {
    const count = options.stringifyCount;
    const loadBefore = os.loadavg();
    const runs = Object.fromEntries(STRINGIFY_COMPETITORS.map((c) => [c.id, []]));
    for (let run = 1; run <= options.runs; run++) {
      for (const c of STRINGIFY_COMPETITORS) {
        const result = await runOnce(browser, server.origin, { bench: 'stringify', competitor: c.id, count });
        runs[c.id].push(result);
        const shown = result.error ? `FAILED: ${result.error}` : `${(result.bytes / 1e6 / (result.ms / 1000)).toFixed(1)} MB/s`;
        log(`[chromium stringify ${count} ${run}/${options.runs}] ${c.label.padEnd(46)} ${shown}`);
      }
    }
    const loadAfter = os.loadavg();
    const ok = Object.values(runs).flat().filter((r) => !r.error);
    const checksums = new Set(ok.map((r) => r.checksum));
    const failures = Object.values(runs).flat().length - ok.length;
    problems += failures + (checksums.size > 1 ? 1 : 0);
    const bytes = ok[0]?.bytes ?? 0;
    const competitors = STRINGIFY_COMPETITORS.map((c) => ({ id: c.id, label: c.label, summary: summarise(bytes, runs[c.id]),
      runs: runs[c.id] }));
    results.stringify = { count, bytes, loadBefore, loadAfter, competitors };
    console.log([
      '',
      `## stringify: { _embedded: { articles }, total } with ${count.toLocaleString('en-US')} articles from an async ` +
        `generator: ${(bytes / 1e6).toFixed(1)} MB`,
      '',
      '"time to first element" is the time to the first byte of output.',
      '',
      markdownTable(competitors.map((c) => ({ label: c.label, summary: c.summary,
        note: `failed: ${c.runs.find((r) => r.error)?.error ?? ''}` }))),
      '',
      `Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${loadAfter[0].toFixed(2)} on ${env.cores} cores.`,
      checksums.size > 1
        ? `CHECK FAILED: competitors wrote different bytes: ${[...checksums].join(', ')}`
        : `Check: every run wrote the same ${bytes} bytes (sampled checksum)${failures ? ` (except ${failures} failed runs)` : ''}.`,
    ].join('\n'));
  }
} finally {
  await browser.close();
  await server.close();
}

mkdirSync(RESULTS_DIR, { recursive: true });
const resultsFile = `${RESULTS_DIR}browser-${results.date.replace(/:/g, '-').replace(/\..*/, '')}.json`;
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nJSON results: ${resultsFile}`);
if (problems) {
  console.error(`browser: ${problems} problem(s) above`);
  process.exitCode = 1;
}
