// The options users pass, their types, and their eager validation: every mistake is a TypeError naming the
// option and what it got, thrown before any input is read.

/** How each selected element is delivered. */
export type OutputKind = 'value' | 'bytes' | 'text';

/** A `JSON.parse` reviver, applied to each element on its own. */
export type Reviver = (this: any, key: string, value: any) => any;

/** Options of {@link createParser}, {@link parseJsonArray} and {@link JsonArrayStream}. */
export interface ParserOptions {
  /**
   * Which elements to emit (JSONPath subset: `$`, `.name`, `['name']`, `["name"]`, `[*]`, `.*`, `[N]`).
   * `'$'` emits the root value as the one element.
   * @default '$[*]' ('$' with `ndjson`)
   */
  readonly path?: string;
  /**
   * Several selectors at once (at most 32); each element is emitted as `{ path, key, value }` naming the one
   * that matched. Not together with `path`.
   */
  readonly paths?: readonly string[];
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
   * Emit `{ path, key, value }`: `path` the selector that matched, `key` the member name, the array index (the
   * value's number in NDJSON) or `null` for the root.
   * @default false
   */
  readonly withPath?: boolean;
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
}

/** An element emitted with `withPath` or `paths`. */
export interface ElementWithPath<V> {
  /** The selector that matched, exactly as given in `path` or `paths` (or the default path). */
  path: string;
  /** The member name, the array index (the value's number in NDJSON), or `null` for the root value. */
  key: string | number | null;
  /** The element itself, in the chosen `output` form. */
  value: V;
}

// The refinements the overloads of createParser, parseJsonArray and JsonArrayStream pick the element type with.
// A general `ParserOptions` (output or withPath not known statically) falls through to `unknown` elements.
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
/** Options that emit bare elements. */
export type BareOptions = { readonly withPath?: false; readonly paths?: undefined };

/** @internal `output: 'value'`, as a small integer compared on the hot path. */
export const MODE_VALUE = 0;
/** @internal `output: 'bytes'`. */
export const MODE_BYTES = 1;
/** @internal `output: 'text'`. */
export const MODE_TEXT = 2;
/** @internal */
export type Mode = typeof MODE_VALUE | typeof MODE_BYTES | typeof MODE_TEXT;

// Native flags of the binding contract (HACKING.md).
/** @internal */
export const FLAG_NDJSON = 1;
const FLAG_VALUE_BATCHES = 2;
const FLAG_COVER_BATCHES = 4;
/** @internal Compact-lines batches: elements without insignificant whitespace, one per line (the CLI's select). */
export const FLAG_COMPACT_LINES = 16;

/** @internal Options after validation, with defaults applied. */
export interface ResolvedOptions {
  readonly paths: readonly string[];
  /** Which option named the paths, for messages: `path` or `paths`. */
  readonly pathOption: 'path' | 'paths';
  readonly mode: Mode;
  readonly reviver: Reviver | undefined;
  readonly wrap: boolean;
  readonly flags: number;
  readonly maxDepth: number;
  readonly maxElementBytes: number;
}

/** @internal The native parser accepts at most this many selectors. */
export const MAX_PATHS = 32;
const MAX_DEPTH_LIMIT = 1_000_000;
const MAX_ELEMENT_BYTES_LIMIT = 0xffff_ffff;

/** @internal Names a value's type for an error message: `null`, `number`, `Array`, `Uint16Array`, `object`... */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'Array';
  if (typeof value !== 'object') return typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : 'object';
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return describeType(value);
}

function optionalBoolean(options: ParserOptions, name: 'withPath' | 'ndjson'): boolean | undefined {
  const value = options[name];
  if (value === undefined || typeof value === 'boolean') return value;
  throw new TypeError(`options.${name} must be a boolean, got ${describeValue(value)}`);
}

function integerIn(
  options: ParserOptions,
  name: 'maxDepth' | 'maxElementBytes',
  max: number,
  fallback: number,
): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max) return value;
  throw new TypeError(`options.${name} must be an integer from 1 to ${max}, got ${describeValue(value)}`);
}

function resolvePaths(options: ParserOptions, ndjson: boolean): readonly string[] {
  const { path, paths } = options;
  if (paths !== undefined) {
    if (path !== undefined) throw new TypeError('options.path and options.paths cannot be used together');
    if (!Array.isArray(paths)) {
      throw new TypeError(`options.paths must be an array of strings, got ${describeType(paths)}`);
    }
    if (paths.length === 0) throw new TypeError('options.paths must hold at least one path');
    if (paths.length > MAX_PATHS) {
      throw new TypeError(`options.paths holds ${paths.length} paths; at most ${MAX_PATHS} are supported`);
    }
    for (let i = 0; i < paths.length; i++) {
      if (typeof paths[i] !== 'string') {
        throw new TypeError(`options.paths[${i}] must be a string, got ${describeValue(paths[i])}`);
      }
    }
    return paths.slice();
  }
  if (path === undefined) return [ndjson ? '$' : '$[*]'];
  if (typeof path !== 'string') throw new TypeError(`options.path must be a string, got ${describeValue(path)}`);
  return [path];
}

/**
 * @internal Validates options eagerly and applies the defaults. Path syntax is checked by the native parser when it is
 * created (see parser.ts), since the grammar lives there.
 */
export function resolveOptions(options: ParserOptions | undefined): ResolvedOptions {
  if (options === undefined) options = {};
  else if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`options must be an object, got ${describeType(options)}`);
  }
  const ndjson = optionalBoolean(options, 'ndjson') ?? false;
  const withPath = optionalBoolean(options, 'withPath');
  const paths = resolvePaths(options, ndjson);
  if (options.paths !== undefined && withPath === false) {
    throw new TypeError('options.paths always emits { path, key, value }; remove withPath: false');
  }

  const output = options.output ?? 'value';
  let mode: Mode;
  if (output === 'value') mode = MODE_VALUE;
  else if (output === 'bytes') mode = MODE_BYTES;
  else if (output === 'text') mode = MODE_TEXT;
  else throw new TypeError(`options.output must be 'value', 'bytes' or 'text', got ${describeValue(output)}`);

  const reviver = options.reviver;
  if (reviver !== undefined) {
    if (typeof reviver !== 'function') {
      throw new TypeError(`options.reviver must be a function, got ${describeValue(reviver)}`);
    }
    if (mode !== MODE_VALUE) throw new TypeError(`options.reviver applies to output 'value' only, not '${output}'`);
  }

  let flags = ndjson ? FLAG_NDJSON : 0;
  if (mode === MODE_VALUE) {
    // With a reviver each element is parsed on its own, from its element record, so no batch text is needed.
    if (reviver === undefined) flags |= FLAG_VALUE_BATCHES;
  } else {
    flags |= FLAG_COVER_BATCHES;
  }

  return {
    paths,
    pathOption: options.paths !== undefined ? 'paths' : 'path',
    mode,
    reviver,
    wrap: withPath === true || options.paths !== undefined,
    flags,
    maxDepth: integerIn(options, 'maxDepth', MAX_DEPTH_LIMIT, 1024),
    maxElementBytes: integerIn(options, 'maxElementBytes', MAX_ELEMENT_BYTES_LIMIT, 256 * 1024 * 1024),
  };
}
