// Every parse competitor (web APIs only; sluice, wasm, peer in `deps`): `setup(ctx, deps)` returns `run()`, timed.
import { pieces } from '../harness/stats.mjs';
import { buildBatches, parseBatches } from './element_batches.mjs';

const now = () => performance.now();
const touchOf = (field) => (field ? (value) => value[field] : (value) => value);
const KIND = { simd: 'simd128', scalar: 'scalar' };
const UPPER = { simd: 'SIMD', scalar: 'scalar' };

/** `$._embedded.articles[*]` -> ['_embedded', 'articles']. */
export const pathNames = (path) => [...path.matchAll(/\.([^.[]+)/g)].map((m) => m[1]);

/** Reads `body` to its end with getReader() (WebKit's ReadableStream is not async-iterable). */
export async function eachChunk(body, onChunk) {
  const reader = body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) onChunk(r.value);
}

export function counter(ctx, touch = touchOf(ctx.field)) {
  const tally = { elements: 0, checksum: 0 };
  tally.add = (value) => {
    if (ctx.firstAt === 0) ctx.firstAt = now();
    tally.elements++;
    tally.checksum += touch(value);
  };
  return tally;
}

/** Loads `build` and checks it is the one loaded: a fallback would make both rows measure the same thing. */
async function initBuild(deps, build) {
  await deps.sluice.init(deps.wasm[build]);
  const kind = deps.internal.loadedBuildKind();
  if (kind !== KIND[build]) throw new Error(`expected the ${KIND[build]} build to be loaded, got ${kind}`);
}

const OUTPUT_LABEL = { value: 'sluice', bytes: 'sluice bytes mode', none: 'sluice scan only, no element' };

/** sluice's push parser; 'none' selects nothing (copy, scan, validation); `query`: node.mjs's query rows. */
export function sluice(build, output = 'value', { integers, query, ...name } = {}) {
  const none = output === 'none';
  const bytes = output === 'bytes' || none;
  return {
    id: output === 'value' ? `sluice-${build}` : `sluice-${output}-${build}`,
    label: `${OUTPUT_LABEL[output]} (${UPPER[build]})`,
    ...name,
    expectsNoElements: none,
    optIn: integers !== undefined,
    query,
    async setup(ctx, deps) {
      await initBuild(deps, build);
      const { chunks } = ctx;
      const { path = ctx.path, order, withNormalizedPath, keep } = query ?? {};
      const field = touchOf(ctx.field);
      // bytes mode sums the elements' lengths; a BigInt adds as the double JSON.parse reads (both round alike).
      const plain = bytes ? (element) => element.length : integers ? (value) => Number(field(value)) : field;
      // With normalized paths an element is a record: its value and its path are both read.
      const touch = withNormalizedPath ? (r) => plain(r.value) + r.normalizedPath.length : plain;
      const options = none
        ? { path: '$.__sluice_selects_nothing__[*]', output: 'bytes' }
        : { path, output, integers, order, withNormalizedPath };
      return () => {
        const parser = deps.sluice.createParser(options);
        let elements = 0;
        let checksum = 0;
        const consume = (batch) => {
          if (batch.length === 0) return;
          if (ctx.firstAt === 0) ctx.firstAt = now();
          if (keep === undefined) {
            elements += batch.length;
            for (let i = 0; i < batch.length; i++) checksum += touch(batch[i]);
            return;
          }
          for (let i = 0; i < batch.length; i++) {
            if (!keep(batch[i])) continue;
            elements++;
            checksum += touch(batch[i]);
          }
        };
        for (let i = 0; i < chunks.length; i++) consume(parser.push(chunks[i]));
        consume(parser.end());
        return { elements, checksum: bytes ? null : checksum, bytes: none ? ctx.input.length : undefined };
      };
    },
  };
}

const sluiceHttp = (build) => ({
  id: `sluice-${build}`,
  label: `sluice parseJsonArray(res.body) (${UPPER[build]})`,
  async setup(ctx, deps) {
    await initBuild(deps, build);
    return async () => {
      const res = await fetch(ctx.url);
      const tally = counter(ctx);
      for await (const value of deps.sluice.parseJsonArray(res.body, { path: ctx.path })) tally.add(value);
      return tally;
    };
  },
});

/** `batch` (UTF-8 JSON) as sluice's wasm writes it: every non-ASCII UTF-16 unit a lower-case \uXXXX escape. */
function asciiEscaped(batch) {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(batch);
  const uEscape = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return new TextEncoder().encode(text.replace(/[\u0080-\uffff]/g, uEscape));
}

/** Value mode's ceiling: its batches (cut before the clock) by one decode + JSON.parse each; UTF-8 or as wasm writes. */
export const ceiling = (form, label) => ({
  id: form === 'ascii' ? 'ceiling-ascii' : 'ceiling',
  label: label ?? `ceiling: decode + JSON.parse per batch (${form === 'ascii' ? 'ASCII-escaped' : 'UTF-8'})`,
  setup(ctx) {
    const built = buildBatches(ctx.input, ctx.path, ctx.chunkSize);
    const batches = form === 'ascii' ? built.map(asciiEscaped) : built;
    return () => parseBatches(batches, ctx, touchOf(ctx.field));
  },
});

const whole = (id, label, read) => ({
  id,
  label,
  setup(ctx) {
    const names = pathNames(ctx.path);
    const touch = touchOf(ctx.field);
    return async () => {
      let values = read ? await read(await fetch(ctx.url)) : JSON.parse(new TextDecoder().decode(ctx.input));
      for (const name of names) values = values[name];
      ctx.firstAt = now();
      let checksum = 0;
      for (let i = 0; i < values.length; i++) checksum += touch(values[i]);
      return { elements: values.length, checksum };
    };
  },
});

export const streamparser = (http) => ({
  id: 'streamparser',
  label: http ? '@streamparser/json (res.body chunks)' : '@streamparser/json',
  package: '@streamparser/json',
  setup(ctx, deps) {
    const selector = ['$', ...pathNames(ctx.path), '*'].join('.');
    return async () => {
      const res = http ? await fetch(ctx.url) : null;
      const parser = new deps.streamparser.JSONParser({ paths: [selector], keepStack: false });
      const tally = counter(ctx);
      parser.onValue = ({ value }) => tally.add(value);
      // It ends itself when the root value closes; a second end() would throw.
      if (http) await eachChunk(res.body, (chunk) => parser.isEnded || parser.write(chunk));
      else for (let i = 0; i < ctx.chunks.length; i++) parser.write(ctx.chunks[i]);
      if (!parser.isEnded) parser.end();
      return tally;
    };
  },
});

/** The transfer alone, the body read and dropped: other rows minus this one is what parsing adds at the end. */
const drain = {
  id: 'drain',
  label: 'body read, not parsed (the transfer)',
  expectsNoElements: true,
  setup: (ctx) => async () => {
    const res = await fetch(ctx.url);
    let bytes = 0;
    await eachChunk(res.body, (chunk) => {
      if (ctx.firstAt === 0) ctx.firstAt = now();
      bytes += chunk.length;
    });
    return { elements: 0, checksum: null, bytes };
  },
};

export const JSON_PARSE = whole('json-parse', 'JSON.parse (whole text)');
const RES_JSON = whole('res-json', 'await res.json()', (res) => res.json());

export const COMPETITORS = [sluice('simd'), sluice('scalar'), JSON_PARSE, streamparser(false)];

/** The engine matrix over HTTP (JSON.parse(await res.text()) measured as res.json() within noise: not run). */
export const HTTP_COMPETITORS = [drain, sluiceHttp('simd'), sluiceHttp('scalar'), RES_JSON, streamparser(true)];

export const CEILING_COMPETITORS = [
  sluice('simd'),
  sluice('scalar'),
  ceiling('utf8'),
  ceiling('ascii'),
  ...['bytes', 'none'].flatMap((output) => [sluice('simd', output), sluice('scalar', output)]),
  streamparser(false),
];

/** Reads a byte per page of `input`: a VM may map a freshly read file lazily, and its first touch is no parse's. */
export function touchPages(input) {
  let touched = 0;
  for (let at = 0; at < input.length; at += 4096) touched += input[at];
  return touched;
}

export function makeContext(input, { path, field, chunkSize }) {
  touchPages(input);
  return { input, chunks: pieces(input, chunkSize), chunkSize, path, field, firstAt: 0 };
}
