// The competitors of bench:parse. Each `setup(ctx)` does everything that is not parsing (loading modules, the
// wasm, precomputed batches) and returns `run()`, the timed part: it consumes every element (counts it and adds
// one field to a checksum, so nothing can be optimised away) and records `ctx.firstAt` when the first element
// is delivered.
//
// ctx: { input: Uint8Array, chunks: Uint8Array[] (subarrays of input), chunkSize, path, field, firstAt }
import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { buildBatches, parseBatches } from './element_batches.mjs';

const DIST = new URL('../../dist/', import.meta.url);
const now = () => performance.now();

/** `$._embedded.articles[*]` -> ['_embedded', 'articles']: the member names leading to the selected array. */
export function pathNames(path) {
  return [...path.matchAll(/\.([^.[]+)/g)].map((m) => m[1]);
}

function touchOf(field) {
  return field ? (value) => value[field] : (value) => value;
}

function nodeBuffers(chunks) {
  // Zero-copy Buffer views: the Node-stream peers want Buffers, and none of them should pay for a copy we add.
  return chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength));
}

// output 'none': a path that selects nothing, so the run is the copy into wasm, the scan and the full validation
// of every byte, with no element handed to JS: what bytes mode costs before its Uint8Array views are made.
// integers: options.integers ('bigint': the opt-in row that measures its cost).
function sluice(output, build, integers) {
  const wasm = new URL(`sluice.${build}.wasm`, DIST);
  const none = output === 'none';
  return {
    id: integers ? `sluice-${output}-${integers}-${build}` : `sluice-${output}-${build}`,
    label: none
      ? `sluice validate only, no element (${build})`
      : `sluice ${output}${integers ? `, integers: '${integers}'` : ''} (${build})`,
    expectsNoElements: none,
    optIn: integers !== undefined,
    available: () => existsSync(fileURLToPath(wasm)) && existsSync(fileURLToPath(new URL('index.js', DIST))),
    async setup(ctx) {
      const { init, createParser } = await import(new URL('index.js', DIST).href);
      await init(readFileSync(wasm));
      const { chunks, path } = ctx;
      // bytes mode: the element is a Uint8Array; summing lengths touches every one without parsing it.
      const field = touchOf(ctx.field);
      // A BigInt adds as the double JSON.parse reads (both round the same integer), so the checksums agree.
      const touch =
        output === 'bytes'
          ? (bytes) => bytes.length
          : integers
            ? (value) => {
                const touched = field(value);
                return typeof touched === 'bigint' ? Number(touched) : touched;
              }
            : field;
      return () => {
        const parser = none
          ? createParser({ path: '$.__sluice_selects_nothing__[*]', output: 'bytes' })
          : createParser(integers ? { path, output, integers } : { path, output });
        let elements = 0;
        let checksum = 0;
        const consume = (batch) => {
          if (batch.length === 0) return;
          if (ctx.firstAt === 0) ctx.firstAt = now();
          elements += batch.length;
          for (let i = 0; i < batch.length; i++) checksum += touch(batch[i]);
        };
        for (let i = 0; i < chunks.length; i++) consume(parser.push(chunks[i]));
        consume(parser.end());
        return { elements, checksum };
      };
    },
  };
}

const ceiling = {
  id: 'ceiling',
  label: 'ceiling: decode + JSON.parse per batch',
  available: () => true,
  setup(ctx) {
    const { batches } = buildBatches(ctx.input, ctx.path, ctx.chunkSize);
    const touch = touchOf(ctx.field);
    return () => parseBatches(batches, ctx, touch);
  },
};

const jsonParse = {
  id: 'json-parse',
  label: 'JSON.parse (whole text)',
  available: () => true,
  setup(ctx) {
    const names = pathNames(ctx.path);
    const touch = touchOf(ctx.field);
    return () => {
      let values = JSON.parse(new TextDecoder().decode(ctx.input));
      for (const name of names) values = values[name];
      ctx.firstAt = now();
      let checksum = 0;
      for (let i = 0; i < values.length; i++) checksum += touch(values[i]);
      return { elements: values.length, checksum };
    };
  },
};

const streamparser = {
  id: 'streamparser',
  label: '@streamparser/json',
  package: '@streamparser/json',
  available: () => true,
  async setup(ctx) {
    const { JSONParser } = await import('@streamparser/json');
    const selector = ['$', ...pathNames(ctx.path), '*'].join('.');
    const touch = touchOf(ctx.field);
    return () => {
      const parser = new JSONParser({ paths: [selector], keepStack: false });
      let elements = 0;
      let checksum = 0;
      parser.onValue = ({ value }) => {
        if (ctx.firstAt === 0) ctx.firstAt = now();
        elements++;
        checksum += touch(value);
      };
      for (let i = 0; i < ctx.chunks.length; i++) parser.write(ctx.chunks[i]);
      // It ends itself when the root value closes; a second end() would throw.
      if (!parser.isEnded) parser.end();
      return { elements, checksum };
    };
  },
};

const streamJson = {
  id: 'stream-json',
  label: 'stream-json',
  package: 'stream-json',
  available: () => true,
  async setup(ctx) {
    const { default: chain } = await import('stream-chain');
    const { parser } = await import('stream-json');
    const { pick } = await import('stream-json/filters/pick.js');
    const { streamArray } = await import('stream-json/streamers/stream-array.js');
    const names = pathNames(ctx.path);
    const buffers = nodeBuffers(ctx.chunks);
    const touch = touchOf(ctx.field);
    return async () => {
      const stages = [parser()];
      if (names.length) stages.push(pick({ filter: names.join('.') }));
      stages.push(streamArray());
      const pipeline = chain(stages);
      let elements = 0;
      let checksum = 0;
      pipeline.on('data', ({ value }) => {
        if (ctx.firstAt === 0) ctx.firstAt = now();
        elements++;
        checksum += touch(value);
      });
      const done = finished(pipeline);
      for (let i = 0; i < buffers.length; i++) {
        if (!pipeline.write(buffers[i])) await once(pipeline, 'drain');
      }
      pipeline.end();
      await done;
      return { elements, checksum };
    };
  },
};

const jsonStream = {
  id: 'jsonstream',
  label: 'JSONStream',
  package: 'JSONStream',
  available: () => true,
  async setup(ctx) {
    const { default: JSONStream } = await import('JSONStream');
    const selector = [...pathNames(ctx.path), '*'].join('.');
    const buffers = nodeBuffers(ctx.chunks);
    const touch = touchOf(ctx.field);
    return async () => {
      const stream = JSONStream.parse(selector);
      let elements = 0;
      let checksum = 0;
      stream.on('data', (value) => {
        if (ctx.firstAt === 0) ctx.firstAt = now();
        elements++;
        checksum += touch(value);
      });
      const done = new Promise((resolve, reject) => {
        stream.on('end', resolve);
        stream.on('error', reject);
      });
      for (let i = 0; i < buffers.length; i++) {
        if (stream.write(buffers[i]) === false) await once(stream, 'drain');
      }
      stream.end();
      await done;
      return { elements, checksum };
    };
  },
};

export const COMPETITORS = [
  sluice('value', 'simd'),
  sluice('bytes', 'simd'),
  sluice('value', 'scalar'),
  sluice('bytes', 'scalar'),
  sluice('none', 'simd'),
  sluice('value', 'simd', 'bigint'),
  ceiling,
  jsonParse,
  streamparser,
  streamJson,
  jsonStream,
];
