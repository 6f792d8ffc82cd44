// The parse competitors' Node side: `loadDeps()`, what parse.mjs's competitors need in Node, Deno and Bun; the
// Node-only streaming peers, stream-json and JSONStream, in memory (bench:parse and the matrix's Node column, fed
// the same chunks as every competitor) and over HTTP (the chunks of the fetch() body), each written as Buffers with
// backpressure; and bench:parse's list.
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { ceiling, counter, JSON_PARSE, pathNames, sluice, streamparser } from './parse.mjs';

const DIST = new URL('../../dist/', import.meta.url);
const STREAMPARSER = new URL('../node_modules/@streamparser/json/dist/mjs/index.js', import.meta.url);

/** parse.mjs's `deps` for `competitor`, from dist/ and bench/node_modules (by URL, so that Deno finds them). */
export async function loadDeps(competitor) {
  return {
    sluice: await import(new URL('index.js', DIST).href),
    internal: await import(new URL('internal.js', DIST).href),
    wasm: {
      simd: new Uint8Array(readFileSync(new URL('sluice.simd.wasm', DIST))),
      scalar: new Uint8Array(readFileSync(new URL('sluice.scalar.wasm', DIST))),
    },
    streamparser: competitor.package === '@streamparser/json' ? await import(STREAMPARSER.href) : null,
  };
}

/** Whether dist/ has what `competitor` loads (bench:parse skips a sluice build that is not built). */
export function built(competitor) {
  const need = competitor.build ? ['index.js', `sluice.${competitor.build}.wasm`] : [];
  return need.every((name) => existsSync(fileURLToPath(new URL(name, DIST))));
}

// Zero-copy Buffer views: the Node-stream peers want Buffers, and none of them should pay for a copy we add.
const asBuffer = (c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength);

/** Writes every chunk (the in-memory ones, or a fetch()ed body's as they arrive) into `stream`, then ends it. */
async function writeAll(ctx, buffers, stream) {
  if (ctx.url) {
    const reader = (await fetch(ctx.url)).body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (stream.write(asBuffer(value)) === false) await once(stream, 'drain');
    }
  } else {
    for (let i = 0; i < buffers.length; i++) {
      if (stream.write(buffers[i]) === false) await once(stream, 'drain');
    }
  }
  stream.end();
}

function peer(id, label, makeStream, done) {
  return {
    id,
    label,
    package: label,
    async setup(ctx) {
      const create = await makeStream(ctx);
      const buffers = ctx.chunks?.map(asBuffer) ?? [];
      return async () => {
        const stream = create();
        const tally = counter(ctx);
        stream.on('data', (data) => tally.add(id === 'stream-json' ? data.value : data));
        const ended = done(stream);
        await writeAll(ctx, buffers, stream);
        await ended;
        return tally;
      };
    },
  };
}

const streamJson = peer(
  'stream-json',
  'stream-json',
  async (ctx) => {
    const { default: chain } = await import('stream-chain');
    const { parser } = await import('stream-json');
    const { pick } = await import('stream-json/filters/pick.js');
    const { streamArray } = await import('stream-json/streamers/stream-array.js');
    const names = pathNames(ctx.path);
    return () => chain([parser(), ...(names.length ? [pick({ filter: names.join('.') })] : []), streamArray()]);
  },
  (stream) => finished(stream),
);

const jsonStream = peer(
  'jsonstream',
  'JSONStream',
  async (ctx) => {
    const { default: JSONStream } = await import('JSONStream');
    const selector = [...pathNames(ctx.path), '*'].join('.');
    return () => JSONStream.parse(selector);
  },
  (stream) =>
    new Promise((resolve, reject) => {
      stream.on('end', resolve);
      stream.on('error', reject);
    }),
);

export const NODE_PEERS = [streamJson, jsonStream];

/** A bench:parse row of sluice, with its own id and label (docs/benchmarks.md's parse tables). */
const parseRow = (build, output, integers) =>
  sluice(build, output, {
    integers,
    name: {
      id: `sluice-${output}${integers ? `-${integers}` : ''}-${build}`,
      label:
        output === 'none'
          ? `sluice validate only, no element (${build})`
          : `sluice ${output}${integers ? `, integers: '${integers}'` : ''} (${build})`,
    },
  });

/**
 * A bench:parse row of a query over the articles (issue 33's targets): `query` is { path, order, keep, expects },
 * `expects` the elements it must deliver as a share of the articles (every run is checked against it).
 */
const queryRow = (id, label, output, query) =>
  sluice('simd', output, { name: { id: `sluice-query-${id}-simd`, label: `${label} (simd)` }, query });

/** The articles with a score under 1000 (bench/articles.mjs: scores uniform in [0, 10000)): about 10 %. */
const LOW_SCORE = 1000;

/** bench:parse's rows of queries, run on the articles only. */
export const QUERY_ROWS = [
  queryRow('tags', 'sluice bytes, $._embedded.articles[*].tags', 'bytes', {
    path: '$._embedded.articles[*].tags',
  }),
  queryRow('descendant-tags', "sluice bytes, $..tags (order: 'arrival')", 'bytes', {
    path: '$..tags',
    order: 'arrival',
  }),
  queryRow('filter', `sluice value, $._embedded.articles[?@.score < ${LOW_SCORE}] (in wasm)`, 'value', {
    path: `$._embedded.articles[?@.score < ${LOW_SCORE}]`,
    filtered: true,
  }),
  queryRow('js-filter', `sluice value, $._embedded.articles[*] then a JS filter score < ${LOW_SCORE}`, 'value', {
    keep: (article) => article.score < LOW_SCORE,
    filtered: true,
  }),
];

/** bench:parse's competitors, in its tables' order. */
export const PARSE_COMPETITORS = [
  parseRow('simd', 'value'),
  parseRow('simd', 'bytes'),
  parseRow('scalar', 'value'),
  parseRow('scalar', 'bytes'),
  parseRow('simd', 'none'),
  parseRow('simd', 'value', 'bigint'),
  ceiling('utf8', 'ceiling: decode + JSON.parse per batch'),
  JSON_PARSE,
  streamparser(false),
  ...NODE_PEERS,
  ...QUERY_ROWS,
];
