// bench:stringify's Node-only peers, on stringify.mjs's contract; the Node-stream ones also as a web stream.
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { PassThrough, Readable } from 'node:stream';
import { collected, consumer, drainWebStream, eachRow, makeDocument, makeSource, WEB_STRINGIFY } from './stringify.mjs';

const require = createRequire(import.meta.url);

const peer = (id, pkg, label, setup) => ({ id, package: pkg, label, setup });
/** A Node-stream peer twice: as it is, and as a web Response body needs it (`-web`, Readable.toWeb). */
const bothWays = (pkg, label, setup) => [
  peer(pkg.toLowerCase(), pkg, label, () => setup(false)),
  peer(`${pkg.toLowerCase()}-web`, pkg, `${label} as a web stream (Readable.toWeb)`, () => setup(true)),
];
// It reads Node object-mode streams as arrays (generators it would write as {}).
const jsonStreamArticles = (ctx, source) =>
  ctx.kind === 'array' ? source : Readable.from(source, { objectMode: true });
async function writeRows(ctx, write) {
  const source = makeSource(ctx);
  if (ctx.kind === 'async') for await (const row of source) await write(row);
  else for (const row of source) await write(row);
}

const jsonStreamStringify = bothWays('json-stream-stringify', 'json-stream-stringify', async (web) => {
  const { JsonStreamStringify } = await import('json-stream-stringify');
  return async (ctx) => {
    const stream = new JsonStreamStringify(makeDocument(ctx, jsonStreamArticles(ctx, makeSource(ctx))));
    // Its chunks are strings, which Readable.toWeb cannot size: a PassThrough turns them into Buffers.
    if (web) return drainWebStream(ctx, Readable.toWeb(stream.pipe(new PassThrough())));
    const out = consumer(ctx);
    for await (const chunk of stream) out.chunk(chunk);
    return out.result();
  };
});

const jsonExt = peer('json-ext', '@discoveryjs/json-ext', '@discoveryjs/json-ext stringifyChunked', async () => {
  const { stringifyChunked } = await import('@discoveryjs/json-ext');
  return async (ctx) => {
    // It takes no generators: rows are collected first (in the timed part).
    const out = consumer(ctx);
    for (const chunk of stringifyChunked(await collected(ctx))) out.chunk(chunk);
    return out.result();
  };
});

const jsonStream = bothWays('JSONStream', 'JSONStream.stringify', async (web) => {
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

export const COMPETITORS = [sluice, whole, ...jsonStreamStringify, jsonExt, ...jsonStream, naive, floor];
