// The Node-only streaming peers in the engine matrix, Node's column only: stream-json and JSONStream, in memory
// (the very competitors of bench:parse, fed the same 64 KiB chunks) and over HTTP (the chunks of the fetch() body
// written into them as Buffers, with backpressure, as bench:parse writes its chunks).
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { COMPETITORS as PARSE_COMPETITORS, pathNames } from '../../parse/competitors.mjs';

const now = () => performance.now();
const memory = (id) => PARSE_COMPETITORS.find((c) => c.id === id);

/** Writes every chunk of `res.body` into `stream` (a Node writable), then ends it. */
async function writeBody(res, stream) {
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (stream.write(Buffer.from(value.buffer, value.byteOffset, value.byteLength)) === false)
      await once(stream, 'drain');
  }
  stream.end();
}

const streamJsonHttp = {
  id: 'stream-json',
  label: 'stream-json',
  package: 'stream-json',
  async setup(ctx) {
    const { default: chain } = await import('stream-chain');
    const { parser } = await import('stream-json');
    const { pick } = await import('stream-json/filters/pick.js');
    const { streamArray } = await import('stream-json/streamers/stream-array.js');
    const names = pathNames(ctx.path);
    return async () => {
      const res = await fetch(ctx.url);
      const pipeline = chain([parser(), pick({ filter: names.join('.') }), streamArray()]);
      let elements = 0;
      let checksum = 0;
      pipeline.on('data', ({ value }) => {
        if (ctx.firstAt === 0) ctx.firstAt = now();
        elements++;
        checksum += value[ctx.field];
      });
      const done = finished(pipeline);
      await writeBody(res, pipeline);
      await done;
      return { elements, checksum };
    };
  },
};

const jsonStreamHttp = {
  id: 'jsonstream',
  label: 'JSONStream',
  package: 'JSONStream',
  async setup(ctx) {
    const { default: JSONStream } = await import('JSONStream');
    const selector = [...pathNames(ctx.path), '*'].join('.');
    return async () => {
      const res = await fetch(ctx.url);
      const stream = JSONStream.parse(selector);
      let elements = 0;
      let checksum = 0;
      stream.on('data', (value) => {
        if (ctx.firstAt === 0) ctx.firstAt = now();
        elements++;
        checksum += value[ctx.field];
      });
      const done = new Promise((resolve, reject) => {
        stream.on('end', resolve);
        stream.on('error', reject);
      });
      await writeBody(res, stream);
      await done;
      return { elements, checksum };
    };
  },
};

/** Node-only competitors by mode. */
export const NODE_PEERS = {
  memory: [memory('stream-json'), memory('jsonstream')],
  http: [streamJsonHttp, jsonStreamHttp],
};
