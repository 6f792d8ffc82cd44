// What a benchmark result is only meaningful with: machine, runtime and the exact versions measured.
import { readFileSync } from 'node:fs';
import os from 'node:os';

function cpuModel() {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    if (line) return line.split(':')[1].trim();
  } catch { /* not Linux: fall back to what Node reports */ }
  return os.cpus()[0]?.model ?? 'unknown';
}

/** The installed version of a bench peer, read from its own package.json (some `exports` maps hide it). */
export function packageVersion(name) {
  return JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
}

export function environment() {
  const sluice = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return {
    cpu: cpuModel(),
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.versions.node,
    v8: process.versions.v8,
    sluice: sluice.version,
  };
}
