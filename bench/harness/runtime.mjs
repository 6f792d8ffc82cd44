// The runs of every benchmark: `runIn`, one run in a fresh Node, Deno or Bun process (child.mjs, or a workload's own
// child answering through `answerParent`), its RSS sampled from /proc by this process; `roundRobin`, rounds of runs
// interleaved across competitors; `measureTable`, them and their table.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { log } from './cli.mjs';
import { GrowthPeak } from './proc_rss.mjs';
import { loadLine, markdownTable, summarise } from './stats.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const BIN = (name) => `${ROOT}node_modules/.bin/${name}`;

/** How each runtime starts a child: the JS engine's own gc(); the network only to 127.0.0.1; no prompts. */
export const RUNTIMES = {
  node: { command: process.execPath, args: (node, script) => [...node, script] },
  deno: {
    command: BIN('deno'),
    args: () => ['run', '--allow-read', '--allow-env', '--allow-net=127.0.0.1', '--v8-flags=--expose-gc', CHILD],
  },
  bun: { command: BIN('bun'), args: () => [CHILD] },
};
const CHILD_ENV = { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' };

/** The runtime's version line, or why it does not run here. */
export function probe(name) {
  const { command } = RUNTIMES[name];
  if (!existsSync(command)) return { error: `${command} is not installed (npm ci)` };
  const out = spawnSync(command, ['--version'], { encoding: 'utf8', env: CHILD_ENV, timeout: 30_000 });
  if (out.status !== 0)
    return { error: `${name} --version failed: ${(out.stderr || out.error?.message || '').trim()}` };
  return { version: out.stdout.split('\n')[0].trim() };
}

/**
 * One run of `script` (Node flags `node`) with the spec as its argument: child.mjs sends "ready", gets "go" once the
 * RSS baseline is taken and is sampled to its result; past `timeoutMs` it is killed (`timedOut`).
 */
export function runIn(runtime, spec, { timeoutMs = Infinity, node = ['--expose-gc'], script = CHILD } = {}) {
  return new Promise((resolve) => {
    const { command, args } = RUNTIMES[runtime];
    const child = spawn(command, [...args(node, script), JSON.stringify(spec)], { cwd: ROOT, env: CHILD_ENV });
    const sampler = new GrowthPeak([child.pid]);
    let timedOut = false;
    const timer =
      timeoutMs < Infinity &&
      setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
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
      } else if (message.result && !ready) result = message.result;
      else if (message.result) {
        const rssPeak = Math.max(rssBaseline + sampler.stop(), message.result.rssAfter);
        result = { ...message.result, rssBaseline, rssPeak, runtime: ready };
      }
    });
    child.on('error', (error) => resolve({ error: error.message }));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      sampler.stop();
      if (result && code === 0) resolve(result);
      else if (timedOut) resolve({ error: `timed out after ${timeoutMs / 1000} s`, timedOut: true, runtime: ready });
      else {
        const why = stderr.trim().split('\n').slice(-3).join(' / ');
        resolve({ error: `exited with ${signal ?? `code ${code}`}: ${why}` });
      }
    });
  });
}

/** A workload's own child: runs `measure(spec)`, which measures in-process, and sends its result to runIn. */
export async function answerParent(measure) {
  const result = await measure(JSON.parse(process.argv[2]));
  process.stdout.write(`${JSON.stringify({ result })}\n`);
}

/**
 * `runs` rounds, each a run of every entry ({ key, label }) in turn, so that drift of a shared machine hits all
 * alike: `runOnce(entry, earlier)` resolves to a result, `check(entry, result)` says what is wrong with one without
 * `error`, `shown(result)` is the log line's figure. Resolves to `{ key: results[] }`.
 */
export async function roundRobin({ runs, entries, runOnce, check = () => undefined, shown, tag }) {
  const out = Object.fromEntries(entries.map((e) => [e.key, []]));
  for (let run = 1; run <= runs; run++) {
    for (const entry of entries) {
      const result = await runOnce(entry, out[entry.key]);
      if (!result.error) result.error = check(entry, result);
      if (!result.error) delete result.error;
      out[entry.key].push(result);
      const why = result.error && `${result.skipped ? '' : 'FAILED: '}${result.error}`;
      log(`[${tag} ${run}/${runs}] ${entry.label.padEnd(44)} ${why || shown(result)}`);
    }
  }
  return out;
}

/**
 * bench:parse's and bench:stringify's tables: `runs` rounds of `runOnce(c)` for every competitor, checked by
 * `check(c, result)`; their table with `kind`'s columns and its load line; `failures`: the runs that failed.
 */
export async function measureTable({ runs, competitors, bytes, kind, cores, tag, runOnce, check }) {
  const loadBefore = os.loadavg();
  const all = await roundRobin({
    runs,
    entries: competitors.map((c) => ({ key: c.id, label: c.label, c })),
    runOnce: ({ c }) => runOnce(c),
    check: ({ c }, r) => check(c, r),
    shown: (r) => `${(bytes / 1e6 / (r.ms / 1000)).toFixed(1)} MB/s`,
    tag,
  });
  const loadAfter = os.loadavg();
  const timings = kind === 'stringify' ? ['firstByteMs', 'firstByteAfterRowMs'] : undefined;
  const entries = competitors.map((c) => ({ id: c.id, label: c.label, summary: summarise(bytes, all[c.id], timings) }));
  for (const entry of entries) entry.runs = all[entry.id];
  const markdown = `${markdownTable(entries, kind)}\n\n${loadLine(loadBefore, loadAfter, cores)}`;
  const failures = Object.values(all).flatMap((runs) => runs.filter((r) => r.error)).length;
  return { markdown, entries, runs: all, failures, loadBefore, loadAfter };
}
