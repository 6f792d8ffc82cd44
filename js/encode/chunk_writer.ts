// The encoder's output: text and bytes packed into fresh Uint8Array chunks of a fixed size. Text is joined and
// encoded a few thousand characters at a time: one TextEncoder.encodeInto call (and one view of the chunk) per
// batch of rows rather than per row. Measured on bench:stringify's articles (300,000 from an async generator,
// same run): 74 MB/s against 68 MB/s when each row of 256 characters or more was encoded as it came; the per-call
// cost outweighs the copy V8 makes to flatten the joined rope.
//
// A chunk goes out as soon as it is full. When the consumer then wants no more, the rest of what is being written
// waits in a backlog (a string and an offset into it: no copy of text) until drain() is called: a long string is
// written a chunk per read, never queued whole. Node's ReadableStream dequeues in O(queue length), so 125,000
// queued 16-byte chunks took 42 s to read.
const encoder = new TextEncoder();

/** @internal Where full (and flushed) chunks go. */
export type ChunkSink = (chunk: Uint8Array) => void;

// Joined text is encoded when it reaches this many UTF-16 units, or a quarter of a chunk (at most 3 bytes each:
// the writer never holds more than 3/4 of a chunk unencoded, so the producer stays within a chunk of the reader).
// Text at least this long is encoded at once, without joining.
const JOINED_CHARS = 4096;
// Joined text up to this long is tried as ASCII, byte by byte, before falling back to encodeInto.
const ASCII_CHARS = 64;

/** @internal */
export class ChunkWriter {
  private readonly size_: number;
  private readonly sink_: ChunkSink;
  /** Whether the consumer wants another chunk now. */
  private readonly wanted_: () => boolean;
  private readonly joinedChars_: number;
  private chunk_: Uint8Array;
  private pos_ = 0;
  /** Short text written but not encoded yet; empty while there is a backlog. */
  private text_ = '';
  /** What was written after the consumer stopped wanting chunks, in order, the first from `offset` on. */
  private readonly backlog_: (string | Uint8Array)[] = [];
  private offset_ = 0;
  /** Inside flush(): chunks go out whether wanted or not. */
  private forced_ = false;
  /**
   * CR and LF in written bytes (rawJson, raw elements: insignificant whitespace only, once validated) become
   * spaces, so the JSON stays on one line (an event stream's `data:` line). Text never holds one without `space`.
   */
  oneLine_ = false;

  constructor(size: number, sink: ChunkSink, wanted: () => boolean = () => true) {
    this.size_ = size;
    this.sink_ = sink;
    this.wanted_ = wanted;
    this.joinedChars_ = Math.max(4, Math.min(JOINED_CHARS, size >> 2));
    this.chunk_ = new Uint8Array(size);
  }

  /** Whether anything was written since the last chunk went out. */
  get pending(): boolean {
    return this.pos_ > 0 || this.text_ !== '' || this.backlog_.length > 0;
  }

  /** Some of what was written waits for the consumer to want more chunks (see drain()). */
  get backlogged_(): boolean {
    return this.backlog_.length > 0;
  }

  write(text: string): void {
    if (this.backlog_.length > 0) {
      this.backlog_.push(text);
      return;
    }
    if (text.length >= this.joinedChars_) {
      if (this.text_ !== '') this.drainText_();
      if (this.backlog_.length > 0) this.backlog_.push(text);
      else this.putText_(text);
      return;
    }
    const joined = this.text_ + text;
    if (joined.length < this.joinedChars_) this.text_ = joined;
    else {
      this.text_ = '';
      this.putText_(joined);
    }
  }

  /** Copies `bytes` (already valid UTF-8 JSON) into the output. */
  writeBytes_(bytes: Uint8Array): void {
    if (this.oneLine_) bytes = spaceLineBreaks(bytes);
    if (this.backlog_.length === 0 && this.text_ !== '') this.drainText_();
    // Held back, the bytes are copied: they are written as they were when validated.
    if (this.backlog_.length > 0) {
      this.backlog_.push(bytes.slice());
      return;
    }
    const end = this.copy_(bytes, 0);
    if (end < bytes.length) this.backlog_.push(bytes.slice(end));
  }

  /** Writes the backlog on while the consumer wants chunks. */
  drain_(): void {
    const backlog = this.backlog_;
    while (backlog.length > 0) {
      const item = backlog[0]!;
      const end = typeof item === 'string' ? this.encode_(item, this.offset_) : this.copy_(item, this.offset_);
      if (end < item.length) {
        this.offset_ = end;
        return;
      }
      backlog.shift();
      this.offset_ = 0;
    }
  }

  /** Sends everything written so far, wanted or not, the last chunk shorter if need be. */
  flush(): void {
    this.forced_ = true;
    try {
      this.drain_();
      if (this.text_ !== '') this.drainText_();
      if (this.pos_ > 0) this.emit_();
    } finally {
      this.forced_ = false;
    }
  }

  /** Encodes `text`, the backlog empty; what the consumer does not want yet becomes the backlog. */
  private putText_(text: string): void {
    const end = this.encode_(text, 0);
    if (end < text.length) {
      this.backlog_.push(text);
      this.offset_ = end;
    }
  }

  /** Encodes the joined text: byte by byte while it is ASCII and short (a separator, a bracket, a key). */
  private drainText_(): void {
    const text = this.text_;
    this.text_ = '';
    const length = text.length;
    if (length > ASCII_CHARS) {
      this.putText_(text);
      return;
    }
    let i = 0;
    for (; i < length; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0x80) break;
      if (this.pos_ === this.size_ && !this.next_()) break;
      this.chunk_[this.pos_++] = unit;
    }
    if (i < length) this.putText_(i === 0 ? text : text.substring(i));
    else if (this.pos_ === this.size_) this.emit_();
  }

  /**
   * Encodes `text` from `start` on; returns where it stopped: its length, or earlier when a chunk went out and
   * the consumer wants no more. O(text.length - start) for any chunk size: encodeInto is given at most as many
   * UTF-16 units as the chunk has bytes left (each takes one byte or more), because it may look at all of its
   * input whatever fits.
   */
  private encode_(text: string, start: number): number {
    const length = text.length;
    // The rare cases (a pair at a chunk's end) are arithmetic and compares that run every time, not branches of
    // their own: this is inlined into the fast path's hot loops, and a branch first taken late deoptimises them.
    for (;;) {
      let end = start + (this.size_ - this.pos_);
      // Never split a surrogate pair: each half alone would be encoded as U+FFFD.
      if (end < length) end -= highSurrogateAt(text, end - 1);
      const piece = start === 0 && end >= length ? text : text.substring(start, end);
      const { read, written } = encoder.encodeInto(
        piece,
        this.pos_ === 0 ? this.chunk_ : this.chunk_.subarray(this.pos_),
      );
      this.pos_ += written!;
      start += read!;
      if (start === length) break;
      // Read all of a piece cut before a pair, with room left: the pair comes next. Else the chunk is full, up to
      // the 1-3 bytes a multi-byte character did not fit in (an empty piece: one byte left, a pair next).
      if (this.pos_ < this.size_ && read !== 0 && read === piece.length) continue;
      if (this.pos_ === 0) throw new Error('sluice: a chunk is too small for one character');
      if (!this.next_()) return start;
    }
    if (this.pos_ === this.size_) this.emit_();
    return length;
  }

  /** Copies `bytes` from `start` on; returns where it stopped, as encode() does. */
  private copy_(bytes: Uint8Array, start: number): number {
    const length = bytes.length;
    while (start < length) {
      const n = Math.min(this.size_ - this.pos_, length - start);
      this.chunk_.set(n === length ? bytes : bytes.subarray(start, start + n), this.pos_);
      this.pos_ += n;
      start += n;
      if (this.pos_ === this.size_) {
        if (start === length) this.emit_();
        else if (!this.next_()) return start;
      }
    }
    return length;
  }

  /** Sends the full chunk; false if the consumer wants no more now (what follows goes to the backlog). */
  private next_(): boolean {
    this.emit_();
    return this.forced_ || this.wanted_();
  }

  private emit_(): void {
    const chunk = this.pos_ === this.size_ ? this.chunk_ : this.chunk_.subarray(0, this.pos_);
    this.chunk_ = new Uint8Array(this.size_);
    this.pos_ = 0;
    this.sink_(chunk);
  }
}

/** 1 if the unit at `index` of `text` is a high surrogate, else 0. */
function highSurrogateAt(text: string, index: number): number {
  return (text.charCodeAt(index) & 0xfc00) === 0xd800 ? 1 : 0;
}

/** `bytes`, or a copy with each CR and LF replaced by a space. */
function spaceLineBreaks(bytes: Uint8Array): Uint8Array {
  let i = bytes.indexOf(10);
  const cr = bytes.indexOf(13);
  if (i < 0 || (cr >= 0 && cr < i)) i = cr;
  if (i < 0) return bytes;
  const copy = bytes.slice();
  for (; i < copy.length; i++) if (copy[i] === 10 || copy[i] === 13) copy[i] = 32;
  return copy;
}
