// The command line's session (js/cli/native_stream.ts): one parser that is the only one running while it is fed and
// keeps its carry natively (FLAG_COMPACT_LINES, or markers, which keep no bytes), so it needs neither the resident
// pool nor the JS-heap carry of ParserSession. Per call the same typed results: the status, error(), the element
// and batch tables (u32 indices for records.ts), the skipped lines; never the view's layout.
import type { NativeError, NativeParser, NativeRuntime, SkippedLine } from './contract.js';
import { addPaths, type NativeConfig } from './parser_pool.js';

export class StreamSession {
  readonly runtime: NativeRuntime;
  private readonly native_: NativeParser;
  private closed_ = false;
  /** The last call's element records: u32 index of the first (ELEMENT_WORDS each) and how many. */
  elements = 0;
  elementCount_ = 0;
  /** The last call's batch records: u32 index of the first (BATCH_WORDS each) and how many. */
  batches = 0;
  batchCount_ = 0;
  /** Lines the last call skipped (FLAG_SKIP_INVALID): skippedLines() reads them. */
  skippedCount_ = 0;

  /** A parser of `config`, and an input window of at least `windowBytes`. */
  constructor(runtime: NativeRuntime, config: NativeConfig, windowBytes: number) {
    const native = new runtime.native_.Parser(config.maxDepth, config.maxElementBytes, config.flags);
    addPaths(native, config);
    if (!runtime.native_.reserve_(windowBytes)) {
      native.delete();
      throw new RangeError('sluice: cannot allocate the input window');
    }
    this.runtime = runtime;
    this.native_ = native;
  }

  /** Where the next chunk goes: runtime.u8_[inputPtr, inputPtr + inputCapacity). */
  get inputPtr_(): number {
    this.runtime.sync_();
    return this.runtime.inputPtr_();
  }

  get inputCapacity_(): number {
    this.runtime.sync_();
    return this.runtime.inputCapacity_();
  }

  /**
   * Scans the n bytes written at inputPtr, or ends the input (n < 0). Returns the status; the results are in the
   * module's tables until the next call.
   */
  call(n: number): number {
    const status = n < 0 ? this.native_.finish() : this.native_.feed(n);
    const runtime = this.runtime;
    runtime.sync_();
    this.elements = runtime.elementsAt_();
    this.elementCount_ = runtime.elementCount_();
    this.batches = runtime.batchesAt_();
    this.batchCount_ = runtime.batchCount_();
    this.skippedCount_ = runtime.skippedCount_();
    return status;
  }

  /** Where and what the last call (which returned a non-zero status) found wrong. */
  error(): NativeError {
    return this.runtime.error_();
  }

  /** The last call's skipped lines (skippedCount of them), copied. */
  skippedLines(): SkippedLine[] {
    return this.skippedCount_ === 0 ? [] : this.runtime.skippedLines_();
  }

  /** Frees the native parser; the session cannot be called again. */
  close(): void {
    if (this.closed_) return;
    this.closed_ = true;
    this.native_.delete();
  }
}
