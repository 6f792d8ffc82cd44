// The synchronous push parser over one native parser: copies chunks into the input window, calls feed/finish
// (one boundary crossing per window), and materialises the completed elements a batch at a time (materialise.ts).
// The native side, its memory and the carry: js/native/session.ts. Its public entry, createParser: create_parser.ts.
import { isArrayBuffer, isUint8Array } from '../realm.js';
import { errorFromStatus } from '../errors.js';
import { misuse, mustBe, type ApiName } from '../validate.js';
import type { NativeRuntime } from '../native/contract.js';
import { ParserSession, OUT_OF_MEMORY_LOST, lostError } from '../native/session.js';
import { skippedLineErrors } from './skipped_lines.js';
import { afterHeads, flushWindows, type ItemShape } from './tails.js';
import { dropRepeats, repeatsOf, type UnionOrder } from './match_order.js';
import type { ArrayWindow } from './array_window.js';
import type { PathTracker } from './normalized_paths.js';
import { CallResults, bytesBatches, textBatches, valueBatches, valueElements, type Names } from './materialise.js';
import { MODE_BYTES, MODE_VALUE, type ResolvedOptions } from './options.js';
import type { InvalidLine } from './option_types.js';

/**
 * A chunk of input: bytes (a `Buffer` is a `Uint8Array`) or text. Text is read as its UTF-8, as `TextEncoder`
 * writes it: a raw lone surrogate, which has no UTF-8 form, is read as U+FFFD (`JSON.parse` keeps it; text from
 * `JSON.stringify` or from decoding bytes never holds one). A surrogate pair split between two chunks is joined.
 */
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
  /** Lines skipped so far (`onInvalidLine`): after `end()`, all of them. */
  readonly skippedLines: number;
  /** Frees the parser early. A no-op after `end()`, an error, or another `close()`. */
  close(): void;
  /** `close()`, for `using parser = createParser(...)`. */
  [Symbol.dispose](): void;
}

// `using` (explicit resource management) needs Symbol.dispose in the types, which ES2022 libraries lack; the same
// declaration as TypeScript's own lib and @types/node, with which it merges.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

const encoder = new TextEncoder();
// What TextEncoder writes for a lone surrogate, for a high surrogate left over at a chunk boundary.
const REPLACEMENT_CHARACTER = new Uint8Array([0xef, 0xbf, 0xbd]);

/**
 * @internal The push parser behind createParser, parseJsonArray and JsonArrayStream. Beyond the public
 * interface, the iterators read `failure` after each call so they can deliver the returned elements before the
 * error.
 */
export class ParserCore<T = unknown> implements PushParser<T> {
  private readonly runtime_: NativeRuntime;
  private readonly options_: ResolvedOptions;
  private session_: ParserSession | null;
  /** A high surrogate that ended the last string chunk, waiting for its low half. */
  private pendingSurrogate_ = '';
  private closedBy_: 'end()' | 'close()' | null = null;
  /** Inside push() or end(): the reviver must not call this parser again. */
  private busy_ = false;
  /** The error that stopped the parser (the input's, or the reviver's); sticky. */
  failure_: Error | null = null;
  skippedLines = 0;
  /** Each native selector's array window (a query's segment counted from the end), or null: none has one. */
  private readonly windows_: readonly (ArrayWindow | null)[] | null;
  /** How the items are shaped, for the nodes of a tail. */
  private readonly shape_: ItemShape;
  /** options.withNormalizedPath: the keys along the path, from the markers' records; else null. */
  private readonly tracker_: PathTracker | null;
  /** The matches held back for RFC order (match_order.ts), or null: no union needs it. */
  private readonly unionOrder_: UnionOrder | null;

  constructor(runtime: NativeRuntime, options: ResolvedOptions) {
    this.runtime_ = runtime;
    this.options_ = options;
    const normalized = options.normalized_;
    const held = options.heldUnions_;
    const ends = normalized?.ends_ ?? [];
    // Nothing native until the first chunk: a configuration and an empty carry.
    this.session_ = new ParserSession(runtime, {
      ...options,
      paths: options.nativePaths_,
      markers: held === null ? ends : [...ends, ...held.containers],
      starts: normalized?.starts_,
    });
    this.windows_ = options.makeWindows_?.() ?? null;
    this.tracker_ = normalized?.make_() ?? null;
    this.unionOrder_ = options.makeUnionOrder_?.(options.nativePaths_.length + ends.length) ?? null;
    const named = this.tracker_ !== null;
    const wrapped = options.wrap || options.withOffset || named;
    this.shape_ = { mode: options.mode, wrapped, keyed: options.wrap, named };
  }

  push(chunk: JsonChunk): T[] {
    if (this.session_ === null) throw this.stoppedError_('push');
    this.enter_('push');
    let out: T[] | undefined;
    try {
      if (typeof chunk === 'string') {
        out = this.writeString_(chunk);
      } else {
        const bytes = toBytes(chunk, this.options_.api);
        if (this.pendingSurrogate_ !== '') {
          this.pendingSurrogate_ = '';
          out = this.writeBytes_(REPLACEMENT_CHARACTER, out);
        }
        if (this.failure_ === null) out = this.writeBytes_(bytes, out);
      }
    } finally {
      this.busy_ = false;
    }
    if (out === undefined || out.length === 0) {
      if (this.failure_ !== null) throw this.failure_;
      return out ?? [];
    }
    return out;
  }

  /**
   * Ends the input. Returns the elements completed at the end even when it fails (then `failure` is set): the
   * iterators deliver them first. The public end() throws instead (see there).
   */
  finishInput_(): T[] {
    const session = this.session_;
    if (session === null) throw this.stoppedError_('end');
    this.enter_('end');
    let out: T[] | undefined;
    try {
      if (this.pendingSurrogate_ !== '') {
        this.pendingSurrogate_ = '';
        out = this.writeBytes_(REPLACEMENT_CHARACTER, out);
      }
      if (this.failure_ === null) out = this.run_(session, -1, out);
      // The end completes the last array of each window.
      if (this.failure_ === null && this.windows_ !== null) {
        out ??= [];
        flushWindows(this.windows_, this.options_.selectorTails_, this.shape_, out as unknown[]);
      }
    } finally {
      this.busy_ = false;
    }
    if (this.failure_ === null) {
      this.closedBy_ = 'end()';
      this.free_();
    }
    return out ?? [];
  }

  end(): T[] {
    const out = this.finishInput_();
    // finish() may complete a last scalar and report truncation in the same call. end() has no next call to
    // defer the error to, and a caller that never sees it would take truncated input for complete: the error wins.
    if (this.failure_ !== null) throw this.failure_;
    return out;
  }

  close(): void {
    if (this.session_ === null) return;
    this.closedBy_ = 'close()';
    this.free_();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  /** The sticky failure, or misuse: a call after end() or close(). */
  private stoppedError_(method: 'push' | 'end'): Error {
    return this.failure_ ?? misuse(`parser.${method}()`, `the parser was closed by ${this.closedBy_ ?? 'close()'}`);
  }

  private enter_(method: 'push' | 'end'): void {
    if (this.busy_) throw misuse(`parser.${method}()`, 'called by the reviver of the same parser');
    this.busy_ = true;
  }

  private free_(): void {
    const session = this.session_;
    if (session === null) return;
    this.session_ = null;
    session.close_();
  }

  /**
   * One native call (n bytes written in the window, or the end of input when n < 0), its elements appended to
   * `out`. A failure (the input's, or the reviver's) sets `failure` and frees the parser, after the elements
   * before it.
   */
  private run_(session: ParserSession, n: number, out: T[] | undefined): T[] | undefined {
    let status: number;
    try {
      status = session.call_(n);
    } catch (error) {
      // A trap inside the module leaves it unusable: the parser stops for good.
      this.failure_ = error instanceof Error ? error : new Error(String(error));
      this.session_ = null;
      throw error;
    }
    // Read before the elements: a reviver may run another parser, which rewrites the view.
    const error = status === 0 ? null : this.errorOf_(status, session);
    let skipped: InvalidLine[] | null = null;
    // A lost parser made no call: the tables hold another call's results.
    if (status !== OUT_OF_MEMORY_LOST) {
      if (this.options_.onInvalidLine !== undefined && session.skippedCount_ !== 0) {
        skipped = skippedLineErrors(session.skippedLines_(), this.options_);
      }
      out = this.collect_(session, out);
    }
    if (skipped !== null) this.report_(skipped);
    if (this.failure_ === null) this.failure_ = error;
    if (this.failure_ !== null) this.free_();
    return out;
  }

  /** Passes the call's skipped lines to onInvalidLine, after its elements; a throw stops the parser. */
  private report_(skipped: InvalidLine[]): void {
    const onInvalidLine = this.options_.onInvalidLine!;
    for (let i = 0; i < skipped.length && this.failure_ === null; i++) {
      this.skippedLines++;
      try {
        onInvalidLine(skipped[i]!);
      } catch (error) {
        this.failure_ = error instanceof Error ? error : new Error(String(error));
      }
    }
  }

  private errorOf_(status: number, session: ParserSession): Error {
    if (status === OUT_OF_MEMORY_LOST && !session.lostInView_) return lostError(null);
    const error = session.error_();
    const position = { offset: error.offset, line: error.line, column: error.column };
    if (status === OUT_OF_MEMORY_LOST) return lostError(position);
    return errorFromStatus(status, error.byte, position, this.options_);
  }

  // MARK: input

  private writeBytes_(bytes: Uint8Array, out: T[] | undefined): T[] | undefined {
    const runtime = this.runtime_;
    const length = bytes.length;
    let offset = 0;
    while (offset < length && this.failure_ === null) {
      const session = this.session_!;
      // For every piece: a reviver may have run another parser since the last.
      if (!session.acquireInput_()) return this.run_(session, 0, out);
      const n = Math.min(session.inputCapacity_, length - offset);
      runtime.u8_.set(n === length ? bytes : bytes.subarray(offset, offset + n), session.inputPtr_);
      out = this.run_(session, n, out);
      offset += n;
    }
    return out;
  }

  private writeString_(text: string, out?: T[]): T[] | undefined {
    if (this.pendingSurrogate_ !== '') {
      text = this.pendingSurrogate_ + text;
      this.pendingSurrogate_ = '';
    }
    let length = text.length;
    if (length > 0 && isHighSurrogate(text.charCodeAt(length - 1))) {
      // Its low half may start the next chunk; joined there, the pair encodes as one code point.
      this.pendingSurrogate_ = text.charAt(length - 1);
      length -= 1;
    }
    const runtime = this.runtime_;
    let offset = 0;
    while (offset < length && this.failure_ === null) {
      const session = this.session_!;
      if (!session.acquireInput_()) return this.run_(session, 0, out);
      const start = session.inputPtr_;
      const capacity = session.inputCapacity_;
      // At most `capacity` UTF-16 units per piece bounds encodeInto's work on a huge string; ending the piece
      // before a high surrogate keeps pairs whole (a split pair would encode as two U+FFFD).
      let end = Math.min(length, offset + capacity);
      if (end < length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
      const piece = offset === 0 && end === text.length ? text : text.substring(offset, end);
      const { read, written } = encoder.encodeInto(piece, runtime.u8_.subarray(start, start + capacity));
      if (read === 0) throw new Error('sluice: the native input window is too small for one character');
      out = this.run_(session, written!, out);
      offset += read!;
    }
    return out;
  }

  // MARK: output

  /** Appends the elements completed by the last native call to `out` (or returns them as the new `out`). */
  private collect_(session: ParserSession, out: T[] | undefined): T[] | undefined {
    const call = new CallResults(session);
    if (call.count_ === 0) return out;
    const options = this.options_;
    const paths = options.wrap ? options.selectorPaths_ : null;
    const tails = options.selectorTails_;
    const windows = this.windows_;
    const tracker = this.tracker_;
    const unionOrder = this.unionOrder_;
    if (
      options.selectorQueries_ === null &&
      tails === null &&
      windows === null &&
      tracker === null &&
      unionOrder === null
    ) {
      return this.materialise_(call, paths, null, out);
    }
    // Read before any reviver runs: it may run another parser, which rewrites the tables.
    let skip = options.selectorQueries_ === null ? null : repeatsOf(call, options.selectorQueries_);
    let names: Names = null;
    if (tracker !== null) {
      skip ??= new Uint8Array(call.count_);
      names = tracker.read_(call, skip);
    }
    const before = out?.length ?? 0;
    out = this.materialise_(call, paths, names, out);
    // With a tail there is no reviver (tail_options.ts): the tables are still this call's.
    if ((tails !== null || windows !== null) && out !== undefined) {
      return afterHeads(call, out, before, tails, windows, skip, this.shape_) as T[];
    }
    // A held union is never with a tail (options.ts): the items are still one per record.
    if (unionOrder !== null && out !== undefined) return unionOrder.order_(call, out, before, skip);
    return skip === null ? out : dropRepeats(out, before, skip);
  }

  private materialise_(
    call: CallResults,
    paths: readonly string[] | null,
    names: Names,
    out: T[] | undefined,
  ): T[] | undefined {
    const options = this.options_;
    let items: unknown[];
    if (options.mode === MODE_VALUE) {
      // valueBatches appends to `out` itself, and otherwise returns the first batch's array as is, no copy.
      if (options.reviver === undefined) {
        return valueBatches(call, paths, options.withOffset, out, options.integers, names) as T[];
      }
      items = valueElements(
        call,
        paths,
        options.withOffset,
        options.reviver,
        (error) => {
          // Rethrown as it was thrown, like a syntax error: sticky, after the elements before it.
          this.failure_ = (error ?? new Error(String(error))) as Error;
        },
        options.integers,
        names,
      );
    } else if (options.mode === MODE_BYTES) {
      items = bytesBatches(call, paths, options.withOffset, names);
    } else {
      items = textBatches(call, paths, options.withOffset, names);
    }
    if (out === undefined) return items as T[];
    for (let i = 0; i < items.length; i++) out.push(items[i] as T);
    return out;
  }
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
  // Of any realm (an iframe, a vm context): js/realm.ts.
  if (isUint8Array(chunk)) return chunk;
  if (isArrayBuffer(chunk)) return new Uint8Array(chunk);
  const [caller, subject] = CHUNK_SUBJECTS[api] ?? [api, 'chunk'];
  throw mustBe(caller, subject, 'a Uint8Array, ArrayBuffer or string', chunk);
}
