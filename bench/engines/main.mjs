// The engine matrix in the server-side runtimes: Node, Deno and Bun parse the articles dataset at 1, 10 and 100 MB
// from memory (bench/competitors/parse.mjs: sluice SIMD and scalar, JSON.parse of the whole text, @streamparser/json)
// and over a paced HTTP response from 127.0.0.1 (the same, plus res.json() and the transfer alone), Node also with
// its own peers (bench/competitors/node.mjs); then stringify_competitors.mjs. Each run is a fresh process
// (child.mjs), runs interleaved round-robin across runtimes and competitors; RSS sampled from /proc by this process.
// Deno and Bun are the npm binaries of the root package; a runtime that does not start here is reported as skipped.
// Usage: node bench/engines/main.mjs [--runtimes node,deno,bun] [--runs N] [--sizes ...] [--modes ...] [--pace N]
// With --ceiling, the value mode's ceiling set instead (10 MB in memory; results kind ceiling-engines).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { NODE_PEERS } from '../competitors/node.mjs';
import { CHUNK_SIZE } from '../harness/matrix.mjs';
import { GrowthPeak } from '../harness/proc_rss.mjs';
import { matrixMain } from '../harness/run_matrix.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const BIN = (name) => `${ROOT}node_modules/.bin/${name}`;
// A run that takes longer is killed and reported as timed out (a measurement, not a failure).
const RUN_TIMEOUT_MS = 90_000;

const RUNTIMES = {
  node: { command: process.execPath, args: ['--expose-gc', CHILD] },
  // The JS engine's own gc(); the network only to 127.0.0.1 (the paced responses); no prompts, no update check.
  deno: {
    command: BIN('deno'),
    args: [
      'run',
      '--allow-read',
      '--allow-env',
      '--allow-net=127.0.0.1',
      '--v8-flags=--expose-gc',
      '--no-prompt',
      CHILD,
    ],
  },
  bun: { command: BIN('bun'), args: [CHILD] },
};
const CHILD_ENV = { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' };

/** The runtime's version line, or why it does not run here. */
function probe(name) {
  const { command } = RUNTIMES[name];
  if (!existsSync(command)) return { error: `${command} is not installed (npm ci)` };
  const out = spawnSync(command, ['--version'], { encoding: 'utf8', env: CHILD_ENV, timeout: 30_000 });
  if (out.status !== 0)
    return { error: `${name} --version failed: ${(out.stderr || out.error?.message || '').trim()}` };
  return { version: out.stdout.split('\n')[0].trim() };
}

/** One run: spawn, wait for "ready", take the RSS baseline, "go", sample until the result arrives. */
function runChild(runtime, spec) {
  return new Promise((resolve) => {
    const { command, args } = RUNTIMES[runtime];
    const child = spawn(command, [...args, JSON.stringify(spec)], {
      cwd: ROOT,
      env: CHILD_ENV,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const sampler = new GrowthPeak([child.pid]);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, RUN_TIMEOUT_MS);
    let stderr = '';
    let ready = null;
    let result = null;
    let rssBaseline = 0;
    child.stderr.on('data', (data) => {
      stderr += data;
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        return; // a runtime's own notice on stdout; the protocol lines are JSON
      }
      if (message.ready) {
        ready = message.ready;
        rssBaseline = sampler.start();
        child.stdin.write('go\n');
      } else if (message.result) {
        const rssPeak = Math.max(rssBaseline + sampler.stop(), message.result.rssAfter);
        result = { ...message.result, rssBaseline, rssPeak };
      }
    });
    child.on('error', (error) => resolve({ error: error.message }));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      sampler.stop();
      if (result && code === 0) resolve({ ...result, runtime: ready });
      else if (timedOut)
        resolve({ error: `timed out after ${RUN_TIMEOUT_MS / 1000} s`, timedOut: true, runtime: ready });
      else
        resolve({
          error: `exited with ${signal ?? `code ${code}`}: ${stderr.trim().split('\n').slice(-3).join(' / ')}`,
        });
    });
  });
}

const engines = {};
const labels = {};
await matrixMain({
  kind: 'engines',
  flag: '--runtimes',
  known: Object.keys(RUNTIMES),
  where: 'Node, Deno and Bun',
  packages: ['@streamparser/json', 'stream-json', 'JSONStream'].map((p) => [p, p]),
  serverOptions: { streamparser: false },
  skipIsProblem: false,
  // A runtime that does not start here is skipped; its label and engine come with its first result.
  async open(names) {
    const skipped = [];
    const targets = [];
    for (const name of names) {
      const found = probe(name);
      if (found.error) skipped.push({ name, reason: found.error });
      else targets.push(name);
    }
    return { targets, labels, engines, skipped };
  },
  extraCompetitors: (runtime) => (runtime === 'node' ? NODE_PEERS : []),
  input: (mode, size, origin, dataset) =>
    mode === 'http' ? { url: `${origin}/paced/${size}.json` } : { file: dataset.file, chunkSize: CHUNK_SIZE },
  async run(runtime, spec) {
    const result = await runChild(runtime, spec);
    if (result.runtime) {
      engines[runtime] = result.runtime;
      labels[runtime] = `${result.runtime.name} ${result.runtime.version}`;
    }
    return result;
  },
  peersLine: (versions) =>
    `Peers: ${Object.entries(versions)
      .map(([p, v]) => `${p} ${v}`)
      .join(', ')} (stream-json and JSONStream in Node only)`,
  close: async () => {},
});
