// One native push parser working for one openJson request: ordinary selectors (values) and marker selectors
// (where a container ends, no bytes kept), started at the stream's beginning or restarted at the cursor behind a
// synthetic prefix (open_json_path.ts). Reports each element as an event with its absolute end offset in the real
// stream; values are materialised only when asked for (a skipped element is never parsed). Native error positions
// are translated back from the synthetic coordinates.
import { errorFromStatus, type ParserLimits } from '../errors.js';
import { FLAG_VALUE_BATCHES, type NativeRuntime } from '../native/contract.js';
import { batchLength, batchPtr } from '../native/records.js';
import { ParserSession, OUT_OF_MEMORY_LOST, lostError } from '../native/session.js';
import { CallResults } from '../parse/materialise.js';
import { stringLimits } from '../parse/options.js';
import { parseIntegers, type IntegersMode } from '../parse/integers.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * The values of one native call: one JSON array text, decoded at once (straight from wasm memory: no copy of the
 * bytes) and parsed on first use.
 */
class Batch {
  private text_: string | null;
  private values_: unknown[] | null = null;

  constructor(
    text: string,
    private readonly integers_: IntegersMode,
  ) {
    this.text_ = text;
  }

  value(i: number): unknown {
    if (this.values_ === null) {
      this.values_ = parseIntegers(this.text_!, this.integers_) as unknown[];
      this.text_ = null;
    }
    return this.values_[i];
  }
}

/** The text of an element that began in an earlier window (its bytes were in the carry, not in the batch). */
class Text {
  constructor(
    private readonly text_: string,
    private readonly integers_: IntegersMode,
  ) {}

  value(): unknown {
    return parseIntegers(this.text_, this.integers_);
  }
}

/** One element's own bytes (expand: elements are parsed one by one, most never). */
class Single {
  constructor(
    private readonly bytes_: Uint8Array | null,
    private readonly integers_: IntegersMode,
  ) {}

  value(): unknown {
    if (this.bytes_ === null) throw new Error('sluice: openJson asked for a value it chose not to copy');
    return parseIntegers(decoder.decode(this.bytes_), this.integers_);
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
    private readonly batch_: Batch | Text | Single,
    private readonly index_: number,
  ) {}

  /** The value, exactly as JSON.parse gives it (a batch's first use parses the whole batch). */
  value(): unknown {
    return this.batch_.value(this.index_);
  }
}

/**
 * Per-element mode (no value batch): decides from the selector and from how many elements of selector 0 the same
 * call reports after this one (`later`) whether an element is copied and reported at all (expand takes each; a
 * window of an array's last N elements only the last N of each call).
 */
export type CopyFilter = (path: number, later: number) => boolean;

export class Driver {
  private session_: ParserSession | null;
  private readonly runtime_: NativeRuntime;
  /** Bytes of synthetic prefix before the real stream's `origin`. */
  private readonly shift_: number;
  /** Lines before `origin` and where its line starts, for error positions (counted only then). */
  private readonly line_: () => { lines: number; lineStart: number };
  private readonly limits_: ParserLimits;
  private readonly integers_: IntegersMode;
  /** The error that stopped the parser, once the events before it were taken. */
  failure_: Error | null = null;
  private readonly copy_: CopyFilter | undefined;
  /** Event paths from here on are start markers. */
  private readonly firstStart_: number;
  /** The holder of the markers' events (per-element mode: no bytes). */
  private readonly none_: Single;

  /**
   * `paths` are ordinary selectors, `markers` marker selectors, `starts` start markers (event paths number them
   * in that order; a start marker's `end` is the offset of the value's first byte).
   * `prefix` is fed first; `origin` is the absolute offset of the first real byte fed after it.
   */
  constructor(
    runtime: NativeRuntime,
    limits: ParserLimits,
    integers: IntegersMode,
    paths: readonly string[],
    markers: readonly string[],
    starts: readonly string[],
    prefix: string,
    origin: number,
    line: () => { lines: number; lineStart: number },
    copy?: CopyFilter,
  ) {
    this.runtime_ = runtime;
    this.integers_ = integers;
    // Every value a request delivers is parsed from a string.
    this.limits_ = limits = stringLimits(limits);
    this.copy_ = copy;
    this.none_ = new Single(null, integers);
    this.firstStart_ = paths.length + markers.length;
    this.session_ = new ParserSession(runtime, {
      maxDepth: limits.maxDepth,
      maxElementBytes: limits.maxElementBytes,
      flags: copy === undefined ? FLAG_VALUE_BATCHES : 0,
      paths,
      markers,
      starts,
    });
    const bytes = encoder.encode(prefix);
    this.shift_ = bytes.length - origin;
    this.line_ = line;
    if (bytes.length !== 0) {
      const events = this.feed(bytes);
      // A prefix completes nothing a request asks for (its values are placeholders behind the cursor), and it is
      // valid JSON so far: anything else is a bug here.
      if (this.failure_ !== null) throw this.failure_;
      void events;
    }
  }

  /** Feeds bytes; returns the events they completed. On invalid input, `failure` is set after these events. */
  feed(bytes: Uint8Array): DriverEvent[] {
    const out: DriverEvent[] = [];
    const runtime = this.runtime_;
    let offset = 0;
    while (offset < bytes.length && this.failure_ === null) {
      const session = this.session_;
      if (session === null) throw new Error('sluice: an openJson parser was fed after it was freed');
      if (!session.acquireInput_()) {
        this.run_(session, 0, out);
        break;
      }
      const n = Math.min(session.inputCapacity_, bytes.length - offset);
      runtime.u8_.set(n === bytes.length ? bytes : bytes.subarray(offset, offset + n), session.inputPtr_);
      this.run_(session, n, out);
      offset += n;
    }
    return out;
  }

  /** The end of the input: completes a root scalar, reports truncation (as `failure`). */
  finish(): DriverEvent[] {
    const out: DriverEvent[] = [];
    if (this.session_ === null) return out;
    this.run_(this.session_, -1, out);
    return out;
  }

  close(): void {
    const session = this.session_;
    if (session === null) return;
    this.session_ = null;
    session.close_();
  }

  private run_(session: ParserSession, n: number, out: DriverEvent[]): void {
    const status = session.call_(n);
    if (status !== 0) {
      // The elements before the error first.
      const error = this.errorOf_(status, session);
      // A lost parser made no call: the tables hold another call's results.
      if (status !== OUT_OF_MEMORY_LOST) this.collect_(session, out);
      this.failure_ = error;
      this.close();
      return;
    }
    this.collect_(session, out);
  }

  private collect_(session: ParserSession, out: DriverEvent[]): void {
    const call = new CallResults(session);
    const count = call.count_;
    if (count === 0) return;
    const copy = this.copy_;
    let batch: Batch | null = null;
    if (copy === undefined) {
      const { u32_: u32, u8_: u8 } = call;
      const batches = session.batches_;
      if (session.batchCount_ !== 1) throw new Error('sluice: expected one value batch per call');
      const bptr = batchPtr(u32, batches);
      batch = new Batch(decoder.decode(u8.subarray(bptr, bptr + batchLength(u32, batches))), this.integers_);
    }
    const shift = this.shift_;
    let later = 0;
    if (copy !== undefined) for (let i = 0; i < count; i++) if (call.path_(i) === 0) later++;
    for (let i = 0; i < count; i++) {
      const path = call.path_(i);
      if (path === 0) later--;
      const len = call.length_(i);
      // An element the filter declines is neither copied nor reported (markers, which have no bytes, always are).
      if (batch === null && len !== 0 && !copy!(path, later)) continue;
      const start = call.start_(i);
      const key = call.key_(i);
      // A start marker points at the value's first byte; an end marker past its last.
      const first = len !== 0 || path >= this.firstStart_ ? session.byteAt_(start) : 0;
      let holder: Batch | Text | Single;
      if (batch !== null) {
        // An element that began in an earlier window is `0` in the batch: its text comes from the carry.
        holder = len !== 0 && start < session.windowOffset_ ? new Text(call.text_(i), this.integers_) : batch;
      } else {
        holder = len !== 0 ? new Single(call.copy_(i), this.integers_) : this.none_;
      }
      out.push(new DriverEvent(path, key, start + len - shift, first, holder, i));
    }
  }

  private errorOf_(status: number, session: ParserSession): Error {
    if (status === OUT_OF_MEMORY_LOST && !session.lostInView_) return lostError(null);
    const error = session.error_();
    const offset = error.offset - this.shift_;
    // The prefix holds no newline: its line is the real line that holds the origin.
    const origin = this.line_();
    const position = {
      offset,
      line: origin.lines + error.line,
      column: error.line === 1 ? offset - origin.lineStart + 1 : error.column,
    };
    if (status === OUT_OF_MEMORY_LOST) return lostError(position);
    return errorFromStatus(status, error.byte, position, this.limits_);
  }
}
