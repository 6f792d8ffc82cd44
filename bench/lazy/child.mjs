// One run of bench:lazy in a process of its own: one competitor, dataset and fraction, cold then warm.
import { readFileSync } from 'node:fs';
import { chooseLeaves, COMPETITORS, fromRoot } from '../competitors/lazy.mjs';
import { touchPages } from '../competitors/parse.mjs';
import { answerParent } from '../harness/runtime.mjs';
import { median } from '../harness/stats.mjs';

const settle = async () => {
  for (let i = 0; i < 2; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/** Outside the clock: the leaves to read, and what they sum to (the parseJsonArray row: those under its array). */
function expectation(input, { fraction, arrayPath }, competitor) {
  const tree = JSON.parse(new TextDecoder().decode(input));
  const { paths, leaves } = chooseLeaves(tree, fraction);
  const under = (path) => path.length > arrayPath.length && arrayPath.every((k, i) => path[i] === k);
  return { paths, leaves, expected: fromRoot(tree, { paths: competitor.arrayPath ? paths.filter(under) : paths }) };
}

await answerParent(async (spec) => {
  const competitor = COMPETITORS.find((c) => c.id === spec.competitor);
  const file = readFileSync(spec.file);
  const input = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  const { paths, leaves, expected } = expectation(input, spec, competitor);
  const run = await competitor.setup();
  touchPages(input);
  await settle();
  const rssBaseline = process.memoryUsage().rss;
  const step = Math.max(1, Math.round(1 / spec.fraction));
  const job = { input, paths, step, arrayPath: spec.arrayPath };
  const startedAt = performance.now();
  const checksum = await run(job);
  const ms = performance.now() - startedAt;
  const rssGrowth = process.memoryUsage().rss - rssBaseline;
  // Warm: more documents, each after the last is collected (as a server sees them); the median of the later half.
  const warm = [];
  for (let i = 1; i < spec.repeats; i++) {
    await settle();
    const at = performance.now();
    const again = await run(job);
    warm.push(performance.now() - at);
    if (again !== checksum) throw new Error(`run ${i + 1} read ${again}, the first ${checksum}`);
  }
  const warmMs = median(warm.slice(warm.length >> 1));
  return { ms, warmMs, checksum, expected, read: paths.length, leaves, rssGrowth };
});
