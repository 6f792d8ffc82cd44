// Validation of raw JSON by the WebAssembly parser. The selector can never match (an array would need 2^53
// elements), so the parser keeps no element bytes: it only checks the grammar, UTF-8 and depth, in O(1) memory
// however long a streamed fragment is.
import { loadedRuntime, loadRuntime, requireRuntime } from '../native/loader.js';
import { pathsAsGiven, resolveOptions } from '../parse/options.js';
import { ParserCore, type PushParser } from '../parse/parser.js';

const NOTHING = '$[9007199254740991]';
// Raw JSON is often the output of another encoder, which may nest deeper than the parser's default of 1024;
// the depth bitset costs max_depth / 8 bytes.
const MAX_DEPTH = 65536;

/** @internal A promise to await before validating when the module is not loaded yet, else undefined. */
export function runtimeLoading(): Promise<unknown> | undefined {
  return loadedRuntime() === undefined ? loadRuntime() : undefined;
}

/** @internal A push parser that only validates. The module must be loaded. */
export function createValidator(): PushParser<Uint8Array> {
  // createParser's core, its path given to the native parser as it is: the query parser stays out of the bundle.
  const api = 'createParser()';
  const options = resolveOptions(api, { path: NOTHING, output: 'bytes', maxDepth: MAX_DEPTH }, pathsAsGiven);
  return new ParserCore<Uint8Array>(requireRuntime(api), options);
}

/**
 * @internal Throws the parser's JsonSyntaxError (or JsonLimitError) unless `bytes` is exactly one JSON value. The
 * module must be loaded.
 */
export function validateWhole(bytes: Uint8Array): void {
  const parser = createValidator();
  try {
    parser.push(bytes);
    parser.end();
  } finally {
    parser.close();
  }
}

/** @internal The length of a UTF-8 byte order mark at the start of `bytes` (the parser skips it; we drop it). */
export function bomLength(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}
