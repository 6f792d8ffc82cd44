// One native push parser driven by the command line: the input is read straight into its window in wasm memory,
// one feed() per read (one boundary crossing per chunk), and the results are read where they lie. In `lines` mode
// the parser writes the compact-lines batch (each element compacted, then '\n': NDJSON ready to write); in
// `markers` mode it keeps no element bytes at all and reports only where each element ends (count, validate).
import { errorFromStatus, type ParserLimits } from '../errors.js';
import {
  FLAG_COMPACT_LINES,
  FLAG_NDJSON,
  FLAG_SHARE_REPEATS,
  FLAG_SKIP_INVALID,
  type NativeRuntime,
} from '../native/contract.js';
import {
  batchLength,
  batchPtr,
  batchRecord,
  elementEnd,
  elementIndex,
  elementKeyGap,
  elementKeyKind,
  elementKeyLength,
  elementLength,
  elementPath,
  elementRecord,
} from '../native/records.js';
import { StreamSession } from '../native/stream_session.js';
import type { InvalidLine } from '../parse/option_types.js';
import { skippedLineError } from '../parse/skipped_lines.js';

export interface StreamOptions {
  /** Paths already checked, as canonicalPath() writes them (args.ts): the native parser accepts them all. */
  readonly nativePaths_: readonly string[];
  readonly ndjson: boolean;
  /** With ndjson: bad lines are reported (skipped()) and skipped. */
  readonly skipInvalid_: boolean;
  /** lines: compacted elements, one per line; markers: element ends only, no bytes kept. */
  readonly mode: 'lines' | 'markers';
  /** lines mode, --with-normalized-path: end and start markers after the paths (js/parse/normalized_paths.ts). */
  readonly markers_?: readonly string[];
  readonly starts_?: readonly string[];
  /**
   * lines mode: a node's repeats (other selectors' records of it, together) share its line and its end
   * (FLAG_SHARE_REPEATS), so that a union whose selectors may select one node writes it once.
   */
  readonly shareRepeats_?: boolean;
  readonly limits: ParserLimits;
  /** Bytes per read: the window is made at least this large. */
  readonly windowBytes_: number;
}

/** Bytes of the previous window kept for an error's excerpt (the start of the offending line). */
const TAIL = 240;

export class NativeStream {
  readonly runtime: NativeRuntime;
  private readonly session_: StreamSession;
  private readonly limits_: ParserLimits;
  /** Absolute offset of the window's first byte during the last feed, and how many bytes it held. */
  private windowBase_ = 0;
  private fed_ = 0;
  private windowLength_ = 0;
  /** The last bytes before the window (tail[TAIL - tailLength, TAIL)), copied before each read. */
  private readonly tail_ = new Uint8Array(TAIL);
  private tailLength_ = 0;

  constructor(runtime: NativeRuntime, options: StreamOptions) {
    const lines = options.mode === 'lines';
    // One view and one window for every parser of the module (HACKING.md, "Parser memory"); this parser keeps
    // its carry natively (FLAG_COMPACT_LINES), and is the only one that runs while it is fed.
    this.session_ = new StreamSession(
      runtime,
      {
        maxDepth: options.limits.maxDepth,
        maxElementBytes: options.limits.maxElementBytes,
        flags:
          (options.ndjson ? FLAG_NDJSON : 0) |
          (options.ndjson && options.skipInvalid_ ? FLAG_SKIP_INVALID : 0) |
          (lines ? FLAG_COMPACT_LINES : 0) |
          (lines && options.shareRepeats_ === true ? FLAG_SHARE_REPEATS : 0),
        paths: lines ? options.nativePaths_ : [],
        markers: lines ? (options.markers_ ?? []) : options.nativePaths_,
        starts: lines ? (options.starts_ ?? []) : [],
      },
      options.windowBytes_,
    );
    this.runtime = runtime;
    this.limits_ = options.limits;
  }

  /** Where the next read goes: runtime.u8[inputPtr, inputPtr + inputCapacity). */
  get inputPtr_(): number {
    return this.session_.inputPtr_;
  }

  get inputCapacity_(): number {
    return this.session_.inputCapacity_;
  }

  /** Bytes fed so far (counted here: the module's one view holds the last call of any parser). */
  get bytesFed_(): number {
    return this.fed_;
  }

  /** Keeps the end of the window just scanned for an error's excerpt; call before reading into the window again. */
  keepTail_(): void {
    const n = this.windowLength_;
    if (n === 0) return;
    const u8 = this.runtime.u8_;
    const ptr = this.inputPtr_;
    const take = Math.min(n, TAIL);
    // Shift what is kept left by `take`, then append the window's last `take` bytes.
    this.tail_.copyWithin(0, take);
    this.tail_.set(u8.subarray(ptr + n - take, ptr + n), TAIL - take);
    this.tailLength_ = Math.min(TAIL, this.tailLength_ + take);
  }

  /** Scans n bytes written at inputPtr; returns the status (0: ok). Results stay valid until the next call. */
  feed(n: number): number {
    this.windowBase_ = this.fed_;
    this.windowLength_ = n;
    this.fed_ += n;
    return this.session_.call(n);
  }

  /** End of input; returns the status. */
  finish(): number {
    this.windowBase_ = this.fed_;
    this.windowLength_ = 0;
    return this.session_.call(-1);
  }

  /** Elements completed by the last call. */
  get elementCount_(): number {
    return this.session_.elementCount_;
  }

  /** The lines the last call skipped, as errors with their first bytes (for the excerpt). */
  skipped(): { readonly error: InvalidLine; readonly bytes: Uint8Array }[] {
    return this.session_
      .skippedLines()
      .map((line) => ({ error: skippedLineError(line, this.limits_), bytes: line.text }));
  }

  /** lines mode: the batch text of the last call (start address and length), or length 0 without elements. */
  batch(): { readonly ptr_: number; readonly length: number } {
    const session = this.session_;
    if (session.batchCount_ === 0) return { ptr_: 0, length: 0 };
    const u32 = this.runtime.u32_;
    const record = batchRecord(session.batches, 0);
    return { ptr_: batchPtr(u32, record), length: batchLength(u32, record) };
  }

  /** u32 index of element i's record (js/native/records.ts reads it) in runtime.u32. */
  element_(i: number): number {
    return elementRecord(this.session_.elements, i);
  }

  /** Address of element i's compacted text (the record names its end). */
  elementPtr_(record: number): number {
    const u32 = this.runtime.u32_;
    return elementEnd(u32, record) - elementLength(u32, record);
  }

  elementLength_(record: number): number {
    return elementLength(this.runtime.u32_, record);
  }

  elementPath_(record: number): number {
    return elementPath(this.runtime.u32_, record);
  }

  /** Where element `record` ends: in markers mode in the window, in lines mode in the batch. */
  elementEnd_(record: number): number {
    return elementEnd(this.runtime.u32_, record);
  }

  /** The key kind (KEY_NONE, KEY_INDEX, KEY_NAME), its raw JSON text's address and length, and the index. */
  elementKey_(record: number): { kind: number; ptr_: number; length: number; index: number } {
    const u32 = this.runtime.u32_;
    return {
      kind: elementKeyKind(u32, record),
      // key_gap bytes before the element's first byte, in 32-bit address arithmetic (the key stays in the input).
      ptr_: (this.elementPtr_(record) - elementKeyGap(u32, record)) >>> 0,
      length: elementKeyLength(u32, record),
      index: elementIndex(u32, record),
    };
  }

  /** The error for a non-zero status, in the library's words. */
  error(status: number): Error {
    const error = this.session_.error();
    const position = { offset: error.offset, line: error.line, column: error.column };
    return errorFromStatus(status, error.byte, position, this.limits_);
  }

  /**
   * The input bytes still at hand (the end of the window before, then the last one) and the absolute offset of the
   * first: where an error's excerpt comes from. Call right after the failing feed or finish.
   */
  bytesAround_(): { readonly start: number; readonly bytes: Uint8Array } {
    const ptr = this.inputPtr_;
    const bytes = new Uint8Array(this.tailLength_ + this.windowLength_);
    bytes.set(this.tail_.subarray(TAIL - this.tailLength_));
    bytes.set(this.runtime.u8_.subarray(ptr, ptr + this.windowLength_), this.tailLength_);
    return { start: this.windowBase_ - this.tailLength_, bytes };
  }

  delete(): void {
    this.session_.close();
  }
}
