// What a benchmark result is only meaningful with: machine, runtime and the exact versions measured.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export const DIST = new URL('../../dist/', import.meta.url);

/** sluice from dist/; with `init`, its SIMD build loaded from the file's bytes (the bench's readers time no fetch). */
export async function loadSluice({ init = false } = {}) {
  const sluice = await import(new URL('index.js', DIST).href);
  if (init) await sluice.init(readFileSync(new URL('sluice.simd.wasm', DIST)));
  return sluice;
}

/** A bench peer's version, from its own package.json (some `exports` maps hide it). */
export function packageVersion(name) {
  return JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
}

export function withVersions(competitors) {
  const versions = {};
  for (const c of competitors) if (c.package) versions[c.id] = packageVersion(c.package);
  const labelled = competitors.map((c) => (versions[c.id] ? { ...c, label: `${c.label} ${versions[c.id]}` } : c));
  return { versions, competitors: labelled };
}

export function startReport(title, peers, method, fields) {
  const env = environment();
  const { freshMsPerMB: fresh, touchedMsPerMB: touched } = env.memory;
  const header = [
    `# ${title}`,
    '',
    `Machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}`,
    `Runtime: Node ${env.node}, V8 ${env.v8}; sluice ${env.sluice}`,
    `Memory: writing fresh pages ${fresh.toFixed(2)} ms per MB, touched ones ${touched.toFixed(3)} ms per MB ` +
      '(64 MiB, filled twice; cold runs pay the first rate as they grow)',
    ...(peers.length ? [`Peers: ${peers.map((p) => `${p} ${packageVersion(p)}`).join(', ')}`] : []),
  ];
  console.log([...header, '', method].join('\n'));
  return { env, results: { date: new Date().toISOString(), environment: env, ...fields } };
}

export function environment() {
  const sluice = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  // Writing 64 MiB never touched (every page faults in), then again, ms per MB: a cold run pays the first rate.
  const bytes = new Uint8Array(64 * 2 ** 20);
  const msPerMB = (fill) => {
    const at = performance.now();
    bytes.fill(fill);
    return (performance.now() - at) / (bytes.length / 1e6);
  };
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.versions.node,
    v8: process.versions.v8,
    sluice: sluice.version,
    memory: { freshMsPerMB: msPerMB(1), touchedMsPerMB: msPerMB(2) },
  };
}
