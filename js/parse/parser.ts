// The synchronous push parser over one native parser: copies chunks into the input window, calls feed/finish
// (one boundary crossing per window), and materialises the completed elements a batch at a time.
import { errorFromStatus } from '../errors.js';
import { misuse, mustBe, type ApiName } from '../validate.js';
import { requireRuntime } from '../native/loader.js';
import {
  BATCH_ELEMENT_COUNT, BATCH_FIRST_ELEMENT, BATCH_LEN, BATCH_PTR, BATCH_WORDS, ELEMENT_INDEX_HI, ELEMENT_INDEX_LO,
  ELEMENT_KEY_KIND, ELEMENT_KEY_LEN, ELEMENT_KEY_PTR, ELEMENT_LEN, ELEMENT_PATH_INDEX, ELEMENT_PTR, ELEMENT_WORDS,
  KEY_INDEX, KEY_NAME, VIEW_BATCHES_PTR, VIEW_BATCH_COUNT, VIEW_ELEMENTS_PTR, VIEW_ELEMENT_COUNT, VIEW_ERROR_BYTE,
  VIEW_ERROR_COLUMN, VIEW_ERROR_LINE, VIEW_ERROR_OFFSET, VIEW_INPUT_CAPACITY, VIEW_INPUT_PTR, PATH_ACCEPTED,
  type NativeParser, type NativeRuntime,
} from '../native/contract.js';
import {
  MODE_BYTES, MODE_VALUE, resolveOptions, type BareOptions, type ElementWithPath, type ExactOptions,
  type ParsedElement, type ParserOptions, type ResolvedOptions, type ValueOptions, type WithPathOptions,
} from './options.js';

/** A chunk of input: bytes (a `Buffer` is a `Uint8Array`) or text. */
export type JsonChunk = Uint8Array | ArrayBuffer | string;

/** A synchronous push parser; see {@link createParser}. */
export interface PushParser<T> {
  /**
   * Feeds one chunk; returns the elements it completed, in order. If the chunk holds an error after some complete
   * elements, those are returned and the next call throws the error.
   * @throws {JsonSyntaxError | JsonLimitError} on invalid input; {TypeError} for a chunk of another type.
   */
  push(chunk: JsonChunk): T[];
  /**
   * Ends the input; returns the elements completed by its end (a root scalar) and reports truncated input.
   * Frees the parser.
   * @throws {JsonSyntaxError | JsonLimitError} on invalid or truncated input.
   */
  end(): T[];
  /** Frees the parser early. A no-op after `end()`, an error, or another `close()`. */
  close(): void;
}

/** With an explicit element type `T` and `withPath: true` or `paths`: elements are `{ path, key, value: T }`. */
export function createParser<T = unknown>(options: ValueOptions & WithPathOptions): PushParser<ElementWithPath<T>>;
/**
 * Creates a synchronous push parser. Needs the WebAssembly module loaded: `await init()` first. The element type
 * follows the options ({@link ParsedElement}); `T` is the type of a parsed value.
 *
 * @example
 * await init();
 * const parser = createParser<{ id: number }>({ path: '$.data[*]' });
 * for (const chunk of chunks) for (const item of parser.push(chunk)) use(item.id);
 * parser.end();
 *
 * @throws {TypeError} for invalid options (including a path the JSONPath subset rejects), and when the module is
 * not loaded yet.
 */
export function createParser<T = unknown, O extends ParserOptions = ValueOptions & BareOptions>(
  options?: ExactOptions<O>,
): PushParser<ParsedElement<O, T>>;
export function createParser(options?: ParserOptions): PushParser<unknown> {
  const api = 'createParser()';
  const resolved = resolveOptions(api, options);
  return new ParserCore(requireRuntime(api), resolved);
}

// Strings in the value and text paths are decoded from validated UTF-8. ignoreBOM: a member key or a string
// element may legitimately start with U+FEFF, which the default decoder would strip.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();
// What TextEncoder writes for a lone surrogate, for a high surrogate left over at a chunk boundary.
const REPLACEMENT_CHARACTER = new Uint8Array([0xef, 0xbf, 0xbd]);
const BACKSLASH = 0x5c;

// Backstop for parsers that are dropped without end() or close(): the native parser would leak in wasm memory.
// The held value is the native handle alone, so it does not keep the ParserCore reachable.
const registry = new FinalizationRegistry<NativeParser>((native) => {
  try {
    native.delete();
  } catch {
    // Already freed, or the module aborted: nothing left to release.
  }
});

/**
 * @internal The push parser behind createParser, parseJsonArray and JsonArrayStream. Beyond the public
 * interface, the iterators read `failure` after each call so they can deliver the returned elements before the
 * error.
 */
export class ParserCore<T = unknown> implements PushParser<T> {
  private readonly runtime: NativeRuntime;
  private readonly options: ResolvedOptions;
  private native: NativeParser | null;
  /** u32 index of the parser_view struct. */
  private readonly view: number;
  /** f64 index of the parser_view struct. */
  private readonly view64: number;
  /** A high surrogate that ended the last string chunk, waiting for its low half. */
  private pendingSurrogate = '';
  private closedBy: 'end()' | 'close()' | null = null;
  /** The error that stopped the parser; sticky. */
  failure: Error | null = null;

  constructor(runtime: NativeRuntime, options: ResolvedOptions) {
    const native = new runtime.native.Parser(options.maxDepth, options.maxElementBytes, options.flags);
    try {
      // resolveOptions() compiled every path and caps their count: a refusal here means the JS grammar
      // (json_path.ts) and the native one disagree, which no user input can cause.
      const paths = options.nativePaths;
      for (let i = 0; i < paths.length; i++) {
        const at = native.addPath(paths[i]!);
        if (at !== PATH_ACCEPTED) throw new Error(`sluice: the native parser refused the path ${paths[i]} (at ${at})`);
      }
    } catch (error) {
      native.delete();
      throw error;
    }
    const address = native.view();
    this.runtime = runtime;
    this.options = options;
    this.native = native;
    this.view = address >>> 2;
    this.view64 = address >>> 3;
    registry.register(this, native, this);
  }

  push(chunk: JsonChunk): T[] {
    if (this.native === null) throw this.stoppedError('push');
    let out: T[] | undefined;
    if (typeof chunk === 'string') {
      out = this.writeString(chunk);
    } else {
      const bytes = toBytes(chunk, this.options.api);
      if (this.pendingSurrogate !== '') {
        this.pendingSurrogate = '';
        out = this.writeBytes(REPLACEMENT_CHARACTER, out);
      }
      if (this.failure === null) out = this.writeBytes(bytes, out);
    }
    if (out === undefined) {
      if (this.failure !== null) throw this.failure;
      return [];
    }
    return out;
  }

  /**
   * Ends the input. Returns the elements completed at the end even when it fails (then `failure` is set): the
   * iterators deliver them first. The public end() throws instead (see there).
   */
  finishInput(): T[] {
    const native = this.native;
    if (native === null) throw this.stoppedError('end');
    let out: T[] | undefined;
    if (this.pendingSurrogate !== '') {
      this.pendingSurrogate = '';
      out = this.writeBytes(REPLACEMENT_CHARACTER, out);
    }
    if (this.failure === null) {
      const status = this.call(native, -1);
      out = this.collect(out);
      if (status !== 0) this.fail(status);
    }
    if (this.failure === null) {
      this.closedBy = 'end()';
      this.free();
    }
    return out ?? [];
  }

  end(): T[] {
    const out = this.finishInput();
    // finish() may complete a last scalar and report truncation in the same call. end() has no next call to
    // defer the error to, and a caller that never sees it would take truncated input for complete: the error wins.
    if (this.failure !== null) throw this.failure;
    return out;
  }

  close(): void {
    if (this.native === null) return;
    this.closedBy = 'close()';
    this.free();
  }

  /** The sticky failure, or misuse: a call after end() or close(). */
  private stoppedError(method: 'push' | 'end'): Error {
    return this.failure ?? misuse(`parser.${method}()`, `the parser was closed by ${this.closedBy ?? 'close()'}`);
  }

  private free(): void {
    const native = this.native;
    if (native === null) return;
    this.native = null;
    registry.unregister(this);
    native.delete();
  }

  /** feed(n), or finish() when n < 0. A trap inside the module leaves it unusable: the parser stops for good. */
  private call(native: NativeParser, n: number): number {
    try {
      return n < 0 ? native.finish() : native.feed(n);
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.native = null;
      registry.unregister(this);
      throw error;
    }
  }

  private fail(status: number): void {
    const runtime = this.runtime;
    runtime.sync();
    const f64 = runtime.f64;
    const view64 = this.view64;
    this.failure = errorFromStatus(
      status,
      runtime.u32[this.view + VIEW_ERROR_BYTE]!,
      {
        offset: f64[view64 + VIEW_ERROR_OFFSET]!,
        line: f64[view64 + VIEW_ERROR_LINE]!,
        column: f64[view64 + VIEW_ERROR_COLUMN]!,
      },
      this.options,
    );
    this.free();
  }

  // MARK: input

  private writeBytes(bytes: Uint8Array, out: T[] | undefined): T[] | undefined {
    const runtime = this.runtime;
    const view = this.view;
    const length = bytes.length;
    let offset = 0;
    while (offset < length) {
      const native = this.native!;
      runtime.sync();
      const u32 = runtime.u32;
      const n = Math.min(u32[view + VIEW_INPUT_CAPACITY]!, length - offset);
      if (n === 0) throw new Error('sluice: the native input window is empty');
      runtime.u8.set(n === length ? bytes : bytes.subarray(offset, offset + n), u32[view + VIEW_INPUT_PTR]!);
      const status = this.call(native, n);
      out = this.collect(out);
      if (status !== 0) {
        this.fail(status);
        break;
      }
      offset += n;
    }
    return out;
  }

  private writeString(text: string, out?: T[]): T[] | undefined {
    if (this.pendingSurrogate !== '') {
      text = this.pendingSurrogate + text;
      this.pendingSurrogate = '';
    }
    let length = text.length;
    if (length > 0 && isHighSurrogate(text.charCodeAt(length - 1))) {
      // Its low half may start the next chunk; joined there, the pair encodes as one code point.
      this.pendingSurrogate = text.charAt(length - 1);
      length -= 1;
    }
    const runtime = this.runtime;
    const view = this.view;
    let offset = 0;
    while (offset < length) {
      const native = this.native!;
      runtime.sync();
      const u32 = runtime.u32;
      const start = u32[view + VIEW_INPUT_PTR]!;
      const capacity = u32[view + VIEW_INPUT_CAPACITY]!;
      // At most `capacity` UTF-16 units per piece bounds encodeInto's work on a huge string; ending the piece
      // before a high surrogate keeps pairs whole (a split pair would encode as two U+FFFD).
      let end = Math.min(length, offset + capacity);
      if (end < length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
      const piece = offset === 0 && end === text.length ? text : text.substring(offset, end);
      const { read, written } = encoder.encodeInto(piece, runtime.u8.subarray(start, start + capacity));
      if (read === 0) throw new Error('sluice: the native input window is too small for one character');
      const status = this.call(native, written!);
      out = this.collect(out);
      if (status !== 0) {
        this.fail(status);
        break;
      }
      offset += read!;
    }
    return out;
  }

  // MARK: output

  /** Appends the elements completed by the last native call to `out` (or returns them as the new `out`). */
  private collect(out: T[] | undefined): T[] | undefined {
    const runtime = this.runtime;
    runtime.sync();
    const u32 = runtime.u32;
    const view = this.view;
    if (u32[view + VIEW_ELEMENT_COUNT] === 0) return out;
    const options = this.options;
    let items: unknown[];
    if (options.mode === MODE_VALUE) {
      // valueBatches appends to `out` itself, and otherwise returns the first batch's array as is, no copy.
      if (options.reviver === undefined) return this.valueBatches(out) as T[];
      items = this.valueElements(options.reviver);
    } else if (options.mode === MODE_BYTES) {
      items = this.bytesBatches();
    } else {
      items = this.textBatches();
    }
    if (out === undefined) return items as T[];
    for (let i = 0; i < items.length; i++) out.push(items[i] as T);
    return out;
  }

  /** One TextDecoder.decode and one JSON.parse per batch: the batch text is `[e1,e2,...]`. */
  private valueBatches(out: T[] | undefined): unknown[] {
    const runtime = this.runtime;
    const u32 = runtime.u32;
    const u8 = runtime.u8;
    const view = this.view;
    const wrap = this.options.wrap;
    const batches = u32[view + VIEW_BATCHES_PTR]! >>> 2;
    const count = u32[view + VIEW_BATCH_COUNT]!;
    let all = out as unknown[] | undefined;
    for (let b = 0; b < count; b++) {
      const record = batches + b * BATCH_WORDS;
      const ptr = u32[record + BATCH_PTR]!;
      const values = JSON.parse(decoder.decode(u8.subarray(ptr, ptr + u32[record + BATCH_LEN]!))) as unknown[];
      if (wrap) this.wrapInPlace(values, u32[record + BATCH_FIRST_ELEMENT]!);
      if (all === undefined) all = values;
      else for (let i = 0; i < values.length; i++) all.push(values[i]);
    }
    return all ?? [];
  }

  /** With a reviver, each element is parsed on its own, as JSON.parse(elementText, reviver) would. */
  private valueElements(reviver: (this: unknown, key: string, value: unknown) => unknown): unknown[] {
    const runtime = this.runtime;
    const u32 = runtime.u32;
    const u8 = runtime.u8;
    const view = this.view;
    const elements = u32[view + VIEW_ELEMENTS_PTR]! >>> 2;
    const count = u32[view + VIEW_ELEMENT_COUNT]!;
    const values: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const record = elements + i * ELEMENT_WORDS;
      const ptr = u32[record + ELEMENT_PTR]!;
      values.push(JSON.parse(decoder.decode(u8.subarray(ptr, ptr + u32[record + ELEMENT_LEN]!)), reviver));
    }
    if (this.options.wrap) this.wrapInPlace(values, 0);
    return values;
  }

  /** One copy per batch; each element is a view of it. */
  private bytesBatches(): unknown[] {
    const runtime = this.runtime;
    const u32 = runtime.u32;
    const u8 = runtime.u8;
    const view = this.view;
    const elements = u32[view + VIEW_ELEMENTS_PTR]! >>> 2;
    const batches = u32[view + VIEW_BATCHES_PTR]! >>> 2;
    const batchCount = u32[view + VIEW_BATCH_COUNT]!;
    // Batches cover the elements in order, so pushing keeps the array packed (new Array(n) would be holey).
    const values: unknown[] = [];
    for (let b = 0; b < batchCount; b++) {
      const record = batches + b * BATCH_WORDS;
      const base = u32[record + BATCH_PTR]!;
      const copy = u8.slice(base, base + u32[record + BATCH_LEN]!).buffer;
      const first = u32[record + BATCH_FIRST_ELEMENT]!;
      const last = first + u32[record + BATCH_ELEMENT_COUNT]!;
      for (let i = first; i < last; i++) {
        const element = elements + i * ELEMENT_WORDS;
        // The constructor, not a subarray of the copy: subarray looks up the species constructor on every call,
        // and a bytes-mode parse of 5,000,000 numbers took 17 to 20 % longer with it.
        values.push(new Uint8Array(copy, u32[element + ELEMENT_PTR]! - base, u32[element + ELEMENT_LEN]!));
      }
    }
    if (this.options.wrap) this.wrapInPlace(values, 0);
    return values;
  }

  /** One decode per batch, sliced per element when the batch is ASCII (then chars and bytes line up). */
  private textBatches(): unknown[] {
    const runtime = this.runtime;
    const u32 = runtime.u32;
    const u8 = runtime.u8;
    const view = this.view;
    const elements = u32[view + VIEW_ELEMENTS_PTR]! >>> 2;
    const batches = u32[view + VIEW_BATCHES_PTR]! >>> 2;
    const batchCount = u32[view + VIEW_BATCH_COUNT]!;
    const values: unknown[] = [];
    for (let b = 0; b < batchCount; b++) {
      const record = batches + b * BATCH_WORDS;
      const base = u32[record + BATCH_PTR]!;
      const length = u32[record + BATCH_LEN]!;
      const text = decoder.decode(u8.subarray(base, base + length));
      const ascii = text.length === length;
      const first = u32[record + BATCH_FIRST_ELEMENT]!;
      const last = first + u32[record + BATCH_ELEMENT_COUNT]!;
      for (let i = first; i < last; i++) {
        const element = elements + i * ELEMENT_WORDS;
        const ptr = u32[element + ELEMENT_PTR]!;
        const len = u32[element + ELEMENT_LEN]!;
        values.push(ascii ? text.slice(ptr - base, ptr - base + len) : decoder.decode(u8.subarray(ptr, ptr + len)));
      }
    }
    if (this.options.wrap) this.wrapInPlace(values, 0);
    return values;
  }

  /** Replaces values[i] with `{ path, key, value }` for element `first + i`. */
  private wrapInPlace(values: unknown[], first: number): void {
    const runtime = this.runtime;
    const u32 = runtime.u32;
    const paths = this.options.paths;
    const elements = u32[this.view + VIEW_ELEMENTS_PTR]! >>> 2;
    for (let i = 0; i < values.length; i++) {
      const record = elements + (first + i) * ELEMENT_WORDS;
      const kind = u32[record + ELEMENT_KEY_KIND];
      let key: string | number | null = null;
      if (kind === KEY_INDEX) {
        key = u32[record + ELEMENT_INDEX_HI]! * 4294967296 + u32[record + ELEMENT_INDEX_LO]!;
      } else if (kind === KEY_NAME) {
        key = decodeKey(runtime.u8, u32[record + ELEMENT_KEY_PTR]!, u32[record + ELEMENT_KEY_LEN]!);
      }
      const element: ElementWithPath<unknown> = {
        path: paths[u32[record + ELEMENT_PATH_INDEX]!]!,
        key,
        value: values[i],
      };
      values[i] = element;
    }
  }
}

/** A member key from its raw JSON text (quotes included): escapes need JSON.parse, the rest is plain UTF-8. */
function decodeKey(u8: Uint8Array, ptr: number, len: number): string {
  const inner = u8.subarray(ptr + 1, ptr + len - 1);
  if (inner.indexOf(BACKSLASH) === -1) return decoder.decode(inner);
  return JSON.parse(decoder.decode(u8.subarray(ptr, ptr + len))) as string;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

// What a chunk of the wrong type is called, by the API that created the parser.
const CHUNK_SUBJECTS: Readonly<Record<string, readonly [ApiName, string]>> = {
  'createParser()': ['parser.push()', 'chunk'],
  'parseJsonArray()': ['parseJsonArray()', 'each chunk of source'],
  'new JsonArrayStream()': ['JsonArrayStream.writable', 'each chunk'],
};

function toBytes(chunk: unknown, api: ApiName): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  // From another realm (an iframe, a vm context): instanceof fails, the tag does not.
  const tag = Object.prototype.toString.call(chunk);
  if (tag === '[object Uint8Array]') return chunk as Uint8Array;
  if (tag === '[object ArrayBuffer]') return new Uint8Array(chunk as ArrayBuffer);
  const [caller, subject] = CHUNK_SUBJECTS[api] ?? [api, 'chunk'];
  throw mustBe(caller, subject, 'a Uint8Array, ArrayBuffer or string', chunk);
}
