// @ts-check
// Helper processes of the engines (Xvfb, WebKitWebDriver, Firefox): each runs under guard.sh as the leader of a
// process group of its own, so that stopping it ends everything it started, and a parent that dies without
// stopping it (SIGKILL, a crash) still takes it down within a second. A normal exit of this process stops them too.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const GUARD = fileURLToPath(new URL('./guard.sh', import.meta.url));

/** @type {Set<number>} process group ids still running */
const groups = new Set();
process.once('exit', () => {
  for (const group of groups) killGroup(group, 'SIGKILL');
});

/**
 * @param {number} group
 * @param {NodeJS.Signals} signal
 */
function killGroup(group, signal) {
  try {
    process.kill(-group, signal);
  } catch {
    // already gone
  }
}

/**
 * @typedef {object} GuardedProcess
 * @property {import('node:child_process').ChildProcess} child  the guard; its pid is the group id
 * @property {() => string | null} exited  why it has ended ("exited with code 1"), or null while it runs
 * @property {() => string} output  what it wrote to stdout and stderr (the last 64 kB)
 * @property {() => Promise<void>} stop  SIGTERM to the group, SIGKILL after `graceMs`; resolves once the guard exited
 */

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, extraFds?: number, graceMs?: number }} [options]
 *   extraFds: pipes at fds 3, 4... (Xvfb -displayfd 3)
 * @returns {GuardedProcess}
 */
export function spawnGuarded(command, args, options = {}) {
  /** @type {import('node:child_process').StdioOptions} */
  const stdio = [
    'ignore',
    'pipe',
    'pipe',
    ...Array.from({ length: options.extraFds ?? 0 }, () => /** @type {const} */ ('pipe')),
  ];
  const child = spawn(GUARD, [command, ...args], { env: options.env ?? process.env, stdio, detached: true });
  const group = /** @type {number} */ (child.pid);
  groups.add(group);
  let output = '';
  const keep = (/** @type {Buffer} */ data) => {
    output = (output + data).slice(-65536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  /** @type {string | null} */
  let exited = null;
  const done = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exited = `${command} exited with ${signal ?? `code ${code}`}`;
      groups.delete(group);
      resolve(undefined);
    });
    child.once('error', (error) => {
      exited = `${command} did not start: ${error.message}`;
      groups.delete(group);
      resolve(undefined);
    });
  });
  // The guard's pipes must not keep this process alive.
  child.unref();
  for (const stream of child.stdio) /** @type {any} */ (stream)?.unref?.();
  return {
    child,
    exited: () => exited,
    output: () => output,
    async stop() {
      if (exited !== null) return;
      killGroup(group, 'SIGTERM');
      const timer = setTimeout(() => killGroup(group, 'SIGKILL'), options.graceMs ?? 3000);
      await done;
      clearTimeout(timer);
      // The guard may go first; whatever it started goes with the group.
      killGroup(group, 'SIGKILL');
    },
  };
}

/** A TCP port on 127.0.0.1 that was free a moment ago (for programs that take theirs on the command line). */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  return port;
}
