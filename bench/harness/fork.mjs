// The runs of every benchmark: `roundRobin`, rounds of runs interleaved across competitors; `measureTable`, them and
// their table; `runChild`, one run in a Node process of its own; `answerParent`, that process's side.
import { fork } from 'node:child_process';
import os from 'node:os';
import { log } from './cli.mjs';
import { loadLine, markdownTable, summarise } from './stats.mjs';

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

/** Forks `script` with the spec as its argument; resolves with the one message it sends, or { error }. */
export function runChild(script, spec, execArgv = ['--expose-gc']) {
  return new Promise((resolve) => {
    let result = null;
    const child = fork(script, [JSON.stringify(spec)], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (message) => {
      result = message;
    });
    child.on('error', (error) => resolve({ error: error.message }));
    child.on('exit', (code, signal) => {
      resolve(result ?? { error: `child exited with ${signal ?? `code ${code}`} before reporting` });
    });
  });
}

/** The child's side: when forked, runs `measure(spec)` and sends its result, or `{ error }` if it threw. */
export async function answerParent(measure) {
  if (!process.send) return;
  try {
    process.send(await measure(JSON.parse(process.argv[2])));
  } catch (error) {
    process.send({ error: error instanceof Error ? error.stack : String(error) });
  }
}
