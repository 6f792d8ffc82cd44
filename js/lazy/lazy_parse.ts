// lazyParse(): a buffered JSON document that reads like the JSON.parse result but only materialises what is
// touched. The bytes are copied into wasm memory once; one structural pass finds every container; the rest
// happens on access (container_handlers.ts).
import { MAX_DEPTH } from '../native/contract.js';
import { requireRuntime } from '../native/loader.js';
import { describeType } from '../validate.js';
import { keepShapes, lazyContainer } from './container_handlers.js';
import { LazyDocument } from './lazy_document.js';
import {
  NO_CONTAINER, OUT_ROOT_CONTAINER, OUT_ROOT_END, OUT_ROOT_START, lazyBinding, lazyError, type LazyBinding,
} from './native_lazy.js';

/** Options of {@link lazyParse}. */
export interface LazyParseOptions {
  /**
   * Deepest nesting allowed, 1 to 1,000,000 (as in the parser).
   * @default 1024
   */
  readonly maxDepth?: number;
}

const encoder = new TextEncoder();
/** The documents lazyParse returned, for releaseLazy. */
const roots = new WeakMap<object, LazyDocument>();

/**
 * Parses a buffered JSON document lazily. Returns what `JSON.parse` would (an object, an array, or a scalar root
 * as is), except that objects and arrays are read-only proxies materialising members on first access: reading
 * three fields of a large response costs a structural scan of the bytes plus those three fields.
 *
 * Needs the WebAssembly module loaded (`await init()` first). Reads behave like the JSON.parse result: property
 * access, `in`, `Object.keys`/`entries`, `for...in`, iteration and `length` of arrays, `Array.isArray`, spreading,
 * `JSON.stringify` (same text), duplicate keys (the last wins), `__proto__` as an own key. Writes to the
 * document, and to every member that stays lazy (objects and arrays of 1 KiB of text and more, 256 bytes in an
 * array of objects or arrays), throw a `TypeError`; smaller members, strings and numbers are the plain values
 * JSON.parse gives, materialised once and cached. A long member of an object with at most 8 members, one of them
 * long, and little other text (a document's spine) is a frozen plain object or array whose long member stays
 * lazy: writes to it throw in strict-mode code and are ignored in sloppy mode.
 *
 * Validation is lazy: the call checks the bracket structure (and a scalar root whole); every object or array is
 * checked when its members are first listed, every value when it is first materialised, with the parser's rules
 * and error classes (absolute offsets). Parts never read are not checked beyond their structure.
 *
 * @example
 * await init();
 * const tweets = lazyParse(bytes);
 * tweets.statuses[3].user.screen_name; // only this path is materialised
 *
 * @throws {JsonSyntaxError | JsonLimitError} for a broken structure (here) or invalid parts (when read).
 * @throws {TypeError} for input that is not a Uint8Array, ArrayBuffer or string, or invalid options.
 */
export function lazyParse<T = unknown>(input: Uint8Array | ArrayBuffer | string, options?: LazyParseOptions): T {
  const maxDepth = resolveMaxDepth(options);
  const binding = lazyBinding(requireRuntime('lazyParse'));
  // Once: objects of every class a document is made of, kept alive so that optimised code survives documents.
  keepShapes(() => new LazyDocument(binding, 0, 0, { maxDepth, maxElementBytes: 0 }, null));
  const { m, runtime } = binding;
  const handle = m._lazy_index_new(maxDepth, 0);
  if (handle === 0) throw new RangeError('sluice: out of memory creating a lazyParse() document');
  let doc: LazyDocument | undefined;
  try {
    let size: number;
    let base: number;
    let text: string | null = null;
    if (typeof input === 'string') {
      [base, size] = encodeInto(binding, handle, input);
      // ASCII (one byte per character): values are sliced from the string itself, no decoding needed.
      if (size === input.length) text = input;
    } else {
      const bytes = toBytes(input);
      size = bytes.length;
      // At least one byte: an empty buffer has no address (and the empty document is the parser's error).
      base = m._lazy_index_reserve(handle, Math.max(1, size));
      if (base === 0) throw new RangeError(`sluice: out of memory for a ${size}-byte lazyParse() document`);
      runtime.sync();
      runtime.u8.set(bytes, base);
    }
    const status = m._lazy_index_build(handle, size);
    const limits = { maxDepth, maxElementBytes: 0 };
    if (status !== 0) throw lazyError(binding, status, limits);
    runtime.sync();
    const u32 = runtime.u32;
    const rootContainer = u32[binding.out32 + OUT_ROOT_CONTAINER]!;
    const rootStart = u32[binding.out32 + OUT_ROOT_START]!;
    const rootEnd = u32[binding.out32 + OUT_ROOT_END]!;
    doc = new LazyDocument(binding, handle, base, limits, text);
    if (rootContainer === NO_CONTAINER) {
      // A scalar root, already validated whole: nothing to keep.
      const value = doc.parse(rootStart, rootEnd) as T;
      doc.release();
      return value;
    }
    const root = lazyContainer(doc, rootContainer, doc.byteAt(rootStart));
    roots.set(root, doc);
    return root as T;
  } catch (error) {
    if (doc !== undefined) doc.release();
    else m._lazy_index_delete(handle);
    throw error;
  }
}

/**
 * Frees the native memory of a document {@link lazyParse} returned, without waiting for the garbage collector.
 * Members materialised before stay usable; reading anything else from the document afterwards throws a
 * `TypeError`. Returns false for a value lazyParse did not return (or already released).
 */
export function releaseLazy(document: unknown): boolean {
  if (typeof document !== 'object' || document === null) return false;
  const doc = roots.get(document);
  if (doc === undefined || doc.released) return false;
  doc.release();
  return true;
}

/**
 * Writes `text` as UTF-8 into the document buffer, growing it when it has non-ASCII characters. Returns the
 * buffer's address and the byte length.
 */
function encodeInto(binding: LazyBinding, handle: number, text: string): [number, number] {
  const { m, runtime } = binding;
  let capacity = Math.max(1, text.length);
  let read = 0;
  let written = 0;
  for (;;) {
    const at = m._lazy_index_reserve(handle, capacity);
    if (at === 0) throw new RangeError(`sluice: out of memory for a ${capacity}-byte lazyParse() document`);
    runtime.sync();
    const rest = read === 0 ? text : text.substring(read);
    const result = encoder.encodeInto(rest, runtime.u8.subarray(at + written, at + capacity));
    read += result.read!;
    written += result.written!;
    if (read >= text.length) return [at, written];
    // At most 3 bytes per remaining UTF-16 unit.
    capacity = written + 3 * (text.length - read);
  }
}

function toBytes(input: unknown): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  const tag = Object.prototype.toString.call(input);
  if (tag === '[object Uint8Array]') return input as Uint8Array;
  if (tag === '[object ArrayBuffer]') return new Uint8Array(input as ArrayBuffer);
  throw new TypeError(`lazyParse(input) takes a Uint8Array, ArrayBuffer or string, got ${describeType(input)}`);
}

function resolveMaxDepth(options: LazyParseOptions | undefined): number {
  if (options === undefined) return 1024;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`options must be an object, got ${describeType(options)}`);
  }
  const value = options.maxDepth;
  if (value === undefined) return 1024;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_DEPTH) return value;
  throw new TypeError(`options.maxDepth must be an integer from 1 to ${MAX_DEPTH}, got ${String(value)}`);
}
