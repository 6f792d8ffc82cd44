// The options of the encoders, their validation (a TypeError naming the option, thrown at the call) and the
// normalisation JSON.stringify applies to `space` and to an array `replacer`.
import { describeType } from '../validate.js';

/** A `JSON.stringify` replacer function: `this` is the object or array holding `value` under `key`. */
export type StringifyReplacer = (this: any, key: string, value: any) => any;

/** Options of {@link stringifyStream}, {@link StreamedJsonResponse} and {@link JsonArrayStringifyStream}. */
export interface StringifyOptions {
  /**
   * Indentation, as in `JSON.stringify`: a number of spaces (clamped to 10) or a string (its first 10 characters).
   * @default undefined (no whitespace)
   */
  readonly space?: string | number | null;
  /**
   * As in `JSON.stringify`: a function called for every member and element (for elements of a source, `this` is
   * the source and `key` the element's index), or an array naming the object members to write.
   * @default undefined
   */
  readonly replacer?: StringifyReplacer | readonly (string | number)[] | null;
  /**
   * How to write a `BigInt`: `'number'` as its digits (`12345678901234567890`), `'string'` as a JSON string
   * (`"12345678901234567890"`). Unset, a `BigInt` is a `TypeError`, as in `JSON.stringify`.
   * @default undefined
   */
  readonly bigint?: 'number' | 'string';
  /**
   * Size of the `Uint8Array` chunks the stream delivers (a chunk flushed early, when the encoder waits for a
   * source, is shorter), from 16 to 67,108,864.
   * @default 16384
   */
  readonly chunkBytes?: number;
}

/** @internal `options.bigint` unset: a BigInt is a TypeError. */
export const BIGINT_ERROR = 0;
/** @internal `options.bigint: 'number'`. */
export const BIGINT_NUMBER = 1;
/** @internal `options.bigint: 'string'`. */
export const BIGINT_STRING = 2;

/** @internal Options after validation, with defaults applied. */
export interface ResolvedStringifyOptions {
  /** The indentation unit; '' when compact. */
  readonly gap: string;
  readonly replacer: StringifyReplacer | undefined;
  /** The member names of an array replacer, deduplicated, in order (JSON.stringify's PropertyList). */
  readonly propertyList: string[] | undefined;
  readonly bigint: typeof BIGINT_ERROR | typeof BIGINT_NUMBER | typeof BIGINT_STRING;
  readonly chunkBytes: number;
}

const MIN_CHUNK_BYTES = 16;
const MAX_CHUNK_BYTES = 64 * 1024 * 1024;
const DEFAULT_CHUNK_BYTES = 16 * 1024;

const toString = Object.prototype.toString;

/** @internal The primitive inside a `Number` or `String` object, or `undefined` for anything else. */
export function numberOrStringObject(value: object): number | string | undefined {
  const tag = toString.call(value);
  // The tag alone can be forged with Symbol.toStringTag; the prototype method throws unless the internal slot
  // is there. JSON.stringify then converts with ToNumber/ToString, which may call user valueOf/toString.
  try {
    if (tag === '[object Number]') {
      Number.prototype.valueOf.call(value);
      return Number(value);
    }
    if (tag === '[object String]') {
      String.prototype.valueOf.call(value);
      return String(value);
    }
  } catch {
    // A forged tag: an ordinary object.
  }
  return undefined;
}

function resolveSpace(space: unknown): string {
  if (space === undefined || space === null) return '';
  if (typeof space === 'object') {
    const primitive = numberOrStringObject(space);
    if (primitive !== undefined) space = primitive;
  }
  if (typeof space === 'number') {
    // ToIntegerOrInfinity, clamped to 10, as in JSON.stringify (NaN and negative mean none).
    const n = Math.min(10, Math.trunc(space) || 0);
    return n >= 1 ? ' '.repeat(n) : '';
  }
  if (typeof space === 'string') return space.slice(0, 10);
  throw new TypeError(`options.space must be a number or a string, got ${describeType(space)}`);
}

function resolvePropertyList(replacer: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (let i = 0; i < replacer.length; i++) {
    let item = replacer[i];
    if (typeof item === 'object' && item !== null) item = numberOrStringObject(item);
    // Other items are ignored, as JSON.stringify ignores them.
    if (typeof item === 'string' || typeof item === 'number') seen.add(String(item));
  }
  return [...seen];
}

/** @internal Validates options eagerly and applies the defaults. */
export function resolveStringifyOptions(options: StringifyOptions | undefined): ResolvedStringifyOptions {
  if (options === undefined) options = {};
  else if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`options must be an object, got ${describeType(options)}`);
  }
  const { replacer, bigint, chunkBytes } = options;

  let replacerFunction: StringifyReplacer | undefined;
  let propertyList: string[] | undefined;
  if (typeof replacer === 'function') replacerFunction = replacer;
  else if (Array.isArray(replacer)) propertyList = resolvePropertyList(replacer);
  else if (replacer !== undefined && replacer !== null) {
    throw new TypeError(`options.replacer must be a function or an array, got ${describeType(replacer)}`);
  }

  let bigintMode: ResolvedStringifyOptions['bigint'];
  if (bigint === undefined) bigintMode = BIGINT_ERROR;
  else if (bigint === 'number') bigintMode = BIGINT_NUMBER;
  else if (bigint === 'string') bigintMode = BIGINT_STRING;
  else {
    const got = typeof bigint === 'string' ? JSON.stringify(bigint) : describeType(bigint);
    throw new TypeError(`options.bigint must be 'number' or 'string', got ${got}`);
  }

  let size = DEFAULT_CHUNK_BYTES;
  if (chunkBytes !== undefined) {
    if (typeof chunkBytes !== 'number' || !Number.isInteger(chunkBytes) || chunkBytes < MIN_CHUNK_BYTES ||
      chunkBytes > MAX_CHUNK_BYTES) {
      const got = typeof chunkBytes === 'number' ? String(chunkBytes) : describeType(chunkBytes);
      throw new TypeError(
        `options.chunkBytes must be an integer from ${MIN_CHUNK_BYTES} to ${MAX_CHUNK_BYTES}, got ${got}`);
    }
    size = chunkBytes;
  }

  return {
    gap: resolveSpace(options.space),
    replacer: replacerFunction,
    propertyList,
    bigint: bigintMode,
    chunkBytes: size,
  };
}
