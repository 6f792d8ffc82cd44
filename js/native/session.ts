// One push parser's native side, the typed session over the parser half of the binding: for the push parser
// (js/parse/parser.ts) and openJson's requests (js/open_json/open_json_driver.ts). They see a call's status, its error
// record, its element and batch tables (u32 indices, read once per call) and its bytes; never the view's layout.
//
// Memory (HACKING.md, "Parser memory"): the module's memory holds one input window and one set of result tables for
// all parsers, and the state of at most RESIDENT_LIMIT parsers (parser_pool.ts), the least recently used saved to
// bytes in the JS heap when another needs a place. The bytes of an element still in progress (the carry) live here,
// in the JS heap, extended once per chunk. So what a parser holds in the module is bounded and small, and what grows
// with an element lives where the garbage collector sees it: however many parsers are dropped without end() or
// close(), and however late their finalizers run, the module's memory stays bounded. A call's results are read, and
// copied out, before any other call or user code runs.
import { JsonLimitError, type JsonErrorPosition } from '../errors.js';
import type { NativeError, NativeRuntime, SkippedLine } from './contract.js';
import { acquire, discard, Handle, poolOf, type NativeConfig, type Pool } from './parser_pool.js';

/**
 * What call() returns when the parser's saved state could not be restored, or its carry could not grow in the JS
 * heap (out of memory): not a native status, and the call has no results to read. Its position is in the view
 * when the carry could not grow (ParserSession.lostInView), unknown when the state could not be restored.
 */
export const OUT_OF_MEMORY_LOST = -16;

/** The error of OUT_OF_MEMORY_LOST: the carry's, at `position`, or, without one, a state that was not restored. */
export function lostError(position: JsonErrorPosition | null): JsonLimitError {
  if (position === null) {
    return new JsonLimitError('Cannot parse JSON: out of memory: the parser could not be resumed', 'OUT_OF_MEMORY', {
      offset: 0,
      line: 1,
      column: 1,
    });
  }
  return new JsonLimitError(
    `Cannot parse JSON: out of memory: the element in progress could not be kept, at byte ${position.offset} (line ` +
      `${position.line}, column ${position.column})`,
    'OUT_OF_MEMORY',
    position,
  );
}

/** Tests only (internal.ts): a carry may not grow past this many bytes, as if the engine refused the buffer. */
let carryLimit = Infinity;
export function setCarryLimit(bytes: number): void {
  carryLimit = bytes;
}

const EMPTY = new Uint8Array(0);

/** Carries smaller than this many bytes keep their buffer between elements. */
const KEEP_BUFFER_BYTES = 1 << 18;

/** A native parser and its carry. */
export class ParserSession {
  readonly runtime_: NativeRuntime;
  private readonly pool_: Pool;
  private readonly handle_: Handle;
  /** The carry: buf[head, tail) holds the stream's bytes from offset base on. */
  private buf_: Uint8Array = EMPTY;
  /** A second buffer, for a new carry while the last call's results read `buf`. */
  private spare_: Uint8Array = EMPTY;
  private head_ = 0;
  private tail_ = 0;
  private base_ = 0;
  /** The last call's results: the carry they read (rBuf[x + rDelta] is the stream's byte x). */
  private rBuf_: Uint8Array = EMPTY;
  private rDelta_ = 0;
  /** The last call's window: its u8 index, its stream offset, its length. */
  windowPtr_ = 0;
  windowOffset_ = 0;
  windowLength_ = 0;
  /** Elements of the last call whose bytes began before its window. */
  carried_ = 0;
  /** The last call's element records: u32 index of the first (ELEMENT_WORDS each) and how many. */
  elements_ = 0;
  elementCount_ = 0;
  /** The last call's batch records: u32 index of the first (BATCH_WORDS each) and how many. */
  batches_ = 0;
  batchCount_ = 0;
  /** Lines the last call skipped (FLAG_SKIP_INVALID): skippedLines() reads them. */
  skippedCount_ = 0;
  /** The first byte the carry is being extended with: where it fails when the engine refuses its buffer. */
  private keeping_ = 0;
  /** call() returned OUT_OF_MEMORY_LOST for a carry it could not keep: the view holds that error's position. */
  lostInView_ = false;

  constructor(runtime: NativeRuntime, config: NativeConfig) {
    this.runtime_ = runtime;
    this.pool_ = poolOf(runtime);
    this.handle_ = new Handle(config);
  }

  /** Where the next chunk goes (after acquireInput()): u8 index and capacity. */
  inputPtr_ = 0;
  inputCapacity_ = 0;

  /** Makes the parser resident and the window writable; false when its state is lost (see acquire). */
  acquireInput_(): boolean {
    if (acquire(this.runtime_, this.pool_, this.handle_, this) === null) return false;
    const runtime = this.runtime_;
    runtime.sync_();
    this.inputPtr_ = runtime.inputPtr_();
    this.inputCapacity_ = runtime.inputCapacity_();
    return true;
  }

  /**
   * Scans the n bytes written at inputPtr after acquireInput(), or ends the input (n < 0). Returns the status; the
   * results are in the module's tables until the next call on any parser.
   */
  call_(n: number): number {
    const native = acquire(this.runtime_, this.pool_, this.handle_, this);
    if (native === null) {
      this.elementCount_ = this.batchCount_ = this.skippedCount_ = 0;
      return OUT_OF_MEMORY_LOST;
    }
    const status = n < 0 ? native.finish() : native.feed(n);
    try {
      this.afterCall_(Math.max(n, 0));
    } catch (error) {
      // The engine could not allocate the carry's buffer: the element in progress is lost, and the parser with it.
      if (!(error instanceof RangeError)) throw error;
      // Located natively now, while the window still holds the call's bytes (the lines before it are counted there).
      native.failOutOfMemory_(this.keeping_);
      this.lostInView_ = true;
      this.close_();
      this.elementCount_ = this.batchCount_ = this.skippedCount_ = 0;
      return OUT_OF_MEMORY_LOST;
    }
    return status;
  }

  /**
   * Where and what the last call (which returned a non-zero status) found wrong; for OUT_OF_MEMORY_LOST, the
   * carry's position when lostInView, else nothing is known.
   */
  error_(): NativeError {
    return this.runtime_.error_();
  }

  /** The last call's skipped lines (skippedCount of them), copied. */
  skippedLines_(): SkippedLine[] {
    return this.skippedCount_ === 0 ? [] : this.runtime_.skippedLines_();
  }

  /** Frees the native parser; the session cannot be called again. */
  close_(): void {
    discard(this.pool_, this.handle_, this);
    this.buf_ = this.spare_ = this.rBuf_ = EMPTY;
  }

  /**
   * The stream's bytes [start, end) of the last call's results: a view of the window or of the carry, valid until
   * the next call on any parser.
   */
  bytes_(start: number, end: number): Uint8Array {
    if (start >= this.windowOffset_) {
      const at = this.windowPtr_ + (start - this.windowOffset_);
      return new Uint8Array(this.runtime_.memory_.buffer, at, end - start);
    }
    return new Uint8Array(this.rBuf_.buffer, start + this.rDelta_, end - start);
  }

  /** A copy of the stream's bytes [start, end) of the last call's results (see bytes()). */
  copy_(start: number, end: number): Uint8Array {
    if (start >= this.windowOffset_) {
      const at = this.windowPtr_ + (start - this.windowOffset_);
      return this.runtime_.u8_.slice(at, at + (end - start));
    }
    return this.rBuf_.slice(start + this.rDelta_, end + this.rDelta_);
  }

  /** The first byte of the stream's bytes at `start` (see bytes()). */
  byteAt_(start: number): number {
    if (start >= this.windowOffset_) return this.runtime_.u8_[this.windowPtr_ + (start - this.windowOffset_)]!;
    return this.rBuf_[start + this.rDelta_]!;
  }

  // MARK: the carry

  /**
   * After a call: extends the carry with the window as far as the results need, points the results at it, and
   * keeps what the next call needs (the view's retain_from), copied out of the window now: another parser may write
   * there before this one's next call.
   */
  private afterCall_(n: number): void {
    const runtime = this.runtime_;
    runtime.sync_();
    this.elements_ = runtime.elementsAt_();
    this.elementCount_ = runtime.elementCount_();
    this.batches_ = runtime.batchesAt_();
    this.batchCount_ = runtime.batchCount_();
    this.skippedCount_ = runtime.skippedCount_();
    const wBase = runtime.windowOffset_();
    const retain = runtime.retainFrom_();
    const windowPtr = runtime.inputPtr_();
    this.windowPtr_ = windowPtr;
    this.windowOffset_ = wBase;
    this.windowLength_ = n;
    this.carried_ = runtime.carriedCount_();
    this.rBuf_ = EMPTY;
    const wEnd = wBase + n;
    const continues = retain >= 0 && retain < wBase;
    let used = false;
    if (this.tail_ > this.head_) {
      // The carry holds [base, wBase).
      const through = continues ? wEnd : runtime.carryThrough_();
      if (through !== 0) {
        this.keeping_ = wBase;
        if (through > wBase) this.append_(runtime.u8_, windowPtr, through - wBase);
        used = true;
      }
    }
    if (used) {
      this.rBuf_ = this.buf_;
      this.rDelta_ = this.head_ - this.base_;
    }
    if (retain < 0) {
      this.head_ = this.tail_ = 0;
      // After a large element, give its memory back.
      if (this.buf_.length > KEEP_BUFFER_BYTES) this.buf_ = EMPTY;
    } else if (continues) {
      this.head_ += retain - this.base_;
      this.base_ = retain;
    } else {
      // A new element (or key) starts in this window: a fresh carry, in the other buffer if the results read this.
      if (used) {
        const spare = this.spare_;
        this.spare_ = this.buf_.length > KEEP_BUFFER_BYTES ? EMPTY : this.buf_;
        this.buf_ = spare;
      }
      this.head_ = this.tail_ = 0;
      this.base_ = retain;
      this.keeping_ = retain;
      this.append_(runtime.u8_, windowPtr + (retain - wBase), wEnd - retain);
    }
  }

  /** Appends n bytes of `from` at `at` to the carry, growing it by at least half (linear in the element). */
  private append_(from: Uint8Array, at: number, n: number): void {
    const live = this.tail_ - this.head_;
    if (this.tail_ + n > this.buf_.length) {
      if (live + n > this.buf_.length) {
        let size = Math.max(1024, this.buf_.length + (this.buf_.length >> 1));
        while (size < live + n) size += size >> 1;
        if (size > carryLimit) throw new RangeError('sluice test: the carry limit (internal.ts) refused the buffer');
        const buf = new Uint8Array(size);
        buf.set(new Uint8Array(this.buf_.buffer, this.head_, live), 0);
        this.buf_ = buf;
      } else {
        this.buf_.copyWithin(0, this.head_, this.tail_);
      }
      this.tail_ = live;
      this.head_ = 0;
    }
    // The constructor, not subarray(): subarray looks up the species constructor on every call.
    this.buf_.set(new Uint8Array(from.buffer, at, n), this.tail_);
    this.tail_ += n;
  }
}
