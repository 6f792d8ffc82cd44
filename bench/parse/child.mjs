// One timed run of one competitor, in a process of its own (started with --expose-gc by main.mjs) so that no
// competitor's heap, JIT state or wasm memory pollutes another's time or RSS. Reports to the parent over IPC.
import { readFileSync } from 'node:fs';
import { loadDeps, PARSE_COMPETITORS } from '../competitors/node.mjs';
import { makeContext } from '../competitors/parse.mjs';
import { answerParent } from '../harness/fork.mjs';
import { timedRun } from '../harness/rss_sampler.mjs';

await answerParent(async (spec) => {
  const competitor = PARSE_COMPETITORS.find((c) => c.id === spec.competitor);
  const file = readFileSync(spec.file);
  const ctx = makeContext(new Uint8Array(file.buffer, file.byteOffset, file.byteLength), spec);
  const run = await competitor.setup(ctx, await loadDeps(competitor));
  const { result, startedAt, ...measured } = await timedRun(run, spec.sampleIntervalMs);
  const firstElementMs = ctx.firstAt === 0 ? null : ctx.firstAt - startedAt;
  return { ...measured, firstElementMs, elements: result.elements, checksum: result.checksum };
});
process.disconnect?.();
