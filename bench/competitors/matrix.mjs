// One run set up alike in Node, Deno, Bun (harness/child.mjs) and a page (browser/page/runner.js); its timed part.
import { CEILING_COMPETITORS, COMPETITORS, HTTP_COMPETITORS, makeContext } from './parse.mjs';
import { makeStringifyContext, STRINGIFY_COMPETITORS } from './stringify.mjs';

/** A competitor's `deps`: sluice from `dist` (a URL), `wasm(build)` for each build, @streamparser/json if its peer. */
export const depsLoader = (dist, wasm, streamparser) => async (competitor) => ({
  sluice: await import(new URL('index.js', dist).href),
  internal: await import(new URL('internal.js', dist).href),
  wasm: { simd: wasm('simd'), scalar: wasm('scalar') },
  streamparser: competitor.package === '@streamparser/json' ? await import(streamparser) : null,
});

/** The competitor `spec` names, set up: `{ ctx, run }`; `parsers`, `writers`: the host's own competitors. */
export async function prepareRun(spec, { input, deps, parsers = [], writers = [] }) {
  const stringify = spec.bench === 'stringify';
  const http = spec.mode === 'http';
  const list = stringify
    ? [...STRINGIFY_COMPETITORS, ...writers]
    : [...(http ? HTTP_COMPETITORS : [...COMPETITORS, ...CEILING_COMPETITORS]), ...parsers];
  const competitor = list.find((c) => c.id === spec.competitor);
  if (!competitor) throw new Error(`unknown competitor ${spec.competitor}`);
  if (stringify) {
    const ctx = makeStringifyContext(spec);
    const write = await competitor.setup(await deps(competitor));
    return { ctx, run: () => write(ctx) };
  }
  const ctx = http ? { ...spec, firstAt: 0 } : makeContext(await input(), spec);
  return { ctx, run: await competitor.setup(ctx, await deps(competitor)) };
}

export async function timeRun({ ctx, run }) {
  const startedAt = performance.now();
  const { elements, checksum, bytes } = await run();
  const ms = performance.now() - startedAt;
  const since = (at) => (ctx.firstAt === 0 || !at ? null : ctx.firstAt - at);
  // A writer's first byte also counts from when its source handed out the first row.
  const afterRow = ctx.firstRowAt === undefined ? {} : { firstByteAfterRowMs: since(ctx.firstRowAt) };
  return { ms, firstElementMs: since(startedAt), elements, checksum, bytes, ...afterRow };
}
