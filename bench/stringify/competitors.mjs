// The competitors of bench:stringify. Each writes the document `{ _embedded: { articles: SOURCE }, total: N }` as
// UTF-8 bytes, as a web server needs them (peers that produce strings pay for a TextEncoder.encode per chunk).
// `setup(ctx)` does what is not encoding (loading modules); `run()` is the timed part: it makes the source, encodes,
// consumes every chunk (counts its bytes) and records `ctx.firstByteAt` when the first byte is out.
//
// ctx: { kind: 'array' | 'sync' | 'async', count, rows (the array, for kind 'array'), firstRowAt, firstByteAt,
//        onChunk (null when timed; verify.mjs collects the output with it) }
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { articleAsyncGenerator, articleGenerator } from './articles.mjs';

const DIST = new URL('../../dist/', import.meta.url);
const require = createRequire(import.meta.url);
const now = () => performance.now();
const encoder = new TextEncoder();

/** The articles source of `ctx`, recording when its first row is handed out. */
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

export function makeDocument(ctx, articles) {
  return { _embedded: { articles }, total: ctx.count };
}

/** All rows of a source in an array: what the peers that take no generators need first. */
async function materialise(ctx, source) {
  if (ctx.kind === 'array') return source;
  const rows = [];
  if (ctx.kind === 'sync') for (const row of source) rows.push(row);
  else for await (const row of source) rows.push(row);
  return rows;
}

async function drainWebStream(ctx, stream) {
  const reader = stream.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes };
    if (ctx.firstByteAt === 0) ctx.firstByteAt = now();
    bytes += value.length;
    ctx.onChunk?.(value);
  }
}

function countText(ctx, chunk) {
  if (ctx.firstByteAt === 0) ctx.firstByteAt = now();
  const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
  ctx.onChunk?.(bytes);
  return bytes.length;
}

const sluice = {
  id: 'sluice',
  label: 'sluice stringifyStream',
  available: () => existsSync(fileURLToPath(new URL('encode/index.js', DIST))),
  async setup() {
    const { stringifyStream } = await import(new URL('encode/index.js', DIST).href);
    return (ctx) => drainWebStream(ctx, stringifyStream(makeDocument(ctx, makeSource(ctx))));
  },
};

const whole = {
  id: 'whole',
  label: 'JSON.stringify whole + TextEncoder',
  available: () => true,
  async setup() {
    return async (ctx) => {
      const rows = await materialise(ctx, makeSource(ctx));
      const bytes = encoder.encode(JSON.stringify(makeDocument(ctx, rows)));
      ctx.firstByteAt = now();
      ctx.onChunk?.(bytes);
      return { bytes: bytes.length };
    };
  },
};

const jsonStreamStringify = {
  id: 'json-stream-stringify',
  package: 'json-stream-stringify',
  label: 'json-stream-stringify',
  available: () => true,
  async setup() {
    const { JsonStreamStringify } = await import('json-stream-stringify');
    return async (ctx) => {
      const source = makeSource(ctx);
      // It reads Node object-mode streams as arrays (generators it would write as {}).
      const articles = ctx.kind === 'array' ? source : Readable.from(source, { objectMode: true });
      let bytes = 0;
      for await (const chunk of new JsonStreamStringify(makeDocument(ctx, articles))) bytes += countText(ctx, chunk);
      return { bytes };
    };
  },
};

const jsonExt = {
  id: 'json-ext',
  package: '@discoveryjs/json-ext',
  label: '@discoveryjs/json-ext stringifyChunked',
  available: () => true,
  async setup() {
    const { stringifyChunked } = await import('@discoveryjs/json-ext');
    return async (ctx) => {
      // It takes no generators: rows are collected first (in the timed part).
      const rows = await materialise(ctx, makeSource(ctx));
      let bytes = 0;
      for (const chunk of stringifyChunked(makeDocument(ctx, rows))) bytes += countText(ctx, chunk);
      return { bytes };
    };
  },
};

const jsonStream = {
  id: 'jsonstream',
  package: 'JSONStream',
  label: 'JSONStream.stringify',
  available: () => true,
  async setup() {
    const JSONStream = require('JSONStream');
    return async (ctx) => {
      const stream = JSONStream.stringify('{"_embedded":{"articles":[', ',', `]},"total":${ctx.count}}`);
      let bytes = 0;
      stream.on('data', (chunk) => {
        bytes += countText(ctx, chunk);
      });
      const ended = once(stream, 'end');
      const source = makeSource(ctx);
      if (ctx.kind === 'async') for await (const row of source) stream.write(row);
      else for (const row of source) stream.write(row);
      stream.end();
      await ended;
      return { bytes };
    };
  },
};

// The Node-stream peers as a web Response body needs them: Readable.toWeb, the standard bridge, read with a reader
// like sluice's stream (each 'data' string becomes a Buffer there).
const jsonStreamWeb = {
  id: 'jsonstream-web',
  package: 'JSONStream',
  label: 'JSONStream.stringify as a web stream (Readable.toWeb)',
  available: () => true,
  async setup() {
    const JSONStream = require('JSONStream');
    return async (ctx) => {
      const stream = JSONStream.stringify('{"_embedded":{"articles":[', ',', `]},"total":${ctx.count}}`);
      const body = Readable.toWeb(new Readable().wrap(stream));
      const writing = (async () => {
        const source = makeSource(ctx);
        const write = async (row) => {
          if (!stream.write(row)) await once(stream, 'drain');
        };
        if (ctx.kind === 'async') for await (const row of source) await write(row);
        else for (const row of source) await write(row);
        stream.end();
      })();
      const result = await drainWebStream(ctx, body);
      await writing;
      return result;
    };
  },
};

const jsonStreamStringifyWeb = {
  id: 'json-stream-stringify-web',
  package: 'json-stream-stringify',
  label: 'json-stream-stringify as a web stream (Readable.toWeb)',
  available: () => true,
  async setup() {
    const { JsonStreamStringify } = await import('json-stream-stringify');
    return (ctx) => {
      const source = makeSource(ctx);
      const articles = ctx.kind === 'array' ? source : Readable.from(source, { objectMode: true });
      // Its chunks are strings, which Readable.toWeb cannot size: a PassThrough turns them into Buffers.
      const bytes = new JsonStreamStringify(makeDocument(ctx, articles)).pipe(new PassThrough());
      return drainWebStream(ctx, Readable.toWeb(bytes));
    };
  },
};

const naive = {
  id: 'naive',
  label: 'naive: JSON.stringify per row, one chunk each',
  available: () => true,
  async setup() {
    return (ctx) => {
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
    };
  },
};

const floor = {
  id: 'floor',
  label: 'JS floor: JSON.stringify per row + encodeInto one buffer, no framing',
  available: () => true,
  async setup() {
    return async (ctx) => {
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
        if (ctx.firstByteAt === 0) ctx.firstByteAt = now();
      };
      const source = makeSource(ctx);
      if (ctx.kind === 'async') for await (const row of source) write(row);
      else for (const row of source) write(row);
      return { bytes: bytes + pos };
    };
  },
};

export const COMPETITORS = [
  sluice,
  whole,
  jsonStreamStringify,
  jsonStreamStringifyWeb,
  jsonExt,
  jsonStream,
  jsonStreamWeb,
  naive,
  floor,
];
