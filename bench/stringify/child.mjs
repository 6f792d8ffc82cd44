// One timed run of one competitor on one source, in a process of its own (started with --expose-gc by main.mjs)
// so that no competitor's heap or JIT state pollutes another's time or RSS. Reports to the parent over IPC.
import { articleArray, preparePool } from '../articles.mjs';
import { makeStringifyContext } from '../competitors/stringify.mjs';
import { COMPETITORS } from '../competitors/stringify_node.mjs';
import { answerParent } from '../harness/fork.mjs';
import { timedRun } from '../harness/rss_sampler.mjs';

await answerParent(async ({ competitor: id, kind, count, sampleIntervalMs }) => {
  preparePool();
  // An array source exists before the run (it is the application's data); generators make rows as asked.
  const rows = kind === 'array' ? articleArray(count) : null;
  const ctx = makeStringifyContext({ kind, count, rows, sampled: false });
  const sluice = await import(new URL('../../dist/encode/index.js', import.meta.url).href);
  const run = await COMPETITORS.find((c) => c.id === id).setup({ sluice });
  const { result, startedAt, ...measured } = await timedRun(() => run(ctx), sampleIntervalMs);
  const since = (at) => (ctx.firstAt === 0 || at === 0 ? null : ctx.firstAt - at);
  return {
    ...measured,
    bytes: result.bytes,
    firstByteMs: since(startedAt),
    firstByteAfterRowMs: since(ctx.firstRowAt),
  };
});
process.disconnect?.();
