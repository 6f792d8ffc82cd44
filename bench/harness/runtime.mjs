// Every benchmark's runs: runIn (a fresh Node, Deno or Bun process, its RSS sampled here), roundRobin, measureTable.
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

export function probe(name) {
  const { command } = RUNTIMES[name];
  if (!existsSync(command)) return { error: `${command} is not installed (npm ci)` };
  const out = spawnSync(command, ['--version'], { encoding: 'utf8', env: CHILD_ENV, timeout: 30_000 });
  if (out.status !== 0)
    return { error: `${name} --version failed: ${(out.stderr || out.error?.message || '').trim()}` };
  return { version: out.stdout.split('\n')[0].trim() };
}

/** One run of `script` with the spec as argument: child.mjs's ready, go, result, or answerParent's result alone. */
export function runIn(runtime, spec, { timeoutMs = Infinity, node = ['--expose-gc'], script = CHILD } = {}) {
  return new Promise((resolve) => {
    const { command, args } = RUNTIMES[runtime];
    const child = spawn(command, [...args(node, script), JSON.stringify(spec)], { cwd: ROOT, env: CHILD_ENV });
    const sampler = new GrowthPeak([child.pid]);
    // Killed only here: child.killed then says the run timed out.
    const timer = timeoutMs < Infinity && setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const stderr = [];
    let ready = null;
    let result = null;
    let rssBaseline = 0;
    child.stderr.on('data', (data) => stderr.push(data));
    createInterface({ input: child.stdout }).on('line', (line) => {
      // The protocol's lines, not a runtime's own notices on stdout.
      const message = /^\{"(ready|result)":/.test(line) ? JSON.parse(line) : {};
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
      const why = stderr.join('').trim().split('\n').slice(-3).join(' / ');
      if (result && code === 0) resolve(result);
      else if (child.killed)
        resolve({ error: `timed out after ${timeoutMs / 1000} s`, timedOut: true, runtime: ready });
      else resolve({ error: `exited with ${signal ?? `code ${code}`}: ${why}` });
    });
  });
}

export async function answerParent(measure) {
  const result = await measure(JSON.parse(process.argv[2]));
  process.stdout.write(`${JSON.stringify({ result })}\n`);
}

/** `runs` rounds of runOnce(entry, earlier) over every entry in turn, so drift hits all alike: { key: results[] }. */
export async function roundRobin({ runs, entries, runOnce, check = () => undefined, shown, tag }) {
  const out = Object.fromEntries(entries.map((e) => [e.key ?? e.id, []]));
  for (let run = 1; run <= runs; run++) {
    for (const entry of entries) {
      const result = await runOnce(entry, out[entry.key ?? entry.id]);
      if (!result.error) result.error = check(entry, result);
      if (!result.error) delete result.error;
      out[entry.key ?? entry.id].push(result);
      const why = result.error && `${result.skipped ? '' : 'FAILED: '}${result.error}`;
      log(`[${tag} ${run}/${runs}] ${entry.label.padEnd(44)} ${why || shown(result)}`);
    }
  }
  return out;
}

/** Every table's runs: roundRobin over the competitors, their medians over `bytes` (null: the first good run's). */
export async function measureTable({ runs, competitors, bytes, kind, cores, tag, runOnce, check }) {
  const loadBefore = os.loadavg();
  const shown = (r) => `${((bytes ?? r.bytes) / 1e6 / (r.ms / 1000)).toFixed(1)} MB/s`;
  const all = await roundRobin({ runs, entries: competitors, runOnce, check, shown, tag });
  const loadAfter = os.loadavg();
  const ran = Object.values(all).flat();
  const measured = bytes ?? ran.find((r) => !r.error)?.bytes ?? 0;
  const timings = kind === 'stringify' ? ['firstByteMs', 'firstByteAfterRowMs'] : undefined;
  const summary = (key) => summarise(measured, all[key], timings);
  const entries = competitors.map(({ id, key = id, label }) => ({ id, label, summary: summary(key), runs: all[key] }));
  const markdown = `${markdownTable(entries, kind)}\n\n${loadLine(loadBefore, loadAfter, cores)}`;
  const failures = ran.filter((r) => r.error).length;
  return { markdown, entries, runs: all, failures, loadBefore, loadAfter, bytes: measured };
}
