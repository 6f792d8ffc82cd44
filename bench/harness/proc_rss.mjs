// RSS and CPU time of other processes from /proc (Linux only): alike for a Node, Deno or Bun child and a browser's
// content processes, and sampled even while the measured process is busy in a synchronous parse.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

export const available = existsSync('/proc/self/status');

const live = (read, fallback) => {
  try {
    return read();
  } catch {
    return fallback;
  }
};

/** A size field of /proc/PID/status in bytes (VmRSS: the resident set; VmHWM: its peak), or 0 when it has exited. */
export const statusBytes = (pid, key = 'VmRSS') =>
  live(() => {
    const match = new RegExp(`^${key}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  }, 0);

/** The fields of /proc/PID/stat after the command name (in parentheses, which may hold spaces). */
const statFields = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

export function descendants(root) {
  const parentOf = new Map();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e)))
    live(() => parentOf.set(Number(entry), Number(statFields(entry)[1])));
  const below = (parent) =>
    [...parentOf].filter(([, ppid]) => ppid === parent).flatMap(([pid]) => [pid, ...below(pid)]);
  return below(root);
}

export const commandLine = (pid) => live(() => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '), '');

/** User + system CPU time of `pid` in ms (clock ticks of 10 ms). */
export const cpuMsOf = (pid) =>
  live(() => {
    const fields = statFields(pid);
    return (Number(fields[11]) + Number(fields[12])) * 10;
  }, null);

/** The peak from `start()` to `stop()` of the summed RSS growth of `pids` (one that shrinks adds nothing). */
export class GrowthPeak {
  #timer = null;
  #peak = 0;
  #base = new Map();

  constructor(pids) {
    this.pids = pids;
  }

  #sample() {
    let sum = 0;
    for (const [pid, base] of this.#base) sum += Math.max(0, statusBytes(pid) - base);
    this.#peak = Math.max(this.#peak, sum);
  }

  start(intervalMs = 2) {
    this.#base = new Map(this.pids.map((pid) => [pid, statusBytes(pid)]));
    this.#peak = 0;
    this.#timer = setInterval(() => this.#sample(), intervalMs);
    return [...this.#base.values()].reduce((a, b) => a + b, 0);
  }

  stop() {
    clearInterval(this.#timer);
    this.#sample();
    return this.#peak;
  }
}
