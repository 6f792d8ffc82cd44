// One timed run of one competitor, in a process of its own (started with --expose-gc by main.mjs) so that no
// competitor's heap, JIT state or wasm memory pollutes another's time or RSS. Reports to the parent over IPC.
import { readFileSync } from 'node:fs';
import { loadDeps, PARSE_COMPETITORS } from '../competitors/node.mjs';
import { makeContext } from '../competitors/parse.mjs';
import { timedRun } from '../harness/rss_sampler.mjs';

const spec = JSON.parse(process.argv[2]);
const competitor = PARSE_COMPETITORS.find((c) => c.id === spec.competitor);
if (!competitor) throw new Error(`unknown competitor ${spec.competitor}`);
if (typeof globalThis.gc !== 'function') throw new Error('child.mjs needs node --expose-gc');

const file = readFileSync(spec.file);
const ctx = makeContext(new Uint8Array(file.buffer, file.byteOffset, file.byteLength), spec);
const run = await competitor.setup(ctx, await loadDeps(competitor));

// --warm: untimed runs first, so the timed one sees what a long-running process sees.
for (let i = 0; i < (spec.warm ?? 0); i++) {
  await run();
  ctx.firstAt = 0;
}

const { result, startedAt, ...measured } = await timedRun(run, spec.sampleIntervalMs);
process.send({
  ...measured,
  firstElementMs: ctx.firstAt === 0 ? null : ctx.firstAt - startedAt,
  elements: result.elements,
  checksum: result.checksum,
});
process.disconnect();
