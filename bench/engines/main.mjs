// node bench/engines/main.mjs: the engine matrix in Node, Deno and Bun, a fresh process per run (harness/child.mjs).
import { NODE_PEERS } from '../competitors/node.mjs';
import { CHUNK_SIZE, matrixMain } from '../harness/matrix.mjs';
import { probe, RUNTIMES, runIn } from '../harness/runtime.mjs';

// A run that takes longer is killed and reported as timed out.
const RUN_TIMEOUT_MS = 90_000;
const PEERS = ['@streamparser/json', 'stream-json', 'JSONStream'];

const engines = {};
const labels = {};
await matrixMain({
  kind: 'engines',
  known: Object.keys(RUNTIMES),
  where: 'Node, Deno and Bun',
  packages: Object.fromEntries(PEERS.map((p) => [p, p])),
  // A runtime that does not start here is skipped; its label and engine come with its first result.
  async open(names) {
    const skipped = names.map((name) => ({ name, reason: probe(name).error })).filter((s) => s.reason);
    const targets = names.filter((name) => !skipped.some((s) => s.name === name));
    return { targets, labels, engines, skipped };
  },
  extraCompetitors: (runtime) => (runtime === 'node' ? NODE_PEERS : []),
  input: (mode, size, origin, dataset) =>
    mode === 'http' ? { url: `${origin}/paced/${size}.json` } : { file: dataset.file, chunkSize: CHUNK_SIZE },
  async run(runtime, spec) {
    const result = await runIn(runtime, spec, { timeoutMs: RUN_TIMEOUT_MS });
    if (result.runtime) {
      engines[runtime] = result.runtime;
      labels[runtime] = `${result.runtime.name} ${result.runtime.version}`;
    }
    return result;
  },
  peersLine: (versions) =>
    `Peers: ${PEERS.map((p) => `${p} ${versions[p]}`).join(', ')} (stream-json and JSONStream in Node only)`,
});
