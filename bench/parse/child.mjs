// One timed run of one competitor, in a process of its own (started with --expose-gc by main.mjs) so that no
// competitor's heap, JIT state or wasm memory pollutes another's time or RSS. Reports to the parent over IPC.
import { readFileSync } from 'node:fs';
import { loadDeps, PARSE_COMPETITORS } from '../competitors/node.mjs';
import { makeContext } from '../competitors/parse.mjs';
import { RssSampler } from '../harness/rss_sampler.mjs';

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

const sampler = await RssSampler.start(spec.sampleIntervalMs);
globalThis.gc();
globalThis.gc();
const rssBaseline = process.memoryUsage().rss;
sampler.reset(rssBaseline);

const cpuBefore = process.cpuUsage();
const faultsBefore = process.resourceUsage().minorPageFault;
const startedAt = performance.now();
const { elements, checksum } = await run();
const endedAt = performance.now();
const faults = process.resourceUsage().minorPageFault - faultsBefore;
const cpu = process.cpuUsage(cpuBefore);

const rssAfter = process.memoryUsage().rss;
const { peak, samples } = await sampler.stop();
process.send({
  ms: endedAt - startedAt,
  firstElementMs: ctx.firstAt === 0 ? null : ctx.firstAt - startedAt,
  elements,
  checksum,
  rssBaseline,
  rssPeak: Math.max(peak, rssAfter),
  rssAfter,
  samples,
  // All threads of the process (GC helpers, the sampler): well under `ms` means the run waited for a busy CPU.
  cpuMs: (cpu.user + cpu.system) / 1000,
  // Pages the run touched for the first time (the whole process: the sampler's thread takes a few): what the
  // header's "Memory:" rate costs each competitor.
  faults,
});
process.disconnect();
