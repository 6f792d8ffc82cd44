// The bytes openJson has read from its source, as UTF-8 chunks at absolute offsets. A kept document holds them
// all (its raw values, re-read for any later request); a transient one only the chunk being read, so memory stays
// at one chunk whatever the stream's size. Each chunk notes the line count before it, for error positions of
// parsers restarted in the middle of the stream: a transient document counts each chunk as it arrives (it forgets
// them), a kept one only when an error needs a position (counting newlines one indexOf at a time cost a pretty-
// printed document more than scanning it: twitter.json, 1.4 ms per MB).
import { isArrayBuffer, isUint8Array } from '../realm.js';
import { openSource, type JsonSource, type PullReader, type ReadResult } from '../sources.js';
import { mustBe } from '../validate.js';

/** A chunk of the stream. */
export interface StoredChunk {
  readonly offset: number;
  readonly bytes: Uint8Array;
  /** Newlines before `offset`; -1 until counted (a kept document counts on demand). */
  lines: number;
  /** Absolute offset of the first byte of the line that holds `offset` (once `lines` is counted). */
  lineStart: number;
}

const encoder = new TextEncoder();
const REPLACEMENT_CHARACTER = new Uint8Array([0xef, 0xbf, 0xbd]);

export class ByteStore {
  private readonly source_: JsonSource;
  private reader_: PullReader | null = null;
  /** The chunks kept, in order. */
  chunks: StoredChunk[] = [];
  /** Bytes read from the source so far. */
  end = 0;
  /** The source is exhausted. */
  done = false;
  /** Newlines in the chunks counted so far (all of a transient document's; the first `counted` of a kept one). */
  private lines_ = 0;
  private lineStart_ = 0;
  private counted_ = 0;
  private pendingSurrogate_ = '';
  /** A failure of the source itself: the document cannot go on. */
  failure_: unknown = undefined;
  private readonly keep_: boolean;

  constructor(source: JsonSource, keep: boolean) {
    this.source_ = source;
    this.keep_ = keep;
  }

  /** Reads the next chunk; null at the end. Empty chunks are skipped. */
  async pull(): Promise<StoredChunk | null> {
    if (this.failure_ !== undefined) throw this.failure_;
    for (;;) {
      if (this.done) return null;
      this.reader_ ??= openSource(this.source_);
      let result: ReadResult;
      try {
        result = await this.read_(this.reader_);
      } catch (error) {
        this.failure_ ??= error;
        throw this.failure_;
      }
      let bytes: Uint8Array;
      if (result.done === true) {
        this.done = true;
        if (this.pendingSurrogate_ === '') return null;
        this.pendingSurrogate_ = '';
        bytes = REPLACEMENT_CHARACTER; // a lone high surrogate at the very end, as TextEncoder writes it
      } else {
        bytes = this.toBytes_(result.value);
        if (bytes.length === 0) continue;
      }
      return this.append_(bytes);
    }
  }

  private toBytes_(value: unknown): Uint8Array {
    if (typeof value === 'string') {
      let text = this.pendingSurrogate_ + value;
      this.pendingSurrogate_ = '';
      const last = text.charCodeAt(text.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        // Its low half may start the next chunk.
        this.pendingSurrogate_ = text.charAt(text.length - 1);
        text = text.slice(0, -1);
      }
      return encoder.encode(text);
    }
    let bytes: Uint8Array;
    // Of any realm (an iframe, a vm context): js/realm.ts.
    if (isUint8Array(value)) bytes = value;
    else if (isArrayBuffer(value)) bytes = new Uint8Array(value);
    else {
      const error = mustBe('openJson()', 'each chunk of source', 'a Uint8Array, ArrayBuffer or string', value);
      this.failure_ = error;
      throw error;
    }
    // A kept document holds the chunk for later requests (a pinned one for a while): its own copy, since a
    // source may reuse its buffer.
    if (this.keep_ || this.pinned_ >= 0) bytes = bytes.slice();
    if (this.pendingSurrogate_ !== '') {
      this.pendingSurrogate_ = '';
      const joined = new Uint8Array(3 + bytes.length);
      joined.set(REPLACEMENT_CHARACTER);
      joined.set(bytes, 3);
      return joined;
    }
    return bytes;
  }

  private append_(bytes: Uint8Array): StoredChunk {
    const chunk: StoredChunk = { offset: this.end, bytes, lines: -1, lineStart: -1 };
    this.end += bytes.length;
    this.chunks.push(chunk);
    if (!this.keep_) this.countThrough_(this.chunks.length);
    return chunk;
  }

  /** Counts the newlines of chunks [counted, upto), noting in each the count before it. */
  private countThrough_(upto: number): void {
    const chunks = this.chunks;
    for (; this.counted_ < upto; this.counted_++) {
      const c = chunks[this.counted_]!;
      c.lines = this.lines_;
      c.lineStart = this.lineStart_;
      const bytes = c.bytes;
      let last = -1;
      for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) {
        this.lines_++;
        last = i;
      }
      if (last !== -1) this.lineStart_ = c.offset + last + 1;
    }
  }

  /** Transient: bytes from here on are kept until unpin() (a value being read from the store, by expand). */
  private pinned_ = -1;

  /**
   * Keeps the bytes from `offset` on until unpin(): a transient document's chunks are then copies (a source may
   * reuse its buffer once the next chunk is asked for).
   */
  pin_(offset: number): void {
    if (this.keep_) return;
    this.pinned_ = offset;
    const chunks = this.chunks;
    for (let i = 0; i < chunks.length; i++) {
      const c = chunks[i]!;
      if (c.offset + c.bytes.length > offset) chunks[i] = { ...c, bytes: c.bytes.slice() }; // counted: transient
    }
  }

  unpin_(): void {
    this.pinned_ = -1;
  }

  /** The bytes [start, end), which must be held: a view when they lie in one chunk, else a copy. */
  slice(start: number, end: number): Uint8Array {
    const parts: Uint8Array[] = [];
    for (const c of this.chunks) {
      const from = Math.max(start, c.offset);
      const to = Math.min(end, c.offset + c.bytes.length);
      if (from < to) parts.push(c.bytes.subarray(from - c.offset, to - c.offset));
    }
    if (parts.length === 1) return parts[0]!;
    const out = new Uint8Array(end - start);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    if (at !== end - start) throw new Error('sluice: openJson no longer holds the bytes of a value');
    return out;
  }

  /** A transient document forgets every chunk before the one that holds `offset` (and before a pin). */
  forgetBefore_(offset: number): void {
    if (this.keep_) return;
    if (this.pinned_ >= 0 && this.pinned_ < offset) offset = this.pinned_;
    let drop = 0;
    const chunks = this.chunks;
    while (
      drop < chunks.length &&
      chunks[drop]!.offset + chunks[drop]!.bytes.length <= offset &&
      drop < chunks.length - 1
    )
      drop++;
    if (drop > 0) {
      this.chunks = chunks.slice(drop);
      this.counted_ -= drop; // a transient document counted them on arrival
    }
  }

  /** The held chunk with `offset <= pos < offset + length`, or null when pos is at or past the end read. */
  chunkAt_(pos: number): StoredChunk | null {
    const c = this.chunks[this.indexAt_(pos)];
    return c !== undefined && pos >= c.offset ? c : null;
  }

  /** The index of the first held chunk that ends after `pos` (chunks.length if none): a binary search. */
  private indexAt_(pos: number): number {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pos < chunks[mid]!.offset + chunks[mid]!.bytes.length) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The first offset still held. */
  get start(): number {
    return this.chunks.length === 0 ? this.end : this.chunks[0]!.offset;
  }

  /**
   * Line count before `offset` and the start of its line, counted on demand (only errors need it): returns a
   * function that holds on to the one chunk it needs. `offset` must lie in a chunk still held (or at the end).
   */
  lineAt_(offset: number): () => { lines: number; lineStart: number } {
    // The chunk that holds offset, or the last one when offset is at (or past) the end.
    const index = Math.min(this.indexAt_(offset), this.chunks.length - 1);
    const c = this.chunks[index];
    if (c === undefined) {
      const at = { lines: this.lines_, lineStart: this.lineStart_ };
      return () => at;
    }
    if (!this.keep_) return () => ByteStore.count_(c, offset);
    // A kept document never drops or replaces a chunk: counting up to this one can wait for an error.
    return () => {
      this.countThrough_(index + 1);
      return ByteStore.count_(c, offset);
    };
  }

  private static count_(c: StoredChunk, offset: number): { lines: number; lineStart: number } {
    {
      let lines = c.lines;
      let lineStart = c.lineStart;
      const upto = offset - c.offset;
      for (let i = c.bytes.indexOf(10); i !== -1 && i < upto; i = c.bytes.indexOf(10, i + 1)) {
        lines++;
        lineStart = c.offset + i + 1;
      }
      return { lines, lineStart };
    }
  }

  /** Rejects the read under way, if any, when abort() is called (see read()). */
  private abortRead_: ((reason: unknown) => void) | null = null;

  /**
   * One read of the source that abort() can end at once: a source may take its time (an async generator in an
   * `await`), and a closed document must not wait for it. A fresh promise per read: racing every read against
   * one long-lived promise would pile up reactions on it.
   */
  private read_(reader: PullReader): Promise<ReadResult> {
    return new Promise<ReadResult>((resolve, reject) => {
      this.abortRead_ = reject;
      reader.read().then(resolve, reject);
    }).finally(() => {
      this.abortRead_ = null;
    });
  }

  /**
   * Stops reading for good: the read under way and every later pull() reject with `reason`, the chunks are
   * dropped, and the source is cancelled (resolves when it has stopped, or at once when it is busy: see
   * PullReader.cancel).
   */
  abort(reason: unknown): Promise<void> {
    this.failure_ ??= reason;
    this.done = true;
    this.chunks = [];
    this.abortRead_?.(reason);
    if (this.reader_ === null) {
      // Never read: opened to be cancelled all the same (a fetch body would otherwise hold its connection).
      try {
        this.reader_ = openSource(this.source_);
      } catch {
        return Promise.resolve(); // locked or used elsewhere: not ours to cancel
      }
    }
    return this.reader_.cancel(reason);
  }
}
