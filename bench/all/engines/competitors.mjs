// The parse competitors that run in any JavaScript engine: Node, Deno, Bun and a Chromium page (the page loads
// this very file). Web APIs only (TextDecoder, JSON, performance.now), so every engine runs the same code; the
// engine-specific part (loading sluice, the wasm and the peer) is `deps`, handed in by the caller.
//
// Each `setup(ctx, deps)` does everything that is not parsing and returns `run()`, the timed part: it consumes
// every element (counts it, adds one field to a checksum, so nothing can be optimised away) and records
// `ctx.firstAt` when the first element is delivered. The Node-only benchmark (bench/parse) measures the same way.
//
// ctx:  { input: Uint8Array, chunks: Uint8Array[] (subarrays of input), path, field, firstAt }
// deps: { sluice: the sluice module (dist/index.js), internal: dist/internal.js, wasm: { simd, scalar } (whatever
//         init() accepts), streamparser: the @streamparser/json module }
//
// CEILING_COMPETITORS (the harnesses' --ceiling set) measure value mode against its ceiling: the same elements,
// batched as value mode batches them (the elements each 64 KiB chunk completes), turned into values by one
// TextDecoder.decode + one JSON.parse per batch with no scanning at all; in two forms, the elements' own UTF-8 bytes
// and the ASCII-escaped text sluice's wasm writes (src/stream/ascii_json.h), since engines differ in which they
// parse faster. And bytes mode (each element a Uint8Array), and the scan alone (a path that selects nothing: the
// copy into wasm, the scan and the validation of every byte), which value mode cannot do without.
import { buildBatches, parseBatches } from '../../parse/element_batches.mjs';

const now = () => performance.now();

/** `$._embedded.articles[*]` -> ['_embedded', 'articles']: the member names leading to the selected array. */
export function pathNames(path) {
  return [...path.matchAll(/\.([^.[]+)/g)].map((m) => m[1]);
}

const touchOf = (field) => (field ? (value) => value[field] : (value) => value);

const KIND = { simd: 'simd128', scalar: 'scalar' };

const SCAN_ONLY_PATH = '$.__sluice_selects_nothing__[*]';

function sluice(build, output = 'value') {
  const none = output === 'none';
  const bytes = output === 'bytes' || none;
  const name = build === 'simd' ? 'SIMD' : 'scalar';
  return {
    id: output === 'value' ? `sluice-${build}` : `sluice-${output}-${build}`,
    label: none ? `sluice scan only, no element (${name})` : bytes ? `sluice bytes mode (${name})` : `sluice (${name})`,
    expectsNoElements: none,
    async setup(ctx, deps) {
      await deps.sluice.init(deps.wasm[build]);
      // A loader that fell back to the other build would make both rows measure the same thing.
      const kind = deps.internal.loadedBuildKind();
      if (kind !== KIND[build]) throw new Error(`expected the ${KIND[build]} build to be loaded, got ${kind}`);
      const { chunks, path } = ctx;
      const touch = bytes ? (element) => element.length : touchOf(ctx.field);
      return () => {
        const parser = deps.sluice.createParser(none ? { path: SCAN_ONLY_PATH, output: 'bytes' } : { path, output });
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
        // Bytes mode sums the elements' lengths: not a checksum the value competitors could agree on.
        return { elements, checksum: bytes ? null : checksum, bytes: none ? ctx.input.length : undefined };
      };
    },
  };
}

/** `batch` (UTF-8 JSON) as sluice's wasm writes it: every non-ASCII UTF-16 unit a lower-case \uXXXX escape. */
function asciiEscaped(batch) {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(batch);
  const uEscape = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return new TextEncoder().encode(text.replace(/[\u0080-\uffff]/g, uEscape));
}

function ceiling(form) {
  const ascii = form === 'ascii';
  return {
    id: ascii ? 'ceiling-ascii' : 'ceiling',
    label: `ceiling: decode + JSON.parse per batch (${ascii ? 'ASCII-escaped' : 'UTF-8'})`,
    setup(ctx) {
      const built = buildBatches(ctx.input, ctx.path, ctx.chunkSize).batches;
      const batches = ascii ? built.map(asciiEscaped) : built;
      const touch = touchOf(ctx.field);
      return () => parseBatches(batches, ctx, touch);
    },
  };
}

const jsonParse = {
  id: 'json-parse',
  label: 'JSON.parse (whole text)',
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
  setup(ctx, deps) {
    const selector = ['$', ...pathNames(ctx.path), '*'].join('.');
    const touch = touchOf(ctx.field);
    return () => {
      const parser = new deps.streamparser.JSONParser({ paths: [selector], keepStack: false });
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

export const COMPETITORS = [sluice('simd'), sluice('scalar'), jsonParse, streamparser];

/** The --ceiling set: value mode, its ceiling in both forms, bytes mode, and the fastest JS streaming peer. */
export const CEILING_COMPETITORS = [
  sluice('simd'),
  sluice('scalar'),
  ceiling('utf8'),
  ceiling('ascii'),
  sluice('simd', 'bytes'),
  sluice('scalar', 'bytes'),
  sluice('simd', 'none'),
  sluice('scalar', 'none'),
  streamparser,
];

/** The input as `chunkSize` subarrays: what a stream of that chunk size would hand over. */
/**
 * Reads one byte per page of `input`, so that it is "in memory" before any clock starts. Some virtual machines map a
 * freshly read file's pages lazily, and the first touch of 100 MB then costs 0.3 s or more, which would land inside
 * whichever timed run reads the input first. Also used by bench/parse/child.mjs.
 */
export function touchPages(input) {
  let touched = 0;
  for (let at = 0; at < input.length; at += 4096) touched += input[at];
  return touched;
}

export function makeContext(input, { path, field, chunkSize }) {
  touchPages(input);
  const chunks = [];
  for (let at = 0; at < input.length; at += chunkSize) chunks.push(input.subarray(at, at + chunkSize));
  return { input, chunks, chunkSize, path, field, firstAt: 0 };
}
