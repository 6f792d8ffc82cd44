// One timed run of one competitor on one dataset and fraction, in a process of its own (node --expose-gc, started
// by main.mjs) so that no competitor's heap, JIT state or wasm memory affects another's. Reports over IPC.
import { readFileSync } from 'node:fs';
import { touchPages } from '../competitors/parse.mjs';
import { chooseLeaves, COMPETITORS, leafValue, readPath } from '../competitors/lazy.mjs';
import { median } from '../harness/stats.mjs';

const spec = JSON.parse(process.argv[2]);
const competitor = COMPETITORS.find((c) => c.id === spec.competitor);
if (!competitor) throw new Error(`unknown competitor ${spec.competitor}`);
if (typeof globalThis.gc !== 'function') throw new Error('child.mjs needs node --expose-gc');

const file = readFileSync(spec.file);
const input = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);

// Outside the clock: the leaves to read, and what reading them must sum to (all of them, or for the
// parseJsonArray row the ones under the record array).
let paths;
let leaves;
let expected = 0;
{
  const tree = JSON.parse(new TextDecoder().decode(input));
  ({ paths, leaves } = chooseLeaves(tree, spec.fraction));
  const under = (path) =>
    spec.arrayPath !== null && path.length > spec.arrayPath.length && spec.arrayPath.every((key, i) => path[i] === key);
  for (const path of paths) if (!competitor.arrayPath || under(path)) expected += leafValue(readPath(tree, path));
}
const run = await competitor.setup();
// The input is in memory for every competitor before the clock starts.
touchPages(input);

const settle = async () => {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
};
await settle();
const rssBaseline = process.memoryUsage().rss;
const startedAt = performance.now();
const step = Math.max(1, Math.round(1 / spec.fraction));
const checksum = await run({ input, paths, step, arrayPath: spec.arrayPath });
const ms = performance.now() - startedAt;
const rssAfter = process.memoryUsage().rss;

// The same again in the same process, `repeats - 1` more times, each once the previous result is garbage and
// collected (FinalizationRegistry callbacks run in a later task: lazyParse's wasm memory goes back to its
// allocator): what a long-running server sees from its second document on. Memory grown by the first run is
// reused, and the code gets optimised.
const warm = [];
for (let i = 1; i < spec.repeats; i++) {
  await settle();
  const warmStartedAt = performance.now();
  const warmChecksum = await run({ input, paths, step, arrayPath: spec.arrayPath });
  warm.push(performance.now() - warmStartedAt);
  if (warmChecksum !== checksum) throw new Error(`run ${i + 1} read ${warmChecksum}, the first ${checksum}`);
}
// The later half of them: the engine takes a few documents to optimise the reading code (and the first ones
// still pay for it), and a long-running process is past that. With 30 more reads that is reads 17 to 31: the
// reading code of twitter.json's 1 % settles at about the 15th document (per-document times in one process: 1.3 to
// 1.4 ms for reads 7 to 11, 1.0 to 1.1 ms from about the 15th on); the optimising compiles run on the same cores.
const warmMs = median(warm.slice(warm.length >> 1));
process.send({
  ms,
  warmMs,
  checksum,
  expected,
  read: paths.length,
  leaves,
  rssGrowth: rssAfter - rssBaseline,
});
process.disconnect();
