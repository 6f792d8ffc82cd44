// lazyParse(): a buffered JSON document that reads like the JSON.parse result but only materialises what is
// touched. The bytes are copied once (the document's own copy, in the JS heap: lazy_document.ts); one structural
// pass finds every container; the rest happens on access (handlers.ts).
import { isArrayBuffer, isUint8Array } from '../realm.js';
import { checkOptions, mustBe, resolveLimit } from '../validate.js';
import { resolveIntegers, type IntegersOption } from '../parse/integers.js';
import { keepShapes, lazyContainer, newHandler } from './handlers.js';
import type { ContainerHandler } from './container_handler.js';
import { LazyDocument } from './lazy_document.js';
import {
  CONTAINER_WORDS,
  NO_CONTAINER,
  OUT_COUNT,
  OUT_ROOT_CONTAINER,
  OUT_ROOT_END,
  OUT_ROOT_START,
} from './lazy_contract.js';
import { lazyBinding, lazyError } from './native_lazy.js';
import { Residency, evict, load, outOfMemory, setSize } from './residency.js';

/** Options of {@link lazyParse}. */
export interface LazyParseOptions {
  /**
   * Deepest nesting allowed, 1 to 1,000,000 (as in the parser).
   * @default 1024
   */
  readonly maxDepth?: number;
  /**
   * How integers outside ±(2^53 - 1) are read, as the push parser's `integers`: `'number'` rounded, as
   * `JSON.parse` reads them; `'bigint'` as a `BigInt` with every digit; `'string'` as their digits.
   * @default 'number'
   */
  readonly integers?: IntegersOption;
}

const API = 'lazyParse()';
const encoder = new TextEncoder();
/** The documents lazyParse returned, for releaseLazy. */
const roots = new WeakMap<object, LazyDocument<ContainerHandler>>();

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
 * @throws {JsonSyntaxError | JsonLimitError} for a broken structure (here) or invalid parts (when read); a
 *   JsonLimitError with code `OUT_OF_MEMORY` when the document does not fit.
 * @throws {TypeError} for input that is not a Uint8Array, ArrayBuffer or string, or invalid options.
 */
export function lazyParse<T = unknown>(input: Uint8Array | ArrayBuffer | string, options?: LazyParseOptions): T {
  const checked = checkOptions(API, options, ['maxDepth', 'integers']);
  const maxDepth = resolveLimit(API, checked, 'maxDepth');
  const integers = resolveIntegers(API, checked, 'integers');
  const binding = lazyBinding(API);
  const limits = { maxDepth, maxElementBytes: 0 };
  // Once: objects of every class a document is made of, kept alive so that optimised code survives documents.
  keepShapes(() => new LazyDocument(binding, new Uint8Array(1), null, new Residency(0), limits, newHandler));
  // The document's own copy, in the JS heap: the caller may change theirs.
  const bytes = copyOf(input);
  // ASCII (one byte per character): values are sliced from the string itself, no decoding needed.
  const text = typeof input === 'string' && bytes.length === input.length ? input : null;
  const residency = new Residency(bytes.length);
  const status = load(binding, residency, bytes, maxDepth);
  if (status !== 0) throw lazyError(binding, status, limits);
  const { m, heap } = binding;
  let doc: LazyDocument<ContainerHandler> | undefined;
  try {
    heap.sync_();
    const u32 = heap.u32_;
    const rootContainer = u32[binding.out32 + OUT_ROOT_CONTAINER]!;
    const rootStart = u32[binding.out32 + OUT_ROOT_START]!;
    const rootEnd = u32[binding.out32 + OUT_ROOT_END]!;
    if (rootContainer !== NO_CONTAINER) {
      m.lazy_index_containers(residency.handle);
      heap.sync_();
      setSize(binding, residency, bytes.length + 4 * CONTAINER_WORDS * heap.u32_[binding.out32 + OUT_COUNT]!);
    }
    doc = new LazyDocument(binding, bytes, text, residency, limits, newHandler, integers);
    if (rootContainer === NO_CONTAINER) {
      // A scalar root, already validated whole: nothing to keep.
      const value = doc.parse(rootStart, rootEnd) as T;
      doc.release();
      return value;
    }
    const root = lazyContainer(doc, rootContainer, doc.byteAt_(rootStart));
    roots.set(root, doc);
    return root as T;
  } catch (error) {
    if (doc !== undefined) doc.release();
    else evict(binding, residency);
    throw error;
  }
}

/**
 * Frees the memory of a document {@link lazyParse} returned, without waiting for the garbage collector.
 * Members materialised before stay usable; reading anything else from the document afterwards throws a
 * `TypeError`. Returns false for a value lazyParse did not return (or already released).
 */
export function releaseLazy(document: unknown): boolean {
  if (typeof document !== 'object' || document === null) return false;
  const doc = roots.get(document);
  if (doc === undefined || doc.released_) return false;
  doc.release();
  return true;
}

/** A copy of the document's bytes; a JsonLimitError when the engine cannot allocate it. */
function copyOf(input: unknown): Uint8Array {
  const bytes = typeof input === 'string' ? null : toBytes(input);
  const size = bytes === null ? (input as string).length : bytes.length;
  try {
    return bytes === null ? encoder.encode(input as string) : bytes.slice();
  } catch (error) {
    if (error instanceof RangeError) throw outOfMemory(size, error);
    throw error;
  }
}

function toBytes(input: unknown): Uint8Array {
  // Of any realm (an iframe, a vm context): js/realm.ts.
  if (isUint8Array(input)) return input;
  if (isArrayBuffer(input)) return new Uint8Array(input);
  throw mustBe(API, 'input', 'a Uint8Array, ArrayBuffer or string', input);
}
