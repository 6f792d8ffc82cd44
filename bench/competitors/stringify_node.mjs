// bench:stringify's Node-only peers, on stringify.mjs's contract; the Node-stream ones also as a web stream.
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { PassThrough, Readable } from 'node:stream';
import {
  consumer,
  drainWebStream,
  eachRow,
  makeDocument,
  makeSource,
  materialise,
  WEB_STRINGIFY,
} from './stringify.mjs';

const require = createRequire(import.meta.url);

const peer = (id, pkg, label, setup) => ({ id, package: pkg, label, setup });
const webLabel = ' as a web stream (Readable.toWeb)';
// It reads Node object-mode streams as arrays (generators it would write as {}).
const jsonStreamArticles = (ctx, source) =>
  ctx.kind === 'array' ? source : Readable.from(source, { objectMode: true });
async function writeRows(ctx, write) {
  const source = makeSource(ctx);
  if (ctx.kind === 'async') for await (const row of source) await write(row);
  else for (const row of source) await write(row);
}

const jsonStreamStringify = (web) =>
  peer(
    `json-stream-stringify${web ? '-web' : ''}`,
    'json-stream-stringify',
    `json-stream-stringify${web ? webLabel : ''}`,
    async () => {
      const { JsonStreamStringify } = await import('json-stream-stringify');
      return async (ctx) => {
        const stream = new JsonStreamStringify(makeDocument(ctx, jsonStreamArticles(ctx, makeSource(ctx))));
        // Its chunks are strings, which Readable.toWeb cannot size: a PassThrough turns them into Buffers.
        if (web) return drainWebStream(ctx, Readable.toWeb(stream.pipe(new PassThrough())));
        const out = consumer(ctx);
        for await (const chunk of stream) out.chunk(chunk);
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

// The web variant is what a web Response body needs: Readable.toWeb, read like sluice's stream.
const jsonStream = (web) =>
  peer(`jsonstream${web ? '-web' : ''}`, 'JSONStream', `JSONStream.stringify${web ? webLabel : ''}`, async () => {
    const JSONStream = require('JSONStream');
    return async (ctx) => {
      const stream = JSONStream.stringify('{"_embedded":{"articles":[', ',', `]},"total":${ctx.count}}`);
      if (web) {
        const body = Readable.toWeb(new Readable().wrap(stream));
        const writing = writeRows(ctx, (row) => stream.write(row) || once(stream, 'drain')).then(() => stream.end());
        return (await Promise.all([drainWebStream(ctx, body), writing]))[0];
      }
      const out = consumer(ctx);
      stream.on('data', out.chunk);
      const ended = once(stream, 'end');
      await eachRow(ctx, makeSource(ctx), (row) => stream.write(row));
      stream.end();
      await ended;
      return out.result();
    };
  });

const { sluice, whole, naive, floor } = WEB_STRINGIFY;

export const COMPETITORS = [
  sluice,
  whole,
  jsonStreamStringify(false),
  jsonStreamStringify(true),
  jsonExt,
  jsonStream(false),
  jsonStream(true),
  naive,
  floor,
];
