// The parse competitors in Node: loadDeps (parse.mjs's deps in Node, Deno, Bun), Node-stream peers, bench:parse's list.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { depsLoader } from './matrix.mjs';
import { ceiling, counter, JSON_PARSE, pathNames, sluice, streamparser } from './parse.mjs';

const DIST = new URL('../../dist/', import.meta.url);
const STREAMPARSER = new URL('../node_modules/@streamparser/json/dist/mjs/index.js', import.meta.url);

const wasmBytes = (build) => new Uint8Array(readFileSync(new URL(`sluice.${build}.wasm`, DIST)));
/** parse.mjs's `deps` in Node, Deno and Bun, from dist/ and bench/node_modules (by URL, so that Deno finds them). */
export const loadDeps = depsLoader(DIST, wasmBytes, STREAMPARSER.href);

// Zero-copy Buffer views: the Node-stream peers want Buffers, and none of them should pay for a copy we add.
const asBuffer = (c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength);

/** Writes every chunk (the in-memory ones, or a fetch()ed body's as they arrive) into `stream`, then ends it. */
async function writeAll(ctx, buffers, stream) {
  if (ctx.url) {
    const reader = (await fetch(ctx.url)).body.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      if (stream.write(asBuffer(r.value)) === false) await once(stream, 'drain');
    }
  } else {
    for (let i = 0; i < buffers.length; i++) if (stream.write(buffers[i]) === false) await once(stream, 'drain');
  }
  stream.end();
}

/** A Node-stream peer (its id the package's name in lower case); `done(stream)` resolves once it has ended. */
const peer = (name, done, makeStream) => ({
  id: name.toLowerCase(),
  label: name,
  package: name,
  async setup(ctx) {
    const create = await makeStream(ctx);
    const buffers = ctx.chunks?.map(asBuffer) ?? [];
    return async () => {
      const stream = create();
      const tally = counter(ctx);
      stream.on('data', (data) => tally.add(name === 'stream-json' ? data.value : data));
      const ended = done(stream);
      await writeAll(ctx, buffers, stream);
      await ended;
      return tally;
    };
  },
});

const streamJson = peer('stream-json', finished, async (ctx) => {
  const { default: chain } = await import('stream-chain');
  const { parser } = await import('stream-json');
  const { pick } = await import('stream-json/filters/pick.js');
  const { streamArray } = await import('stream-json/streamers/stream-array.js');
  const names = pathNames(ctx.path);
  return () => chain([parser(), ...(names.length ? [pick({ filter: names.join('.') })] : []), streamArray()]);
});

const ended = (stream) => new Promise((resolve, reject) => stream.on('end', resolve).on('error', reject));
const jsonStream = peer('JSONStream', ended, async (ctx) => {
  const { default: JSONStream } = await import('JSONStream');
  const selector = [...pathNames(ctx.path), '*'].join('.');
  return () => JSONStream.parse(selector);
});

export const NODE_PEERS = [streamJson, jsonStream];

const parseRow = (build, output, integers) => {
  const id = `sluice-${output}${integers ? `-${integers}` : ''}-${build}`;
  const what =
    output === 'none' ? 'validate only, no element' : `${output}${integers ? `, integers: '${integers}'` : ''}`;
  return sluice(build, output, { integers, id, label: `sluice ${what} (${build})` });
};

// A query row (issue 33), `query`: { path, order, withNormalizedPath, keep, filtered }; a `keep` one labelled by hand.
const queryLabel = ({ path, order, withNormalizedPath, filtered }) =>
  `${path}${order ? ` (order: '${order}')` : ''}${withNormalizedPath ? ', withNormalizedPath' : ''}` +
  (filtered ? ' (in wasm)' : '');
const queryRow = (id, output, query, label = queryLabel(query)) =>
  sluice('simd', output, { id: `sluice-query-${id}-simd`, label: `sluice ${output}, ${label} (simd)`, query });

/** Scores are uniform in [0, 10000) (bench/articles.mjs): under 1000 is about 10 % of the articles. */
const LOW = 1000;
const ARTICLES = '$._embedded.articles';
const TAGS = `${ARTICLES}[*].tags`;
const JS_FILTER = `${ARTICLES}[*] then a JS filter score < ${LOW}`;

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
  queryRow('tags', 'bytes', { path: TAGS }),
  queryRow('descendant-tags', 'bytes', { path: '$..tags', order: 'arrival' }),
  queryRow('tags-normalized', 'bytes', { path: TAGS, withNormalizedPath: true }),
  queryRow('descendant-tags-normalized', 'bytes', { path: '$..tags', order: 'arrival', withNormalizedPath: true }),
  queryRow('filter', 'value', { path: `${ARTICLES}[?@.score < ${LOW}]`, filtered: true }),
  queryRow('js-filter', 'value', { keep: (a) => a.score < LOW, filtered: true }, JS_FILTER),
];
