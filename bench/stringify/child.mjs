// One timed run of one competitor on one source, in a process of its own (started with --expose-gc by main.mjs)
// so that no competitor's heap or JIT state pollutes another's time or RSS. Reports to the parent over IPC.
import { articleArray, preparePool } from '../articles.mjs';
import { makeStringifyContext } from '../competitors/stringify.mjs';
import { COMPETITORS } from '../competitors/stringify_node.mjs';
import { timedRun } from '../harness/rss_sampler.mjs';

const spec = JSON.parse(process.argv[2]);
const competitor = COMPETITORS.find((c) => c.id === spec.competitor);
if (!competitor) throw new Error(`unknown competitor ${spec.competitor}`);
if (typeof globalThis.gc !== 'function') throw new Error('child.mjs needs node --expose-gc');

preparePool();
// An array source exists before the run (it is the application's data); generators make rows as asked.
const rows = spec.kind === 'array' ? articleArray(spec.count) : null;
const ctx = makeStringifyContext({ kind: spec.kind, count: spec.count, rows, sampled: false });
const run = await competitor.setup({
  sluice: await import(new URL('../../dist/encode/index.js', import.meta.url).href),
});

const { result, startedAt, ...measured } = await timedRun(() => run(ctx), spec.sampleIntervalMs);
process.send({
  ...measured,
  bytes: result.bytes,
  firstByteMs: ctx.firstAt === 0 ? null : ctx.firstAt - startedAt,
  firstByteAfterRowMs: ctx.firstAt === 0 || ctx.firstRowAt === 0 ? null : ctx.firstAt - ctx.firstRowAt,
});
process.disconnect();
