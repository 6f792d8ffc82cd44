// The stringify competitors that run in any JavaScript engine (Node, Deno, Bun and the Chromium page load this very
// file): sluice's stringifyStream, JSON.stringify of the whole document, and the naive stream (JSON.stringify per
// row). The same ids and the same work as their namesakes in bench/stringify/competitors.mjs, which measures Node
// with the Node-only peers too; Web APIs only here (TextEncoder, ReadableStream, performance.now).
//
// The document is `{ _embedded: { articles: ASYNC_GENERATOR }, total: count }` (bench/stringify/articles.mjs: the
// rows of the articles dataset). `setup(ctx, deps)` returns `run()`, the timed part: it makes the source, encodes,
// consumes every chunk (counts its bytes and samples them into a checksum, so competitors that wrote different bytes
// disagree) and records `ctx.firstAt` when the first byte is out.
//
// ctx:  { count, firstAt }        deps: { sluice: the sluice module (dist/index.js) }
import { articleAsyncGenerator, preparePool } from '../stringify/articles.mjs';

const now = () => performance.now();
const encoder = new TextEncoder();
// Every 61st byte of the output (by absolute offset) goes into the checksum: cheap, and a shifted or changed
// byte anywhere changes it with high probability.
const STRIDE = 61;

function consumer(ctx) {
  let bytes = 0;
  let checksum = 0;
  return {
    chunk(value) {
      if (ctx.firstAt === 0) ctx.firstAt = now();
      for (let i = (STRIDE - (bytes % STRIDE)) % STRIDE; i < value.length; i += STRIDE)
        checksum = (checksum * 31 + value[i]) >>> 0;
      bytes += value.length;
    },
    result: () => ({ elements: ctx.count, bytes, checksum: `${bytes}:${checksum}` }),
  };
}

async function drain(ctx, stream) {
  const out = consumer(ctx);
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out.result();
    out.chunk(value);
  }
}

const document = (ctx, articles) => ({ _embedded: { articles }, total: ctx.count });

const sluice = {
  id: 'sluice',
  label: 'sluice stringifyStream',
  async setup(ctx, deps) {
    preparePool();
    return () => drain(ctx, deps.sluice.stringifyStream(document(ctx, articleAsyncGenerator(ctx.count))));
  },
};

const whole = {
  id: 'whole',
  label: 'JSON.stringify whole + TextEncoder',
  async setup(ctx) {
    preparePool();
    return async () => {
      const rows = [];
      for await (const row of articleAsyncGenerator(ctx.count)) rows.push(row);
      const out = consumer(ctx);
      out.chunk(encoder.encode(JSON.stringify(document(ctx, rows))));
      return out.result();
    };
  },
};

const naive = {
  id: 'naive',
  label: 'naive: JSON.stringify per row, one chunk each',
  async setup(ctx) {
    preparePool();
    return () => {
      const iterator = articleAsyncGenerator(ctx.count);
      let first = true;
      const stream = new ReadableStream(
        {
          start(controller) {
            controller.enqueue(encoder.encode('{"_embedded":{"articles":['));
          },
          async pull(controller) {
            const { done, value } = await iterator.next();
            if (done) {
              controller.enqueue(encoder.encode(`]},"total":${ctx.count}}`));
              controller.close();
              return;
            }
            controller.enqueue(encoder.encode((first ? '' : ',') + JSON.stringify(value)));
            first = false;
          },
        },
        { highWaterMark: 0 },
      );
      return drain(ctx, stream);
    };
  },
};

export const STRINGIFY_COMPETITORS = [sluice, whole, naive];

/** How many articles the stringify runs write (100,000: about 42 MB of JSON). */
export const STRINGIFY_COUNT = 100_000;

export function makeStringifyContext({ count }) {
  return { count, firstAt: 0 };
}
