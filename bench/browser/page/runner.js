// The page side of the browser benchmark: the same competitors as in Node, Deno and Bun (/competitors.mjs, from
// bench/all/engines), with the page's own way of loading sluice (the .wasm by URL, compiled while it streams in)
// and @streamparser/json (an esbuild bundle). main.mjs calls benchSetup(), takes the renderer's RSS baseline, then
// calls benchRun(): one run per fresh browser context.
import { COMPETITORS, makeContext } from '/competitors.mjs';
import { makeStringifyContext, STRINGIFY_COMPETITORS } from '/stringify_competitors.mjs';

let pending = null;

window.benchSetup = async (spec) => {
  if (spec.bench === 'stringify') return stringifySetup(spec);
  const { competitor: id, dataset, path, field, chunkSize } = spec;
  const competitor = COMPETITORS.find((c) => c.id === id);
  if (!competitor) throw new Error(`unknown competitor ${id}`);
  const input = new Uint8Array(await (await fetch(dataset, { cache: 'no-store' })).arrayBuffer());
  const ctx = makeContext(input, { path, field, chunkSize });
  const deps = {
    sluice: await import('/dist/index.js'),
    internal: await import('/dist/internal.js'),
    wasm: { simd: new URL('/dist/sluice.simd.wasm', location.href), scalar: new URL('/dist/sluice.scalar.wasm', location.href) },
    streamparser: competitor.package === '@streamparser/json' ? await import('/streamparser.js') : null,
  };
  pending = { ctx, run: await competitor.setup(ctx, deps) };
  // Chromium started with --js-flags=--expose-gc: the run starts from a collected heap, as in the Node children.
  gc();
  gc();
  return { bytes: input.length, userAgent: navigator.userAgent };
};

// The stringify competitors (bench/all/engines/stringify_competitors.mjs): nothing to fetch, rows made in the page.
async function stringifySetup({ competitor: id, count }) {
  const competitor = STRINGIFY_COMPETITORS.find((c) => c.id === id);
  if (!competitor) throw new Error(`unknown stringify competitor ${id}`);
  const ctx = makeStringifyContext({ count });
  const sluice = await import('/dist/index.js');
  await sluice.init(new URL('/dist/sluice.simd.wasm', location.href));
  pending = { ctx, run: await competitor.setup(ctx, { sluice }) };
  gc();
  gc();
  return { userAgent: navigator.userAgent };
}

window.benchRun = async () => {
  const { ctx, run } = pending;
  pending = null;
  const startedAt = performance.now();
  const { elements, checksum, bytes } = await run();
  const endedAt = performance.now();
  return { ms: endedAt - startedAt, firstElementMs: ctx.firstAt === 0 ? null : ctx.firstAt - startedAt, elements, checksum,
    bytes };
};
