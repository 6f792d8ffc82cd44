// The Node-only stringify peers of bench:stringify: json-stream-stringify, @discoveryjs/json-ext and JSONStream,
// the Node-stream ones also as a web Response body needs them (Readable.toWeb). Same contract as stringify.mjs.
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { PassThrough, Readable } from 'node:stream';
import { consumer, drainWebStream, makeDocument, makeSource, materialise, WEB_STRINGIFY } from './stringify.mjs';

const require = createRequire(import.meta.url);

const jsonStreamStringify = {
  id: 'json-stream-stringify',
  package: 'json-stream-stringify',
  label: 'json-stream-stringify',
  async setup() {
    const { JsonStreamStringify } = await import('json-stream-stringify');
    return async (ctx) => {
      const source = makeSource(ctx);
      // It reads Node object-mode streams as arrays (generators it would write as {}).
      const articles = ctx.kind === 'array' ? source : Readable.from(source, { objectMode: true });
      const out = consumer(ctx);
      for await (const chunk of new JsonStreamStringify(makeDocument(ctx, articles))) out.chunk(chunk);
      return out.result();
    };
  },
};

const jsonExt = {
  id: 'json-ext',
  package: '@discoveryjs/json-ext',
  label: '@discoveryjs/json-ext stringifyChunked',
  async setup() {
    const { stringifyChunked } = await import('@discoveryjs/json-ext');
    return async (ctx) => {
      // It takes no generators: rows are collected first (in the timed part).
      const rows = await materialise(ctx, makeSource(ctx));
      const out = consumer(ctx);
      for (const chunk of stringifyChunked(makeDocument(ctx, rows))) out.chunk(chunk);
      return out.result();
    };
  },
};

const jsonStream = {
  id: 'jsonstream',
  package: 'JSONStream',
  label: 'JSONStream.stringify',
  async setup() {
    const JSONStream = require('JSONStream');
    return async (ctx) => {
      const stream = JSONStream.stringify('{"_embedded":{"articles":[', ',', `]},"total":${ctx.count}}`);
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
  },
};

// The Node-stream peers as a web Response body needs them: Readable.toWeb, the standard bridge, read with a reader
// like sluice's stream (each 'data' string becomes a Buffer there).
const jsonStreamWeb = {
  id: 'jsonstream-web',
  package: 'JSONStream',
  label: 'JSONStream.stringify as a web stream (Readable.toWeb)',
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
