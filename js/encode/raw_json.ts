// rawJson(): JSON text the encoders write as it is, after validating it, and the mark by which the encoders
// recognise the iterators of parseJsonArray(..., { output: 'bytes' }), whose elements are validated JSON already.

import { isReadableStream, isUint8Array } from '../realm.js';
import { mustBe } from '../validate.js';

declare const rawJsonBrand: unique symbol;

/** Already-encoded JSON, made by {@link rawJson}. */
export interface RawJson {
  readonly [rawJsonBrand]: true;
}

/** What a {@link RawJson} holds. */
export type RawJsonSource = string | Uint8Array | ReadableStream<Uint8Array>;

const PAYLOAD = Symbol('sluice.rawJson');

/**
 * @internal Shared with parseJsonArray, which sets it (to `true`) on the iterator it returns for bare
 * `output: 'bytes'` elements: each element is one complete JSON value the parser validated, so the encoders write
 * it byte for byte instead of as a `Uint8Array` object. A registered symbol, so that two copies of the package
 * still agree.
 */
export const RAW_ELEMENTS: unique symbol = Symbol.for('sluice.rawElements') as never;

class RawJsonValue {
  readonly [PAYLOAD]: RawJsonSource;

  constructor(payload: RawJsonSource) {
    this[PAYLOAD] = payload;
    Object.freeze(this);
  }
}

/**
 * Marks already-encoded JSON: the encoders write it verbatim (a leading UTF-8 byte order mark dropped) wherever it
 * sits in the value, after the WebAssembly validator accepted it, so that a bad fragment can never corrupt the
 * output. A string or bytes are validated whole before any byte of them is written; a `ReadableStream` of bytes is
 * passed through chunk by chunk, each chunk written once it validated (a truncated stream errors the output).
 * The stream is read once: a `RawJson` of a stream can be written once.
 *
 * @example
 * stringifyStream({ cached: rawJson(cachedText), live: rawJson((await fetch(url)).body!) });
 *
 * @throws {TypeError} for anything but a string, a `Uint8Array` or a `ReadableStream`.
 */
export function rawJson(json: RawJsonSource): RawJson {
  if (typeof json !== 'string' && !isUint8Array(json) && !isReadableStream(json)) {
    throw mustBe('rawJson()', 'json', 'a string, a Uint8Array or a ReadableStream of bytes', json);
  }
  return new RawJsonValue(json) as unknown as RawJson;
}

/** @internal What `value` holds if it is a {@link RawJson}, else undefined. */
export function rawJsonPayload(value: object): RawJsonSource | undefined {
  return (value as { [PAYLOAD]?: RawJsonSource })[PAYLOAD];
}
