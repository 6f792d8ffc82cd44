// Peak RSS of other processes, sampled from /proc by the parent: the one measurement that works alike for a Node,
// Deno or Bun child and a browser's content processes, and keeps sampling while the measured process is busy in a
// synchronous parse (no timer of its own could fire then). Linux only; elsewhere `available` is false.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

export const available = existsSync('/proc/self/status');

/** A size field of /proc/PID/status in bytes (VmRSS: the resident set; VmHWM: its peak), or 0 when it has exited. */
export function statusBytes(pid, key = 'VmRSS') {
  try {
    const match = new RegExp(`^${key}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every live descendant of `root` (children, grandchildren...), from the parent links in /proc/PID/stat. */
export function descendants(root) {
  const parentOf = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (field 2) is in parentheses and may hold spaces: the fields after the last ')' are safe.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* exited meanwhile */
    }
  }
  const found = [];
  const frontier = [root];
  while (frontier.length) {
    const parent = frontier.pop();
    for (const [pid, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(pid);
        frontier.push(pid);
      }
    }
  }
  return found;
}

/** The command line of `pid`, its arguments joined by spaces ('' when it has exited). */
export function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** User + system CPU time of `pid` in ms (Linux counts it in clock ticks of 10 ms), or null when it has exited. */
export function cpuMsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * The peak, sampled every `intervalMs` from `start()` to `stop()`, of the summed RSS growth of `pids` over their RSS
 * at `start()`; a process that shrinks adds nothing. For a browser, whose page runs in one of several content
 * processes (Firefox may reuse one across pages, a closing page's process may still be exiting); for Node, Deno
 * and Bun, the one process of the run.
 */
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

  /** Takes the baseline; returns the summed RSS of the processes then. */
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
