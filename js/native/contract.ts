// The binding contract of the push parser, JS half (HACKING.md, "The binding contract"): the module's types, the flags,
// the parser_view and record layouts and the limits, each under the name its C++ half (wasm/contract.h) gives it in
// lower case; tests/node/contract.test.ts compares the two. Also the reader of wasm memory every product shares.
// Nothing here is exported to users.

/** Which build of the core is running. */
export type BuildKind = 'simd128' | 'scalar';

/**
 * One native push parser (js/native/native_module.ts): a few hundred bytes of state while resident. All parsers share
 * the module's input window, result tables and view.
 */
export interface NativeParser {
  /**
   * Before the first feed. PATH_ACCEPTED; PATH_REFUSED: more than MAX_SELECTORS, more than 64 steps in the
   * selectors with a descendant segment (`..`) together, or after the first feed; else the index (in UTF-8 bytes)
   * of the path's syntax error.
   */
  addPath(path: string | Uint8Array): number;
  /**
   * The same for a marker selector (openJson): each match is reported at its end as an element of length 0 whose
   * end is just past it; no bytes kept, no size limit.
   */
  addMarkerPath_(path: string): number;
  /** A marker reported where each match starts (its end at the value's first byte, length 0), with its key. */
  addStartMarkerPath_(path: string): number;
  /** Scans n bytes written at input_ptr; returns the status (0 = ok). */
  feed(n: number): number;
  /** End of input; returns the status. */
  finish(): number;
  /**
   * The last call's carry could not be kept (the engine refused its buffer): fails the parser with OUT_OF_MEMORY at
   * `offset`, a byte of that call's window, its line and column in the view as any error's. Returns the status.
   */
  failOutOfMemory_(offset: number): number;
  /** Writes the parser's state at input_ptr, VIEW_SAVED_BYTES long (0: out of memory). */
  save(): void;
  /** Takes the state of n bytes a save() wrote, copied to input_ptr; false when memory is exhausted. */
  load(n: number): boolean;
  /** Frees the native parser. */
  delete(): void;
}

/** What the parser's module exposes to the parser half (the lazy half: js/lazy/native_lazy.ts). */
export interface NativeModule {
  Parser: new (maxDepth: number, maxElementBytes: number, flags: number) => NativeParser;
  /** Address of the parser_view struct every parser's call refreshes; stable for the module's life. */
  view(): number;
  /** Makes input_capacity >= n (a saved state larger than the window); false if memory is exhausted. */
  reserve_(n: number): boolean;
  /** Bytes malloc'ed right now. */
  heapInUse(): number;
  buildKind_(): BuildKind;
}

// Flags of the Parser constructor.
/** @internal The input is a sequence of top-level values (NDJSON or concatenated). */
export const FLAG_NDJSON = 1;
/** @internal Write each batch of elements as one JSON array text (`[e1,e2,...]`, ASCII). */
export const FLAG_VALUE_BATCHES = 2;
/** @internal Write each batch as one contiguous copy covering its elements' bytes. */
export const FLAG_COVER_BATCHES = 4;
/**
 * @internal One batch per call: the elements compacted (insignificant whitespace removed, every other byte kept),
 * each followed by a newline, the element records pointing at their compacted text (the CLI's select).
 */
export const FLAG_COMPACT_LINES = 16;
/** @internal With FLAG_NDJSON: a line that does not parse is reported (a skipped record) and skipped. */
export const FLAG_SKIP_INVALID = 32;
/**
 * @internal With FLAG_COMPACT_LINES: a node another selector chose just before (the same end and size) gets no line
 * of its own; its record points at that element's compacted text, so repeats are told by their equal ends.
 */
export const FLAG_SHARE_REPEATS = 64;

// The role of a selector (parser_add_path): addPath, addMarkerPath, addStartMarkerPath.
/** @internal */
export const ROLE_VALUE = 0;
/** @internal */
export const ROLE_END_MARKER = 1;
/** @internal */
export const ROLE_START_MARKER = 2;

// What addPath, addMarkerPath and addStartMarkerPath return, besides the index of a syntax error.
/** @internal */
export const PATH_ACCEPTED = -1;
/** @internal More than MAX_SELECTORS paths, or a path added after the first feed. */
export const PATH_REFUSED = -2;

// Limits of the core (src/sluice/limits.h), which the options are validated against. Visible in the .d.ts: the
// tests check the budgets derived from them.
/**
 * Selectors of one native parser, markers included (a bit each in a 32-bit mask). openJson spends them on
 * one request: its path, the containers around it, the members it tracks.
 */
export const MAX_SELECTORS = 32;
/** The largest maxDepth. */
export const MAX_DEPTH = 1_000_000;
/** The largest maxElementBytes: element sizes are 32-bit in the records. */
export const MAX_ELEMENT_BYTES = 0xffff_ffff;

// parser_view, as u32 indices from the struct's start.
/** @internal */
export const VIEW_INPUT_PTR = 0;
/** @internal */
export const VIEW_INPUT_CAPACITY = 1;
/** @internal */
export const VIEW_ELEMENT_COUNT = 2;
/** @internal */
export const VIEW_ELEMENTS_PTR = 3;
/** @internal */
export const VIEW_BATCH_COUNT = 4;
/** @internal */
export const VIEW_BATCHES_PTR = 5;
/** @internal */
export const VIEW_STATUS = 6;
/** @internal */
export const VIEW_ERROR_BYTE = 7;
/** @internal Elements of the last call that began before its window: their bytes are in the caller's carry. */
export const VIEW_CARRIED_COUNT = 22;
/** @internal The size of the state save() wrote at input_ptr. */
export const VIEW_SAVED_BYTES = 23;
/** @internal Lines the last call skipped (FLAG_SKIP_INVALID): that many skipped records at VIEW_SKIPPED_PTR. */
export const VIEW_SKIPPED_COUNT = 24;
/** @internal */
export const VIEW_SKIPPED_PTR = 25;
// parser_view, as f64 indices from the struct's start.
/** @internal */
export const VIEW_ERROR_OFFSET = 4;
/** @internal */
export const VIEW_ERROR_LINE = 5;
/** @internal */
export const VIEW_ERROR_COLUMN = 6;
/** @internal */
export const VIEW_BYTES_FED = 7;
/** @internal The stream offset of input_ptr in the last call. */
export const VIEW_WINDOW_OFFSET = 8;
/** @internal The caller keeps the stream's bytes from here to the window's end for the next call; -1: none. */
export const VIEW_RETAIN_FROM = 9;
/**
 * @internal The last call's records need the carry extended with the window up to this stream offset (at least
 * VIEW_WINDOW_OFFSET); 0: no record reads the carry.
 */
export const VIEW_CARRY_THROUGH = 10;
/** @internal Size of parser_view in bytes. */
export const VIEW_BYTES = 104;

// Element record: 8 x u32. The element is the stream's bytes [end - len, end), `end` an address in the window.
/** @internal */
export const ELEMENT_WORDS = 8;
/** @internal */
export const ELEMENT_END = 0;
/** @internal */
export const ELEMENT_LEN = 1;
/** @internal */
export const ELEMENT_PATH_INDEX = 2;
/** @internal */
export const ELEMENT_KEY_KIND = 3;
/** @internal A name key lies this many bytes before the element's first byte. */
export const ELEMENT_KEY_GAP = 4;
/** @internal */
export const ELEMENT_KEY_LEN = 5;
/** @internal */
export const ELEMENT_INDEX_LO = 6;
/** @internal */
export const ELEMENT_INDEX_HI = 7;
/** @internal */
export const KEY_NONE = 0;
/** @internal */
export const KEY_INDEX = 1;
/** @internal */
export const KEY_NAME = 2;

// Skipped line record: SKIPPED_BYTES bytes, u32 words, f64 words, then the line's first bytes.
/** @internal */
export const SKIPPED_BYTES = 120;
/** @internal u32 index: the status. */
export const SKIPPED_CODE = 0;
/** @internal u32 index: the offending byte, 256 for the end of the line or of the input. */
export const SKIPPED_BYTE = 1;
/** @internal u32 index: elements of the same call before it. */
export const SKIPPED_ELEMENT_INDEX = 2;
/** @internal u32 index: bytes of the line's text. */
export const SKIPPED_TEXT_LEN = 3;
/** @internal f64 index. */
export const SKIPPED_OFFSET = 2;
/** @internal f64 index. */
export const SKIPPED_LINE_NUMBER = 3;
/** @internal f64 index. */
export const SKIPPED_COLUMN = 4;
/** @internal Byte offset of the line's first bytes. */
export const SKIPPED_TEXT = 40;
/** @internal At most this many bytes of the line are kept. */
export const SKIPPED_TEXT_MAX = 80;

// Batch record: 4 x u32.
/** @internal */
export const BATCH_WORDS = 4;
/** @internal 0: the batch's one element began before the window, its bytes are in the caller's carry. */
export const BATCH_PTR = 0;
/** @internal */
export const BATCH_LEN = 1;
/** @internal */
export const BATCH_FIRST_ELEMENT = 2;
/** @internal */
export const BATCH_ELEMENT_COUNT = 3;

/**
 * @internal Typed views over a module's memory. Memory may grow inside any native call, which detaches the old
 * ArrayBuffer (its views then have length 0), so callers run `sync()` after every call before reading; that check
 * is one property load instead of a `memory.buffer` getter call. The parser's runtime and the lazy index's share it.
 */
export class Heap {
  readonly memory_: WebAssembly.Memory;
  u8_: Uint8Array;
  u32_: Uint32Array;
  f64_: Float64Array;

  constructor(memory: WebAssembly.Memory) {
    this.memory_ = memory;
    const buffer = memory.buffer;
    this.u8_ = new Uint8Array(buffer);
    this.u32_ = new Uint32Array(buffer);
    this.f64_ = new Float64Array(buffer);
  }

  /** Re-creates the views if memory grew since they were made. */
  sync_(): void {
    if (this.u8_.byteLength !== 0) return;
    const buffer = this.memory_.buffer;
    this.u8_ = new Uint8Array(buffer);
    this.u32_ = new Uint32Array(buffer);
    this.f64_ = new Float64Array(buffer);
  }
}

/** @internal A loaded module: the bindings plus typed views over its memory (Heap). */
export class NativeRuntime extends Heap {
  readonly native_: NativeModule;
  /** The parser_view every parser's call refreshes: its u32 and f64 indices. */
  readonly view_: number;
  readonly view64_: number;
  /** The first non-zero status of init()'s warm-up parse (0: it parsed cleanly), for the tests. */
  warmUpStatus_ = 0;

  constructor(native: NativeModule, memory: WebAssembly.Memory) {
    // First: it allocates the shared window, which may grow memory (the views are made after it).
    const address = native.view();
    super(memory);
    this.native_ = native;
    this.view_ = address >>> 2;
    this.view64_ = address >>> 3;
  }

  // The parser_view, field by field: the only reader of its layout. Each reads the last native call of any
  // parser of the module; call sync() after that call first (error() syncs itself: it is off the hot path).

  /** The input window: u8 index of its first byte. */
  inputPtr_(): number {
    return this.u32_[this.view_ + VIEW_INPUT_PTR]!;
  }

  /** The input window's size in bytes. */
  inputCapacity_(): number {
    return this.u32_[this.view_ + VIEW_INPUT_CAPACITY]!;
  }

  /** u32 index of the last call's first element record (ELEMENT_WORDS each). */
  elementsAt_(): number {
    return this.u32_[this.view_ + VIEW_ELEMENTS_PTR]! >>> 2;
  }

  elementCount_(): number {
    return this.u32_[this.view_ + VIEW_ELEMENT_COUNT]!;
  }

  /** u32 index of the last call's first batch record (BATCH_WORDS each). */
  batchesAt_(): number {
    return this.u32_[this.view_ + VIEW_BATCHES_PTR]! >>> 2;
  }

  batchCount_(): number {
    return this.u32_[this.view_ + VIEW_BATCH_COUNT]!;
  }

  /** Lines the last call skipped (FLAG_SKIP_INVALID). */
  skippedCount_(): number {
    return this.u32_[this.view_ + VIEW_SKIPPED_COUNT]!;
  }

  /** The last call's skipped lines: status, byte, position and first bytes (a copy), in order. */
  skippedLines_(): SkippedLine[] {
    this.sync_();
    const { u32_: u32, f64_: f64, u8_: u8 } = this;
    const count = u32[this.view_ + VIEW_SKIPPED_COUNT]!;
    const base = u32[this.view_ + VIEW_SKIPPED_PTR]!;
    const out: SkippedLine[] = [];
    for (let i = 0; i < count; i++) {
      const at = base + i * SKIPPED_BYTES;
      const w = at >>> 2;
      const d = at >>> 3;
      out.push({
        status: u32[w + SKIPPED_CODE]!,
        byte: u32[w + SKIPPED_BYTE]!,
        offset: f64[d + SKIPPED_OFFSET]!,
        line: f64[d + SKIPPED_LINE_NUMBER]!,
        column: f64[d + SKIPPED_COLUMN]!,
        text: u8.slice(at + SKIPPED_TEXT, at + SKIPPED_TEXT + u32[w + SKIPPED_TEXT_LEN]!),
      });
    }
    return out;
  }

  /** The error record of the last call that failed (the status is what the call returned). */
  error_(): NativeError {
    this.sync_();
    const f64 = this.f64_;
    const view64 = this.view64_;
    return {
      byte: this.u32_[this.view_ + VIEW_ERROR_BYTE]!,
      offset: f64[view64 + VIEW_ERROR_OFFSET]!,
      line: f64[view64 + VIEW_ERROR_LINE]!,
      column: f64[view64 + VIEW_ERROR_COLUMN]!,
    };
  }

  // The carry's fields of the last call (js/native/session.ts; HACKING.md, "Parser memory").

  /** VIEW_WINDOW_OFFSET. */
  windowOffset_(): number {
    return this.f64_[this.view64_ + VIEW_WINDOW_OFFSET]!;
  }

  /** VIEW_RETAIN_FROM. */
  retainFrom_(): number {
    return this.f64_[this.view64_ + VIEW_RETAIN_FROM]!;
  }

  /** VIEW_CARRY_THROUGH. */
  carryThrough_(): number {
    return this.f64_[this.view64_ + VIEW_CARRY_THROUGH]!;
  }

  /** VIEW_CARRIED_COUNT. */
  carriedCount_(): number {
    return this.u32_[this.view_ + VIEW_CARRIED_COUNT]!;
  }

  /** The size of the state the last save() wrote at inputPtr() (0: out of memory). */
  savedBytes_(): number {
    return this.u32_[this.view_ + VIEW_SAVED_BYTES]!;
  }
}

/**
 * @internal Where and what a native call found wrong: `byte` the offending byte (256 and above: the end of the
 * input), the position absolute in the stream as the parser counts it.
 */
export interface NativeError {
  readonly byte: number;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** @internal A line FLAG_SKIP_INVALID skipped: its error (`status` a native status) and its first bytes. */
export interface SkippedLine extends NativeError {
  readonly status: number;
  readonly text: Uint8Array;
}
