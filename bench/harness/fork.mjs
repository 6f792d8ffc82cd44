// One timed run in a Node process of its own: forks `script` with the spec as its argument and resolves with the
// one message it sends over IPC, or { error } when it failed or exited before reporting (never rejects).
import { fork } from 'node:child_process';

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
