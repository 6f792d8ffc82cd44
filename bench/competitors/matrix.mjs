// One run of the engine matrix, set up alike in Node, Deno and Bun (bench/engines/child.mjs) and in a browser page
// (bench/browser/page/runner.js, which loads this file), and its timed part. Web APIs only.
import { CEILING_COMPETITORS, COMPETITORS, HTTP_COMPETITORS, makeContext, makeHttpContext } from './parse.mjs';
import { makeStringifyContext, STRINGIFY_COMPETITORS } from './stringify.mjs';

/**
 * The competitor `spec` names, set up: `{ ctx, run }`. spec: { bench: 'stringify', competitor, count } or a parse
 * run { competitor, mode: 'memory' | 'http', url, path, field, chunkSize }. `input()`: the in-memory bytes;
 * `deps(competitor)`: what its setup takes; `extra`: the host's own parse competitors.
 */
export async function prepareRun(spec, { input, deps, extra = [] }) {
  const stringify = spec.bench === 'stringify';
  const http = spec.mode === 'http';
  const list = http ? HTTP_COMPETITORS : [...COMPETITORS, ...CEILING_COMPETITORS];
  const competitor = (stringify ? STRINGIFY_COMPETITORS : [...list, ...extra]).find((c) => c.id === spec.competitor);
  if (!competitor) throw new Error(`unknown competitor ${spec.competitor}`);
  if (stringify) {
    const ctx = makeStringifyContext(spec);
    const write = await competitor.setup(await deps(competitor));
    return { ctx, run: () => write(ctx) };
  }
  const ctx = http ? makeHttpContext(spec) : makeContext(await input(), spec);
  return { ctx, run: await competitor.setup(ctx, await deps(competitor)) };
}

/** The timed part: the run's time and time to its first element (or byte), and what it delivered. */
export async function timeRun({ ctx, run }) {
  const startedAt = performance.now();
  const { elements, checksum, bytes } = await run();
  const ms = performance.now() - startedAt;
  return { ms, firstElementMs: ctx.firstAt === 0 ? null : ctx.firstAt - startedAt, elements, checksum, bytes };
}
