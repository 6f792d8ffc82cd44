// Drives createParser over a list of chunks and records what came out, so that suites can compare the outcome of
// one chunking with another (or with JSON.parse) in one assertion.
import { createParser, JsonLimitError, JsonSyntaxError } from '../../dist/index.js';

export type Chunk = Uint8Array | string;
export type ParserOptions = NonNullable<Parameters<typeof createParser>[0]>;

export interface ErrorInfo {
  name: 'JsonSyntaxError' | 'JsonLimitError';
  code: string;
  offset: number;
  line: number;
  column: number;
}

export interface Outcome {
  values: unknown[];
  error: ErrorInfo | null;
}

const encoder = new TextEncoder();

/** The parse error's fields; anything else (a TypeError, a crash of the binding) is rethrown to fail the test. */
export function errorInfo(error: unknown): ErrorInfo {
  if (error instanceof JsonSyntaxError || error instanceof JsonLimitError) {
    const { code, offset, line, column } = error;
    return {
      name: error instanceof JsonSyntaxError ? 'JsonSyntaxError' : 'JsonLimitError',
      code,
      offset,
      line,
      column,
    };
  }
  throw error;
}

/**
 * Pushes every chunk, then ends. Stops at the first error, like a consumer would; the values completed before it
 * are kept (push returns them before the next call throws).
 */
export function parseChunks(chunks: Iterable<Chunk>, options?: ParserOptions): Outcome {
  const parser = createParser(options);
  const values: unknown[] = [];
  const collect = (batch: readonly unknown[]) => {
    for (const value of batch) values.push(value);
  };
  try {
    for (const chunk of chunks) collect(parser.push(chunk));
    collect(parser.end());
    return { values, error: null };
  } catch (error) {
    return { values, error: errorInfo(error) };
  } finally {
    parser.close();
  }
}

export function toBytes(input: Chunk): Uint8Array {
  return typeof input === 'string' ? encoder.encode(input) : input;
}

/** Two chunks, split before byte `at`. */
export function splitAt(bytes: Uint8Array, at: number): Uint8Array[] {
  return [bytes.subarray(0, at), bytes.subarray(at)];
}

/** One chunk per byte, lazily: a 250 KB input makes 250,000 views only as fast as the parser takes them. */
export function* oneByteChunks(bytes: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
}

/** Pieces of `size` bytes (the last one shorter), like a stream reading a file in fixed blocks. */
export function fixedPieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

export interface Rng {
  range(lo: number, hi: number): number;
  chance(p: number): boolean;
}

/** Pieces of 1..maxPiece bytes (sizes drawn from a log scale, so tiny pieces are as common as large ones). */
export function randomPieces(bytes: Uint8Array, rng: Rng, maxPiece: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  const maxBits = Math.log2(maxPiece);
  for (let at = 0; at < bytes.length; ) {
    const size = Math.max(1, Math.min(maxPiece, Math.round(2 ** ((rng.range(0, 1000) / 1000) * maxBits))));
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

/**
 * Pieces of a string, each sent as a string or, with probability `bytesShare`, as its UTF-8. With `splitPairs`
 * and only strings (`bytesShare` 0), a piece may end between the halves of a surrogate pair: the parser holds a
 * trailing high surrogate for the next string chunk. Half a pair has no UTF-8, so with byte pieces it never does.
 */
export function randomTextPieces(
  text: string,
  rng: Rng,
  maxPiece: number,
  bytesShare: number,
  splitPairs = false,
): Chunk[] {
  const pieces: Chunk[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + rng.range(1, maxPiece));
    const last = text.charCodeAt(end - 1);
    if ((bytesShare > 0 || !splitPairs) && end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    const piece = text.slice(at, end);
    pieces.push(rng.chance(bytesShare) ? encoder.encode(piece) : piece);
    at = end;
  }
  return pieces;
}

/** Expected line and column (1-based, column in bytes) of a byte offset, computed from the input itself. */
export function lineAndColumn(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** A seeded source of chunk sizes (tests/support/random_json.mjs's createRng). */
export interface CutRng {
  int(n: number): number;
  chance(p: number): boolean;
}

/** The chunkings the query suites feed each document in: whole, byte by byte, and at seeded random cuts. */
export const CUTS: Record<string, (rng: CutRng) => number> = {
  whole: () => Number.MAX_SAFE_INTEGER,
  'byte by byte': () => 1,
  'random cuts': (rng) => 1 + rng.int(rng.chance(0.3) ? 4 : 40),
};

/** Everything createParser(options) emits over `bytes` cut by `cut`. */
export function streamed(
  options: ParserOptions,
  bytes: Uint8Array,
  cut: (rng: CutRng) => number,
  rng: CutRng,
): unknown[] {
  const parser = createParser(options as never);
  const out: unknown[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = cut(rng);
    out.push(...parser.push(bytes.subarray(at, at + size)));
    at += size;
  }
  out.push(...parser.end());
  return out;
}
