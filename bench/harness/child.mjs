// One timed run of one competitor in a fresh Node, Deno or Bun process (runtime.mjs's runIn, which samples its RSS):
// {"ready"} once set up and collected, "go" back once the baseline is taken, then {"result"}.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import process from 'node:process';
import { prepareRun, timeRun } from '../competitors/matrix.mjs';
import { loadDeps, NODE_PEERS, PARSE_COMPETITORS } from '../competitors/node.mjs';
import { COMPETITORS as NODE_STRINGIFY } from '../competitors/stringify_node.mjs';

function runtime() {
  if (globalThis.Deno) return { name: 'Deno', version: Deno.version.deno, engine: `V8 ${Deno.version.v8}` };
  if (globalThis.Bun) return { name: 'Bun', version: Bun.version, engine: 'JavaScriptCore' };
  return { name: 'Node', version: process.versions.node, engine: `V8 ${process.versions.v8}` };
}

function collectGarbage() {
  if (globalThis.Bun) Bun.gc(true);
  else if (typeof globalThis.gc === 'function') globalThis.gc();
  else throw new Error('child.mjs needs a gc(): node --expose-gc, deno run --v8-flags=--expose-gc, or bun');
}

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

const spec = JSON.parse(process.argv[2]);
// The Node-stream peers and bench:parse's own rows run in Node only.
const isNode = !globalThis.Deno && !globalThis.Bun;
const input = () => {
  const file = readFileSync(spec.file);
  return new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
};
const prepared = await prepareRun(spec, {
  input,
  deps: loadDeps,
  parsers: isNode ? [...NODE_PEERS, ...PARSE_COMPETITORS] : [],
  writers: isNode ? NODE_STRINGIFY : [],
});
collectGarbage();
collectGarbage();

const stdin = createInterface({ input: process.stdin });
send({ ready: runtime() });
await once(stdin, 'line');
stdin.close();

const cpuBefore = process.cpuUsage?.();
const faultsBefore = isNode ? process.resourceUsage().minorPageFault : null;
const result = await timeRun(prepared);
const cpu = cpuBefore ? process.cpuUsage(cpuBefore) : null;
send({
  result: {
    ...result,
    rssAfter: process.memoryUsage().rss,
    cpuMs: cpu ? (cpu.user + cpu.system) / 1000 : null,
    faults: isNode ? process.resourceUsage().minorPageFault - faultsBefore : null,
  },
});
process.exit(0);
