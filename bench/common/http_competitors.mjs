// The parse competitors over HTTP, in any engine (Node, Deno and Bun children, and the browser pages load this very
// file): each run fetch()es a response the harness serves paced on 127.0.0.1 and consumes every element, with the
// same touch and checksum as the in-memory competitors (bench/all/engines/competitors.mjs). The clock starts
// before fetch(); `ctx.firstAt` is when the first element (the first byte, for the drain) was delivered.
//
// ctx:  { url, path, field, firstAt }
// deps: { sluice: dist/index.js, internal: dist/internal.js, wasm: { simd, scalar }, streamparser: its module }
import { pathNames } from '../all/engines/competitors.mjs';

const now = () => performance.now();
const touchOf = (field) => (field ? (value) => value[field] : (value) => value);
const KIND = { simd: 'simd128', scalar: 'scalar' };

/** Reads `body` to its end with getReader() (WebKit's ReadableStream is not async-iterable). */
async function eachChunk(body, onChunk) {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    onChunk(value);
  }
}

/** The transfer alone: the body read and dropped. Other rows minus this one is what parsing adds at the end. */
const drain = {
  id: 'drain',
  label: 'body read, not parsed (the transfer)',
  expectsNoElements: true,
  setup(ctx) {
    return async () => {
      const res = await fetch(ctx.url);
      let bytes = 0;
      await eachChunk(res.body, (chunk) => {
        if (ctx.firstAt === 0) ctx.firstAt = now();
        bytes += chunk.length;
      });
      return { elements: 0, checksum: null, bytes };
    };
  },
};

function sluice(build) {
  return {
    id: `sluice-${build}`,
    label: `sluice parseJsonArray(res.body) (${build === 'simd' ? 'SIMD' : 'scalar'})`,
    async setup(ctx, deps) {
      await deps.sluice.init(deps.wasm[build]);
      const kind = deps.internal.loadedBuildKind();
      if (kind !== KIND[build]) throw new Error(`expected the ${KIND[build]} build to be loaded, got ${kind}`);
      const touch = touchOf(ctx.field);
      return async () => {
        const res = await fetch(ctx.url);
        let elements = 0;
        let checksum = 0;
        for await (const value of deps.sluice.parseJsonArray(res.body, { path: ctx.path })) {
          if (ctx.firstAt === 0) ctx.firstAt = now();
          elements++;
          checksum += touch(value);
        }
        return { elements, checksum };
      };
    },
  };
}

function whole(id, label, read) {
  return {
    id,
    label,
    setup(ctx) {
      const names = pathNames(ctx.path);
      const touch = touchOf(ctx.field);
      return async () => {
        let values = await read(await fetch(ctx.url));
        for (const name of names) values = values[name];
        ctx.firstAt = now();
        let checksum = 0;
        for (let i = 0; i < values.length; i++) checksum += touch(values[i]);
        return { elements: values.length, checksum };
      };
    },
  };
}

const streamparser = {
  id: 'streamparser',
  label: '@streamparser/json (res.body chunks)',
  package: '@streamparser/json',
  setup(ctx, deps) {
    const selector = ['$', ...pathNames(ctx.path), '*'].join('.');
    const touch = touchOf(ctx.field);
    return async () => {
      const res = await fetch(ctx.url);
      const parser = new deps.streamparser.JSONParser({ paths: [selector], keepStack: false });
      let elements = 0;
      let checksum = 0;
      parser.onValue = ({ value }) => {
        if (ctx.firstAt === 0) ctx.firstAt = now();
        elements++;
        checksum += touch(value);
      };
      await eachChunk(res.body, (chunk) => {
        if (!parser.isEnded) parser.write(chunk);
      });
      if (!parser.isEnded) parser.end();
      return { elements, checksum };
    };
  },
};

export const HTTP_COMPETITORS = [
  drain,
  sluice('simd'),
  sluice('scalar'),
  // JSON.parse of the whole text, as a response gives it (JSON.parse(await res.text()) measured the same within
  // noise in every engine at 100 MB, and cost a sixth of the HTTP runs).
  whole('res-json', 'await res.json()', (res) => res.json()),
  streamparser,
];

export function makeHttpContext({ url, path, field }) {
  return { url, path, field, firstAt: 0 };
}
