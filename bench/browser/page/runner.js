// The page side of the browser benchmark, the same in Chromium, Firefox and WebKit: the competitors of Node, Deno
// and Bun (bench/competitors/parse.mjs in memory and over HTTP,
// bench/competitors/stringify.mjs), with the page's own way of loading sluice (the .wasm by URL, compiled while it
// streams in) and @streamparser/json (an esbuild bundle). main.mjs calls benchSetup(), takes the content
// processes' RSS baseline, then calls benchRun(): one run per fresh page.
import {
  CEILING_COMPETITORS,
  COMPETITORS,
  HTTP_COMPETITORS,
  makeContext,
  makeHttpContext,
} from '/bench/competitors/parse.mjs';
import { makeStringifyContext, STRINGIFY_COMPETITORS } from '/bench/competitors/stringify.mjs';

let pending = null;

// Chromium runs with --js-flags=--expose-gc; Firefox and WebKit give pages no gc(): their runs start from a
// fresh page whose only garbage is the setup's.
const collect = () => {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    globalThis.gc();
  }
};

async function deps(competitor) {
  return {
    sluice: await import('/dist/index.js'),
    internal: await import('/dist/internal.js'),
    wasm: {
      simd: new URL('/dist/sluice.simd.wasm', location.href),
      scalar: new URL('/dist/sluice.scalar.wasm', location.href),
    },
    streamparser: competitor.package === '@streamparser/json' ? await import('/streamparser.js') : null,
  };
}

window.benchSetup = async (spec) => {
  if (spec.bench === 'stringify') {
    const competitor = STRINGIFY_COMPETITORS.find((c) => c.id === spec.competitor);
    if (!competitor) throw new Error(`unknown stringify competitor ${spec.competitor}`);
    const ctx = makeStringifyContext(spec);
    const sluice = await import('/dist/index.js');
    await sluice.init(new URL('/dist/sluice.simd.wasm', location.href));
    const write = await competitor.setup({ sluice });
    pending = { ctx, run: () => write(ctx) };
  } else {
    const http = spec.mode === 'http';
    const competitor = (http ? HTTP_COMPETITORS : [...COMPETITORS, ...CEILING_COMPETITORS]).find(
      (c) => c.id === spec.competitor,
    );
    if (!competitor) throw new Error(`unknown ${spec.mode} competitor ${spec.competitor}`);
    let ctx;
    if (http) ctx = makeHttpContext({ ...spec, url: new URL(spec.url, location.href).href });
    else
      ctx = makeContext(new Uint8Array(await (await fetch(spec.dataset, { cache: 'no-store' })).arrayBuffer()), spec);
    pending = { ctx, run: await competitor.setup(ctx, await deps(competitor)) };
  }
  collect();
  return { userAgent: navigator.userAgent, isolated: globalThis.crossOriginIsolated === true };
};

window.benchRun = async () => {
  const { ctx, run } = pending;
  pending = null;
  const startedAt = performance.now();
  const { elements, checksum, bytes } = await run();
  const endedAt = performance.now();
  return {
    ms: endedAt - startedAt,
    firstElementMs: ctx.firstAt === 0 ? null : ctx.firstAt - startedAt,
    elements,
    checksum,
    bytes,
  };
};
