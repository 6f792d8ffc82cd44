// The stringify competitors of any engine: `setup(deps)` returns `run(ctx)`, timed, writing the document as UTF-8.
import { articleArray, articleAsyncGenerator, articleGenerator, preparePool } from '../articles.mjs';
import { eachChunk } from './parse.mjs';

const now = () => performance.now();
const encoder = new TextEncoder();
const STRIDE = 61;

export function makeStringifyContext({ kind = 'async', count, sampled = true }) {
  // An array source exists before the run (it is the application's data); generators make rows as asked.
  const rows = kind === 'array' ? articleArray(count) : null;
  return { kind, count, rows, firstRowAt: 0, firstAt: 0, sampled, onChunk: null };
}

export function makeSource(ctx) {
  const first = () => {
    ctx.firstRowAt = now();
  };
  if (ctx.kind === 'array') {
    first();
    return ctx.rows;
  }
  return ctx.kind === 'sync' ? articleGenerator(ctx.count, first) : articleAsyncGenerator(ctx.count, first);
}

export const makeDocument = (ctx, articles) => ({ _embedded: { articles }, total: ctx.count });

/** `use(row)` for each row of `source`, not awaited (every caller's is synchronous). */
export async function eachRow(ctx, source, use) {
  if (ctx.kind === 'async') for await (const row of source) use(row);
  else for (const row of source) use(row);
}

/** The document with all its rows collected first: what the competitors that take no generators need. */
export async function collected(ctx) {
  const source = makeSource(ctx);
  if (ctx.kind === 'array') return makeDocument(ctx, source);
  const rows = [];
  await eachRow(ctx, source, (row) => rows.push(row));
  return makeDocument(ctx, rows);
}

/** Counts (and with ctx.sampled, checksums every 61st byte of) the output. */
export function consumer(ctx) {
  let bytes = 0;
  let checksum = 0;
  return {
    chunk(value) {
      if (ctx.firstAt === 0) ctx.firstAt = now();
      const chunk = typeof value === 'string' ? encoder.encode(value) : value;
      if (ctx.sampled) {
        for (let i = (STRIDE - (bytes % STRIDE)) % STRIDE; i < chunk.length; i += STRIDE)
          checksum = (checksum * 31 + chunk[i]) >>> 0;
      }
      ctx.onChunk?.(chunk);
      bytes += chunk.length;
      return chunk.length;
    },
    result: () => ({ elements: ctx.count, bytes, checksum: ctx.sampled ? `${bytes}:${checksum}` : undefined }),
  };
}

export async function drainWebStream(ctx, stream) {
  const out = consumer(ctx);
  await eachChunk(stream, out.chunk);
  return out.result();
}

const writer = (id, label, run) => ({
  id,
  label,
  async setup(deps) {
    preparePool();
    return (ctx) => run(ctx, deps);
  },
});

const sluice = writer('sluice', 'sluice stringifyStream', (ctx, deps) =>
  drainWebStream(ctx, deps.sluice.stringifyStream(makeDocument(ctx, makeSource(ctx)))),
);

const whole = writer('whole', 'JSON.stringify whole + TextEncoder', async (ctx) => {
  const out = consumer(ctx);
  out.chunk(encoder.encode(JSON.stringify(await collected(ctx))));
  return out.result();
});

const naive = writer('naive', 'naive: JSON.stringify per row, one chunk each', (ctx) => {
  const source = makeSource(ctx);
  const iterator = ctx.kind === 'async' ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
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
  return drainWebStream(ctx, stream);
});

/** What any JS encoder pays at least: JSON.stringify of each row into one reused buffer, no framing, no chunks. */
const floor = writer('floor', 'JS floor: JSON.stringify per row + encodeInto one buffer, no framing', async (ctx) => {
  const buffer = new Uint8Array(64 * 1024);
  let pos = 0;
  let bytes = 0;
  const write = (row) => {
    const text = JSON.stringify(row);
    if (pos + text.length * 3 > buffer.length) {
      bytes += pos;
      pos = 0;
    }
    pos += encoder.encodeInto(text, buffer.subarray(pos)).written;
    if (ctx.firstAt === 0) ctx.firstAt = now();
  };
  await eachRow(ctx, makeSource(ctx), write);
  return { elements: ctx.count, bytes: bytes + pos };
});

/** The engine matrix's writers (the floor is bench:stringify's alone). */
export const STRINGIFY_COMPETITORS = [sluice, whole, naive];
export const WEB_STRINGIFY = { sluice, whole, naive, floor };
