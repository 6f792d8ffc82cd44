// bench:stringify's Node-only peers (json-stream-stringify, @discoveryjs/json-ext, JSONStream; the Node-stream ones
// also as a web Response body needs them), on stringify.mjs's contract.
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { PassThrough, Readable } from 'node:stream';
import { consumer, drainWebStream, makeDocument, makeSource, materialise, WEB_STRINGIFY } from './stringify.mjs';

const require = createRequire(import.meta.url);

const peer = (id, pkg, label, setup) => ({ id, package: pkg, label, setup });
const jsonStreamArticles = (ctx, source) =>
  // It reads Node object-mode streams as arrays (generators it would write as {}).
  ctx.kind === 'array' ? source : Readable.from(source, { objectMode: true });
const JSONSTREAM_FRAME = (ctx) => ['{"_embedded":{"articles":[', ',', `]},"total":${ctx.count}}`];

const jsonStreamStringify = peer(
  'json-stream-stringify',
  'json-stream-stringify',
  'json-stream-stringify',
  async () => {
    const { JsonStreamStringify } = await import('json-stream-stringify');
    return async (ctx) => {
      const articles = jsonStreamArticles(ctx, makeSource(ctx));
      const out = consumer(ctx);
      for await (const chunk of new JsonStreamStringify(makeDocument(ctx, articles))) out.chunk(chunk);
      return out.result();
    };
  },
);

const jsonExt = peer('json-ext', '@discoveryjs/json-ext', '@discoveryjs/json-ext stringifyChunked', async () => {
  const { stringifyChunked } = await import('@discoveryjs/json-ext');
  return async (ctx) => {
    // It takes no generators: rows are collected first (in the timed part).
    const rows = await materialise(ctx, makeSource(ctx));
    const out = consumer(ctx);
    for (const chunk of stringifyChunked(makeDocument(ctx, rows))) out.chunk(chunk);
    return out.result();
  };
});

const jsonStream = peer('jsonstream', 'JSONStream', 'JSONStream.stringify', async () => {
  const JSONStream = require('JSONStream');
  return async (ctx) => {
    const stream = JSONStream.stringify(...JSONSTREAM_FRAME(ctx));
    const out = consumer(ctx);
    stream.on('data', (chunk) => {
      out.chunk(chunk);
    });
    const ended = once(stream, 'end');
    const source = makeSource(ctx);
    if (ctx.kind === 'async') for await (const row of source) stream.write(row);
    else for (const row of source) stream.write(row);
    stream.end();
    await ended;
    return out.result();
  };
});

// The Node-stream peers as a web Response body needs them: Readable.toWeb, read like sluice's stream.
const webLabel = ' as a web stream (Readable.toWeb)';
const jsonStreamWeb = peer('jsonstream-web', 'JSONStream', `JSONStream.stringify${webLabel}`, async () => {
  const JSONStream = require('JSONStream');
  return async (ctx) => {
    const stream = JSONStream.stringify(...JSONSTREAM_FRAME(ctx));
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
});

const jsonStreamStringifyWeb = peer(
  'json-stream-stringify-web',
  'json-stream-stringify',
  `json-stream-stringify${webLabel}`,
  async () => {
    const { JsonStreamStringify } = await import('json-stream-stringify');
    return (ctx) => {
      const articles = jsonStreamArticles(ctx, makeSource(ctx));
      // Its chunks are strings, which Readable.toWeb cannot size: a PassThrough turns them into Buffers.
      const bytes = new JsonStreamStringify(makeDocument(ctx, articles)).pipe(new PassThrough());
      return drainWebStream(ctx, Readable.toWeb(bytes));
    };
  },
);

const { sluice, whole, naive, floor } = WEB_STRINGIFY;

/** bench:stringify's competitors, in its tables' order. */
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
