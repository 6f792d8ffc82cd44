// One timed run in a fresh Node, Deno or Bun process (child.mjs), its RSS sampled from /proc by this process.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { GrowthPeak } from './proc_rss.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const BIN = (name) => `${ROOT}node_modules/.bin/${name}`;

/** How each runtime starts the child: the JS engine's own gc(); the network only to 127.0.0.1; no prompts. */
export const RUNTIMES = {
  node: { command: process.execPath, args: (node) => ['--expose-gc', ...node, CHILD] },
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

/** One run: spawn, "ready", the RSS baseline, "go", sampled to the result; past `timeoutMs` it is killed (`timedOut`). */
export function runIn(runtime, spec, { timeoutMs = Infinity, node = [] } = {}) {
  return new Promise((resolve) => {
    const { command, args } = RUNTIMES[runtime];
    const child = spawn(command, [...args(node), JSON.stringify(spec)], { cwd: ROOT, env: CHILD_ENV });
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
      else if (timedOut) resolve({ error: `timed out after ${timeoutMs / 1000} s`, timedOut: true, runtime: ready });
      else {
        const why = stderr.trim().split('\n').slice(-3).join(' / ');
        resolve({ error: `exited with ${signal ?? `code ${code}`}: ${why}` });
      }
    });
  });
}
