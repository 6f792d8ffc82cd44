// One native push parser working for one openJson request: ordinary selectors (values) and marker selectors
// (where a container ends, no bytes kept), started at the stream's beginning or restarted at the cursor behind a
// synthetic prefix (open_json_path.ts). Reports each element as an event with its absolute end offset in the real
// stream; values are materialised only when asked for (a skipped element is never parsed). Native error positions
// are translated back from the synthetic coordinates.
import { errorFromStatus, type ParserLimits } from '../errors.js';
import {
  ELEMENT_INDEX_HI, ELEMENT_INDEX_LO, ELEMENT_KEY_KIND, ELEMENT_KEY_LEN, ELEMENT_KEY_PTR, ELEMENT_LEN,
  ELEMENT_PATH_INDEX, ELEMENT_PTR, ELEMENT_WORDS, KEY_INDEX, KEY_NAME, VIEW_BATCHES_PTR, VIEW_BATCH_COUNT,
  VIEW_ELEMENTS_PTR, VIEW_ELEMENT_COUNT, VIEW_ERROR_BYTE, VIEW_ERROR_COLUMN, VIEW_ERROR_LINE, VIEW_ERROR_OFFSET,
  VIEW_INPUT_CAPACITY, VIEW_INPUT_PTR, BATCH_PTR, BATCH_LEN, FLAG_VALUE_BATCHES, PATH_ACCEPTED, VIEW_CARRY_OFFSET,
  VIEW_CARRY_PTR, VIEW_WINDOW_OFFSET, VIEW_WINDOW_PTR, type NativeParser, type NativeRuntime,
} from '../native/contract.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();
const BACKSLASH = 0x5c;

/**
 * The values of one native call: one JSON array text, decoded at once (straight from wasm memory: no copy of the
 * bytes) and parsed on first use.
 */
class Batch {
  private text: string | null;
  private values: unknown[] | null = null;

  constructor(text: string) {
    this.text = text;
  }

  value(i: number): unknown {
    if (this.values === null) {
      this.values = JSON.parse(this.text!) as unknown[];
      this.text = null;
    }
    return this.values[i];
  }
}

/** One element's own bytes (expand: elements are parsed one by one, most never). */
class Single {
  constructor(private readonly bytes: Uint8Array | null) {}

  value(): unknown {
    if (this.bytes === null) throw new Error('sluice: openJson asked for a value it chose not to copy');
    return JSON.parse(decoder.decode(this.bytes));
  }
}

/** A selected element (or a marker) reported by the parser. */
export class DriverEvent {
  constructor(
    /** Which selector: ordinary ones first, then the markers. */
    readonly path: number,
    /** Member name, array index, or null. Markers carry no name. */
    readonly key: string | number | null,
    /** Absolute offset just past the value. */
    readonly end: number,
    /** The value's first byte (0 for an end marker). */
    readonly first: number,
    private readonly batch: Batch | Single,
    private readonly index: number,
  ) {}

  /** The value, exactly as JSON.parse gives it (a batch's first use parses the whole batch). */
  value(): unknown {
    return this.batch.value(this.index);
  }
}

/**
 * Per-element mode: decides from the selector, key and first byte whether an element's bytes are copied at all
 * (expand leaves out objects it rebuilds from their members, and the child arrays it streamed).
 */
export type CopyFilter = (path: number, key: string | number | null, first: number) => boolean;

// Backstop for a request abandoned without close() (an iteration neither finished nor returned): the native
// parser would leak in wasm memory. The held value is the native handle alone.
const registry = new FinalizationRegistry<NativeParser>((native) => {
  try {
    native.delete();
  } catch {
    // Already freed, or the module aborted.
  }
});

export class Driver {
  private native: NativeParser | null;
  private readonly runtime: NativeRuntime;
  private readonly view: number;
  private readonly view64: number;
  /** Bytes of synthetic prefix before the real stream's `origin`. */
  private readonly shift: number;
  /** Lines before `origin` and where its line starts, for error positions (counted only then). */
  private readonly line: () => { lines: number; lineStart: number };
  private readonly limits: ParserLimits;
  /** The error that stopped the parser, once the events before it were taken. */
  failure: Error | null = null;
  private readonly copy: CopyFilter | undefined;
  /** Event paths from here on are start markers. */
  private readonly firstStart: number;

  /**
   * `paths` are ordinary selectors, `markers` marker selectors, `starts` start markers (event paths number them
   * in that order; a start marker's `end` is the offset of the value's first byte).
   * `prefix` is fed first; `origin` is the absolute offset of the first real byte fed after it.
   */
  constructor(
    runtime: NativeRuntime,
    limits: ParserLimits,
    paths: readonly string[],
    markers: readonly string[],
    starts: readonly string[],
    prefix: string,
    origin: number,
    line: () => { lines: number; lineStart: number },
    copy?: CopyFilter,
  ) {
    this.runtime = runtime;
    this.limits = limits;
    this.copy = copy;
    this.firstStart = paths.length + markers.length;
    const native = new runtime.native.Parser(limits.maxDepth, limits.maxElementBytes,
      copy === undefined ? FLAG_VALUE_BATCHES : 0);
    const refused = paths.find((p) => native.addPath(p) !== PATH_ACCEPTED) ??
      markers.find((p) => native.addMarkerPath(p) !== PATH_ACCEPTED) ??
      starts.find((p) => native.addStartMarkerPath(p) !== PATH_ACCEPTED);
    if (refused !== undefined) {
      native.delete();
      throw new Error(`sluice: the native parser refused the path ${refused}`);
    }
    this.native = native;
    registry.register(this, native, this);
    const address = native.view();
    this.view = address >>> 2;
    this.view64 = address >>> 3;
    const bytes = encoder.encode(prefix);
    this.shift = bytes.length - origin;
    this.line = line;
    if (bytes.length !== 0) {
      const events = this.feed(bytes);
      // A prefix completes nothing a request asks for (its values are placeholders behind the cursor), and it is
      // valid JSON so far: anything else is a bug here.
      if (this.failure !== null) throw this.failure;
      void events;
    }
  }

  /** Feeds bytes; returns the events they completed. On invalid input, `failure` is set after these events. */
  feed(bytes: Uint8Array): DriverEvent[] {
    const out: DriverEvent[] = [];
    const runtime = this.runtime;
    let offset = 0;
    while (offset < bytes.length && this.failure === null) {
      const native = this.native;
      if (native === null) throw new Error('sluice: an openJson parser was fed after it was freed');
      runtime.sync();
      const u32 = runtime.u32;
      const n = Math.min(u32[this.view + VIEW_INPUT_CAPACITY]!, bytes.length - offset);
      runtime.u8.set(n === bytes.length ? bytes : bytes.subarray(offset, offset + n), u32[this.view + VIEW_INPUT_PTR]!);
      const status = native.feed(n);
      this.collect(out);
      if (status !== 0) this.fail(status);
      offset += n;
    }
    return out;
  }

  /** The end of the input: completes a root scalar, reports truncation (as `failure`). */
  finish(): DriverEvent[] {
    const out: DriverEvent[] = [];
    if (this.native === null) return out;
    const status = this.native.finish();
    this.collect(out);
    if (status !== 0) this.fail(status);
    return out;
  }

  close(): void {
    const native = this.native;
    if (native === null) return;
    this.native = null;
    registry.unregister(this);
    native.delete();
  }

  private collect(out: DriverEvent[]): void {
    const runtime = this.runtime;
    runtime.sync();
    const u32 = runtime.u32;
    const f64 = runtime.f64;
    const view = this.view;
    const count = u32[view + VIEW_ELEMENT_COUNT]!;
    if (count === 0) return;
    const u8 = runtime.u8;
    const copy = this.copy;
    let batch: Batch | null = null;
    if (copy === undefined) {
      const batches = u32[view + VIEW_BATCHES_PTR]! >>> 2;
      if (u32[view + VIEW_BATCH_COUNT] !== 1) throw new Error('sluice: expected one value batch per call');
      const bptr = u32[batches + BATCH_PTR]!;
      batch = new Batch(decoder.decode(u8.subarray(bptr, bptr + u32[batches + BATCH_LEN]!)));
    }
    const elements = u32[view + VIEW_ELEMENTS_PTR]! >>> 2;
    const windowPtr = u32[view + VIEW_WINDOW_PTR]!;
    const windowEnd = windowPtr + u32[view + VIEW_INPUT_CAPACITY]!;
    const carryPtr = u32[view + VIEW_CARRY_PTR]!;
    const windowOffset = f64[this.view64 + VIEW_WINDOW_OFFSET]!;
    const carryOffset = f64[this.view64 + VIEW_CARRY_OFFSET]!;
    const shift = this.shift;
    for (let i = 0; i < count; i++) {
      const r = elements + i * ELEMENT_WORDS;
      const ptr = u32[r + ELEMENT_PTR]!;
      const end = ptr + u32[r + ELEMENT_LEN]!;
      const abs =
        ptr >= windowPtr && ptr <= windowEnd ? windowOffset + (end - windowPtr) : carryOffset + (end - carryPtr);
      const kind = u32[r + ELEMENT_KEY_KIND];
      let key: string | number | null = null;
      if (kind === KEY_INDEX) key = u32[r + ELEMENT_INDEX_HI]! * 4294967296 + u32[r + ELEMENT_INDEX_LO]!;
      else if (kind === KEY_NAME && u32[r + ELEMENT_KEY_LEN] !== 0) {
        key = decodeKey(u8, u32[r + ELEMENT_KEY_PTR]!, u32[r + ELEMENT_KEY_LEN]!);
      }
      const path = u32[r + ELEMENT_PATH_INDEX]!;
      const len = u32[r + ELEMENT_LEN]!;
      // A start marker points at the value's first byte; an end marker past its last.
      const first = len !== 0 || path >= this.firstStart ? u8[ptr]! : 0;
      const holder = batch ?? new Single(len !== 0 && copy!(path, key, first) ? u8.slice(ptr, end) : null);
      out.push(new DriverEvent(path, key, abs - shift, first, holder, i));
    }
  }

  private fail(status: number): void {
    const runtime = this.runtime;
    runtime.sync();
    const f64 = runtime.f64;
    const offset = f64[this.view64 + VIEW_ERROR_OFFSET]! - this.shift;
    const line = f64[this.view64 + VIEW_ERROR_LINE]!;
    // The prefix holds no newline: its line is the real line that holds the origin.
    const origin = this.line();
    const position = {
      offset,
      line: origin.lines + line,
      column: line === 1 ? offset - origin.lineStart + 1 : f64[this.view64 + VIEW_ERROR_COLUMN]!,
    };
    this.failure = errorFromStatus(status, runtime.u32[this.view + VIEW_ERROR_BYTE]!, position, this.limits);
    this.close();
  }
}

function decodeKey(u8: Uint8Array, ptr: number, len: number): string {
  const inner = u8.subarray(ptr + 1, ptr + len - 1);
  if (inner.indexOf(BACKSLASH) === -1) return decoder.decode(inner);
  return JSON.parse(decoder.decode(u8.subarray(ptr, ptr + len))) as string;
}
