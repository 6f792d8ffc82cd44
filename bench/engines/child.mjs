// One timed run of one competitor in Node, Deno or Bun (the same file in each), in a process of its own. The
// parent samples this process's RSS from /proc, so the protocol is a handshake on stdin/stdout, one JSON line each:
//   child: {"ready": {...runtime}}   (input read, competitor set up, garbage collected)
//   parent: "go"                     (after it took the RSS baseline)
//   child: {"result": {...}}
// Usage: node --expose-gc | deno run --allow-read --allow-env --allow-net=127.0.0.1 --v8-flags=--expose-gc | bun
//        child.mjs SPEC_JSON
// SPEC_JSON: { bench: 'parse' (default) | 'stringify', competitor, ... }: parse names mode ('memory': file,
// chunkSize; 'http': url), path and field; stringify names count.
import { readFileSync } from 'node:fs';
import process from 'node:process';
import {
  CEILING_COMPETITORS,
  COMPETITORS,
  HTTP_COMPETITORS,
  makeContext,
  makeHttpContext,
} from '../competitors/parse.mjs';
import { makeStringifyContext, STRINGIFY_COMPETITORS } from '../competitors/stringify.mjs';

const isNode = !globalThis.Deno && !globalThis.Bun;

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

function nextLine() {
  return new Promise((resolve) => {
    let text = '';
    const onData = (data) => {
      text += data;
      if (!text.includes('\n')) return;
      process.stdin.off('data', onData);
      process.stdin.pause();
      resolve(text.trim());
    };
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', onData);
  });
}

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

const spec = JSON.parse(process.argv[2]);
const stringify = spec.bench === 'stringify';
const http = spec.mode === 'http';
// The Node-only peers join only in Node (their module imports Node built-ins the others lack).
const node = isNode && !stringify ? await import('../competitors/node.mjs') : null;
const nodePeers = node?.NODE_PEERS ?? [];
const list = stringify
  ? STRINGIFY_COMPETITORS
  : [...(http ? HTTP_COMPETITORS : [...COMPETITORS, ...CEILING_COMPETITORS]), ...nodePeers];
const competitor = list.find((c) => c.id === spec.competitor);
if (!competitor) throw new Error(`unknown competitor ${spec.competitor}`);

let ctx;
if (stringify) ctx = makeStringifyContext(spec);
else if (http) ctx = makeHttpContext(spec);
else {
  const file = readFileSync(spec.file);
  ctx = makeContext(new Uint8Array(file.buffer, file.byteOffset, file.byteLength), spec);
}
const { loadDeps } = node ?? (await import('../competitors/node.mjs'));
const deps = await loadDeps(competitor);
// A stringify competitor's setup returns run(ctx); a parse competitor's was handed ctx already.
const run = stringify
  ? (
      (write) => () =>
        write(ctx)
    )(await competitor.setup(deps))
  : await competitor.setup(ctx, deps);
collectGarbage();
collectGarbage();

send({ ready: runtime() });
if ((await nextLine()) !== 'go') throw new Error('child.mjs: expected "go" on stdin');

const cpuBefore = process.cpuUsage?.();
const startedAt = performance.now();
const { elements, checksum, bytes } = await run();
const endedAt = performance.now();
const cpu = cpuBefore ? process.cpuUsage(cpuBefore) : null;

send({
  result: {
    ms: endedAt - startedAt,
    firstElementMs: ctx.firstAt === 0 ? null : ctx.firstAt - startedAt,
    elements,
    checksum,
    bytes,
    rssAfter: process.memoryUsage().rss,
    cpuMs: cpu ? (cpu.user + cpu.system) / 1000 : null,
  },
});
process.exit(0);
