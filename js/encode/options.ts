// The options of the encoders, their validation (a TypeError naming the option, thrown at the call) and the
// normalisation JSON.stringify applies to `space` and to an array `replacer`.
import { checkOptions, integerIn, mustBe, optionalOneOf, resolveLimit, type ApiName } from '../validate.js';
import { unbox } from './value_kinds.js';

// lib.d.ts's own replacer type, taken from JSON.stringify's first overload, so that any function JSON.stringify
// accepts is accepted here too.
type LibReplacer = typeof JSON.stringify extends {
  (value: unknown, replacer?: infer R, space?: string | number): string;
  (value: unknown, replacer?: (number | string)[] | null, space?: string | number): string;
}
  ? R
  : never;

/**
 * A `JSON.stringify` replacer function (the type lib.d.ts gives JSON.stringify's): `this` is the object or array
 * holding `value` under `key`.
 */
export type StringifyReplacer = Exclude<LibReplacer, undefined>;

/** @internal How the encoder calls a replacer function. */
export type ReplacerFunction = (this: unknown, key: string, value: unknown) => unknown;

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
  /**
   * Deepest nesting written, 1 to 1,000,000 (as the parsers': what a parser with the same `maxDepth` reads back);
   * a value nested deeper (a toJSON that returns a new object holding itself, endlessly) errors the stream with a
   * `JsonStringifyLimitError`.
   * @default 1024
   */
  readonly maxDepth?: number;
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
  readonly replacer: ReplacerFunction | undefined;
  /** The member names of an array replacer, deduplicated, in order (JSON.stringify's PropertyList). */
  readonly propertyList_: string[] | undefined;
  readonly bigint: typeof BIGINT_ERROR | typeof BIGINT_NUMBER | typeof BIGINT_STRING;
  readonly chunkBytes: number;
  readonly maxDepth: number;
}

/** @internal The options {@link StringifyOptions} defines, in the order messages list them. */
export const STRINGIFY_OPTIONS = ['space', 'replacer', 'bigint', 'chunkBytes', 'maxDepth'] as const;

const MIN_CHUNK_BYTES = 16;
const MAX_CHUNK_BYTES = 64 * 1024 * 1024;
const DEFAULT_CHUNK_BYTES = 16 * 1024;

/** The primitive inside a `Number` or `String` object (by internal slot), or `undefined` for anything else. */
function numberOrStringObject(value: object): number | string | undefined {
  const primitive = unbox(value);
  return typeof primitive === 'number' || typeof primitive === 'string' ? primitive : undefined;
}

function resolveSpace(api: ApiName, space: unknown): string {
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
  throw mustBe(api, 'options.space', 'a number or a string', space);
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
export function resolveStringifyOptions(api: ApiName, input: StringifyOptions | undefined): ResolvedStringifyOptions {
  const options = checkOptions(api, input, STRINGIFY_OPTIONS);
  const { replacer, chunkBytes } = options;

  let replacerFunction: ReplacerFunction | undefined;
  let propertyList: string[] | undefined;
  if (typeof replacer === 'function') replacerFunction = replacer as ReplacerFunction;
  else if (Array.isArray(replacer)) propertyList = resolvePropertyList(replacer);
  else if (replacer !== undefined && replacer !== null) {
    throw mustBe(api, 'options.replacer', 'a function or an array', replacer);
  }

  const bigint = optionalOneOf(api, options, 'bigint', ['number', 'string'] as const);
  const bigintMode = bigint === undefined ? BIGINT_ERROR : bigint === 'number' ? BIGINT_NUMBER : BIGINT_STRING;
  const size =
    chunkBytes === undefined
      ? DEFAULT_CHUNK_BYTES
      : integerIn(api, 'options.chunkBytes', chunkBytes, MIN_CHUNK_BYTES, MAX_CHUNK_BYTES);

  return {
    gap: resolveSpace(api, options.space),
    replacer: replacerFunction,
    propertyList_: propertyList,
    bigint: bigintMode,
    chunkBytes: size,
    // The parsers' range and default, so that what is written with the defaults is read back with them.
    maxDepth: resolveLimit(api, options, 'maxDepth'),
  };
}
