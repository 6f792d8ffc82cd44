// The parser options' public types, as dist/index.d.ts gives them to users: ParserOptions and its doc comments, the
// element records, and the types that map options to the elements they select. Their validation: options.ts.
import type { JsonLimitError, JsonSyntaxError } from '../errors.js';
import type { PathOrder } from '../query/lower.js';
import type { IntegersOption } from './integers.js';

/** How each selected element is delivered. */
export type OutputKind = 'value' | 'bytes' | 'text';

/** A `JSON.parse` reviver, applied to each element on its own. */
// biome-ignore lint/suspicious/noExplicitAny: the type of JSON.parse's own reviver (lib.es5.d.ts)
export type Reviver = (this: any, key: string, value: any) => any;

/** Options of {@link createParser}, {@link parseJsonArray} and {@link JsonArrayStream}. */
export interface ParserOptions {
  /**
   * Which elements to emit: an RFC 9535 JSONPath query of names (`.name`, `['name']`), wildcards (`*`), indices
   * and slices (`[N]`, `[start:end:step]`), the descendant segment (`..`), unions (`['a','b']`) and filters
   * (`[?@.score < 1000]`). `'$'` emits the root value as the one element. What the wasm parser cannot stream whole
   * (other filters than comparisons of `@` queries with literals, negative indices and slice parts, and in RFC order
   * `..` and unions) runs in JS on each element a first part of the query selects (`$.items[*]` of
   * `$.items[*]..id`), held whole, and a negative index or slice from a window over each array, the rest of the
   * query run on each element it takes (`$.data[-1].id`); with no such part (`$..id` in RFC order) the query is
   * refused, as is a filter reading `$` (docs/paths.md, "Streaming").
   * @default '$[*]' ('$' with `ndjson`)
   */
  readonly path?: string;
  /**
   * Several queries at once (at most 32 native selectors in all: a union counts one per combination); each
   * element is emitted as `{ path, key, value }` naming the query that matched. Not together with `path`.
   */
  readonly paths?: readonly string[];
  /**
   * The order of the matches. `'rfc'`: RFC 9535's nodelist of the query, exactly; a query whose nodelist can
   * differ from the order in which its matches complete (any `..`, and a union other than of indices in
   * increasing order) is run in JS after a native first part that selects elements, or refused (a `TypeError`)
   * when it has none, since that order would hold matches back (for `$..tags`, until the end of the document).
   * `'arrival'`: each selected node once, as its last byte arrives (a node inside another before it); a query
   * the wasm parser does not take whole gives the RFC's nodelist as in `'rfc'`. The matches of several `paths`
   * interleave as they arrive in either order.
   * @default 'rfc'
   */
  readonly order?: PathOrder;
  /**
   * `'value'`: what `JSON.parse` gives for the element's text; `'bytes'`: a `Uint8Array` of its exact bytes (a
   * copy, never parsed in JS; the elements completed by one chunk share one `ArrayBuffer`); `'text'`: its exact
   * text.
   * @default 'value'
   */
  readonly output?: OutputKind;
  /** As in `JSON.parse`, applied to each element on its own (`output: 'value'` only). */
  readonly reviver?: Reviver;
  /**
   * How integers outside ±(2^53 - 1) (`Number.MAX_SAFE_INTEGER`) are read (`output: 'value'` only): `'number'`
   * rounded, as `JSON.parse` reads them; `'bigint'` as a `BigInt` with every digit (written back as they came by
   * the encoders' `bigint: 'number'`); `'string'` as their digits (`"-12345678901234567890"`). Only integer
   * tokens (no fraction, no exponent); every other number, and every integer within the range, stays a number.
   * @default 'number'
   */
  readonly integers?: IntegersOption;
  /**
   * Emit `{ path, key, value }`: `path` the selector that matched, `key` the member name, the array index (the
   * value's number in NDJSON) or `null` for the root.
   * @default false
   */
  readonly withPath?: boolean;
  /**
   * Emit `{ value, offset, length }` (with `withPath` or `paths`: `{ path, key, value, offset, length }`):
   * where the element's text is in the input, `offset` its first byte and `length` its bytes, counted in the
   * input's UTF-8 (a string chunk counts as its UTF-8; a skipped byte order mark counts), so that
   * `input.subarray(offset, offset + length)` is exactly the element's text.
   * @default false
   */
  readonly withOffset?: boolean;
  /**
   * Add `normalizedPath`, where the element is as RFC 9535 §2.7 writes it (`$['items'][0]['name']`), to each
   * element's record (`{ value, normalizedPath }` alone; after `path`, `key`, `value`, `offset`, `length` with
   * `withPath`, `paths` or `withOffset`). Its cost: the parser reports the keys of the matches' ancestors as marker
   * selectors (within the 32 native selectors), one record per value where a path step has no fixed key (`*`, a
   * slice, a filter), and two per value beneath the first part of a query with `..` (docs/paths.md, "Normalized
   * paths"). In NDJSON each value is the `$` of its own paths.
   * @default false
   */
  readonly withNormalizedPath?: boolean;
  /**
   * The input is a sequence of top-level values (newline-delimited or concatenated); each one is an element.
   * @default false
   */
  readonly ndjson?: boolean;
  /**
   * Deepest nesting allowed, 1 to 1,000,000.
   * @default 1024
   */
  readonly maxDepth?: number;
  /**
   * Largest element (and retained object key) allowed, in bytes, 1 to 4,294,967,295.
   * @default 268435456 (256 MiB)
   */
  readonly maxElementBytes?: number;
  /**
   * With `ndjson`: a line that does not parse (or exceeds `maxDepth` or `maxElementBytes`) is passed here and
   * skipped, and parsing resumes at the next newline. Each line then holds at most one value. Called while the
   * chunk holding the error is parsed; elements the line completed before its error are still emitted. A throw
   * stops the parser with that error. Out of memory still throws.
   */
  readonly onInvalidLine?: (line: InvalidLine) => void;
}

/**
 * A line `onInvalidLine` skipped: the error the line would have thrown (its `code`, `offset`, `line`, `column` and
 * message), with the line's first bytes.
 */
export type InvalidLine = (JsonSyntaxError | JsonLimitError) & {
  /** The line's first bytes (at most 80, decoded as UTF-8), without its newline. */
  readonly lineText: string;
};

/** An element emitted with `withPath` or `paths`. */
export interface ElementWithPath<V> {
  /** The selector that matched, exactly as given in `path` or `paths` (or the default path). */
  path: string;
  /** The member name, the array index (the value's number in NDJSON), or `null` for the root value. */
  key: string | number | null;
  /** The element itself, in the chosen `output` form. */
  value: V;
}

/** An element emitted with `withNormalizedPath`, alone or with the fields of `withPath` and `withOffset`. */
export interface ElementWithNormalizedPath<V> {
  /** The element itself, in the chosen `output` form. */
  value: V;
  /** Where the element is, as an RFC 9535 normalized path: `$['a'][0]` (`$`: the root, or a value of NDJSON). */
  normalizedPath: string;
}

/** An element emitted with `withOffset`; with `withPath` too it is `ElementWithPath<V> & ElementWithOffset<V>`. */
export interface ElementWithOffset<V> {
  /** The element itself, in the chosen `output` form. */
  value: V;
  /** The stream offset of the element's first byte: bytes of UTF-8 input, a skipped byte order mark included. */
  offset: number;
  /** The element's length in bytes of input (its exact text, whitespace around it excluded). */
  length: number;
}

// MARK: element types

// The shapes of options the parser's signatures name. A general `ParserOptions` (output or withPath not known
// statically) selects `unknown` elements.
/** Options with `output: 'bytes'`: elements are `Uint8Array`s. */
export type BytesOptions = ParserOptions & { readonly output: 'bytes'; readonly reviver?: undefined };
/** Options with `output: 'text'`: elements are strings. */
export type TextOptions = ParserOptions & { readonly output: 'text'; readonly reviver?: undefined };
/** Options with `output: 'value'` (the default): elements are what `JSON.parse` gives. */
export type ValueOptions = ParserOptions & { readonly output?: 'value' };
/** Options that wrap each element in `{ path, key, value }`: `withPath: true`, or `paths`. */
export type WithPathOptions =
  | { readonly withPath: true }
  | { readonly paths: readonly string[]; readonly path?: undefined; readonly withPath?: true };
/** Options without `path` and `key` in the elements. */
export type NoPathOptions = { readonly withPath?: false; readonly paths?: undefined };
/** Options that add `offset` and `length` to each element: `withOffset: true`. */
export type WithOffsetOptions = { readonly withOffset: true };
/** Options without `offset` and `length` in the elements. */
export type NoOffsetOptions = { readonly withOffset?: false };
/** Options that add `normalizedPath` to each element: `withNormalizedPath: true`. */
export type WithNormalizedPathOptions = { readonly withNormalizedPath: true };
/** Options without `normalizedPath` in the elements. */
export type NoNormalizedPathOptions = { readonly withNormalizedPath?: false };
/** Options that emit bare elements. */
export type BareOptions = NoPathOptions & NoOffsetOptions & NoNormalizedPathOptions;

/**
 * The element type that options of type `O` select, `T` being the type of a parsed value: what `output` delivers
 * (`T` for `'value'`, the default; `Uint8Array` for `'bytes'`; `string` for `'text'`), wrapped in
 * {@link ElementWithPath} when `O` has `withPath: true` or `paths`, in {@link ElementWithOffset} when it has
 * `withOffset: true` (both: their intersection), with {@link ElementWithNormalizedPath} when it has
 * `withNormalizedPath: true`. `unknown` when `O` does not tell statically
 * (a general {@link ParserOptions}, `any`) or holds a combination the parser rejects (a reviver with bytes).
 * A union of options gives the union of their element types.
 *
 * @example
 * type A = ParsedElement<{ output: 'text'; withPath: true }>; // ElementWithPath<string>
 * type B = ParsedElement<{ path: string }, Article>; // Article
 */
export type ParsedElement<O, T = unknown> = 0 extends 1 & O
  ? unknown // any
  : O extends BytesOptions
    ? Wrapped<O, Uint8Array>
    : O extends TextOptions
      ? Wrapped<O, string>
      : O extends ValueOptions & object
        ? Wrapped<O, T>
        : unknown;

// `& object`: ValueOptions, NoPathOptions and NoOffsetOptions alone are weak types (every property optional), which
// options naming none of their properties (`{ output: 'bytes' }` for NoPathOptions) would fail to extend.
/**
 * `E`, bare or in a record with path and key, offset and length, or both, and the normalized path, as `O` says;
 * else `unknown`.
 */
type Wrapped<O, E> = O extends WithNormalizedPathOptions
  ? Recorded<O, E> & ElementWithNormalizedPath<E>
  : O extends NoNormalizedPathOptions & object
    ? Unnamed<O, E>
    : unknown;

/** The record of `withNormalizedPath` around `E`: with path and key, offset and length, both, or neither. */
type Recorded<O, E> = Shaped<O, E, { value: E }>;

/** `E` bare or in a record with path and key, offset and length, or both, as `O` says; else `unknown`. */
type Unnamed<O, E> = Shaped<O, E, E>;

/** The element type `O`'s withPath and withOffset give, `Bare` when neither is on; `unknown` when not known. */
type Shaped<O, E, Bare> = O extends WithOffsetOptions
  ? O extends WithPathOptions
    ? ElementWithPath<E> & ElementWithOffset<E>
    : O extends NoPathOptions & object
      ? ElementWithOffset<E>
      : unknown
  : O extends NoOffsetOptions & object
    ? O extends WithPathOptions
      ? ElementWithPath<E>
      : O extends NoPathOptions & object
        ? Bare
        : unknown
    : unknown;

/**
 * Options of type `O` that name only options of {@link ParserOptions}: a misspelt key (`outptu`) is a compile
 * error, as an object literal's excess property is where the parameter is not generic.
 */
export type ExactOptions<O> = O & { readonly [K in Exclude<keyof O, keyof ParserOptions>]: never };
