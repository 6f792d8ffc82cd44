// The WHATWG HTML event stream interpretation (html.spec.whatwg.org, "Parsing an event stream") over chunks:
// each chunk is decoded once (a streaming TextDecoder), scanned once for line ends from where the last scan
// stopped, and a line split over chunks is kept as its pieces, joined once when its end arrives. Nothing is ever
// rescanned, so one long line costs the same in 1,460-byte pieces as in one piece (tests/node/sse_linear.test.ts).
import { isArrayBuffer, isUint8Array } from '../realm.js';
import { mustBe, type ApiName } from '../validate.js';
import { EventStreamLimitError } from './limit_error.js';
import type { ResolvedEventStreamOptions, ServerSentEvent } from './options.js';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const BOM = 0xfeff;
/** The UTF-8 length of U+FEFF: a stripped byte order mark still counts in byte offsets. */
const BOM_BYTES = 3;

/** @internal What one push() was given: the chunk types every source yields. */
export type EventStreamChunk = Uint8Array | ArrayBuffer | string;

/** @internal One parser: push() chunks, get the events they completed. */
export class EventStreamCore {
  /** The limit error, once an event exceeded maxEventBytes; the parser then takes no more input. */
  failure_: EventStreamLimitError | null = null;

  private readonly maxEventBytes_: number;
  private readonly api_: ApiName;
  private readonly subject_: string;
  private readonly decoder_ = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The previous chunk was bytes: the decoder may hold the start of a character. */
  private decoderUsed_ = false;
  /** The first character of the stream was seen (and a byte order mark stripped if it was one). */
  private started_ = false;
  /** The last line ended with a CR that ended its chunk: an LF starting the next chunk is part of that line end. */
  private afterCR_ = false;
  /** The line being read: its pieces so far, joined when its end arrives. */
  private pending_: string[] = [];
  /** Byte offset of the first byte of the line being read. */
  private lineStart_ = 0;
  /** Bytes of input before the current chunk. */
  private position_ = 0;

  private data_: string[] = [];
  /** Bytes of the event's data lines, line ends excluded (a CRLF may be split over chunks). */
  private dataBytes_ = 0;
  /** Byte offset of the event's first data line. */
  private dataStart_ = 0;
  private type_ = '';
  private lastId_ = '';
  private retry_: number | undefined = undefined;

  // The current chunk: its bytes (null for a string) and, for a string, the last text index mapped to a byte offset.
  private bytes_: Uint8Array | null = null;
  /** Text index t of the current chunk is its byte t (see push()). */
  private direct_ = false;
  /** The decoder holds no byte of a character begun in an earlier chunk. */
  private synced_ = true;
  private text_ = '';
  private byteCursor_ = 0;
  private textCursor_ = 0;
  private textCursorOffset_ = 0;

  constructor(options: ResolvedEventStreamOptions, api: ApiName, subject: string) {
    this.maxEventBytes_ = options.maxEventBytes;
    this.api_ = api;
    this.subject_ = subject;
  }

  /** Parses one chunk; returns the events it completed. After a failure, returns none. */
  push(chunk: unknown): ServerSentEvent[] {
    const out: ServerSentEvent[] = [];
    if (this.failure_ !== null) return out;
    let text: string;
    const base = this.position_;
    if (typeof chunk === 'string') {
      text = chunk;
      // A string after bytes: the start of a character the decoder holds is a U+FFFD of the line being read.
      if (this.decoderUsed_) {
        this.decoderUsed_ = false;
        this.synced_ = true;
        const held = this.decoder_.decode();
        if (held !== '') this.pending_.push(held);
      }
      this.bytes_ = null;
      this.textCursor_ = 0;
      this.textCursorOffset_ = base;
    } else {
      const bytes = isUint8Array(chunk) ? chunk : isArrayBuffer(chunk) ? new Uint8Array(chunk) : null;
      if (bytes === null) throw mustBe(this.api_, this.subject_, 'a Uint8Array, ArrayBuffer or string', chunk);
      if (bytes.length === 0) return out;
      text = this.decoder_.decode(bytes, { stream: true });
      this.decoderUsed_ = true;
      this.bytes_ = bytes;
      this.byteCursor_ = 0;
      // As many characters as bytes, with nothing held from before: each character is one byte (ASCII, or an
      // invalid byte's U+FFFD; any other is fewer characters than bytes), so text index t is byte t.
      this.direct_ = this.synced_ && text.length === bytes.length;
      // Nothing is held after a direct chunk, nor after an ASCII byte (it ends any character begun).
      this.synced_ = this.direct_ || bytes[bytes.length - 1]! < 0x80;
    }
    const end = base + (this.bytes_ === null ? 0 : this.bytes_.length);
    this.text_ = text;
    this.scan_(text, out);
    this.position_ = this.bytes_ === null ? this.offsetOf_(text.length) : end;
    this.bytes_ = null;
    this.text_ = '';
    if (this.failure_ === null) {
      const held = this.dataBytes_ + (this.position_ - this.lineStart_);
      if (held > this.maxEventBytes_) this.fail_();
    }
    return out;
  }

  private scan_(text: string, out: ServerSentEvent[]): void {
    const n = text.length;
    if (n === 0) return;
    let i = 0;
    if (!this.started_) {
      this.started_ = true;
      if (text.charCodeAt(0) === BOM) {
        i = 1;
        this.lineStart_ = BOM_BYTES;
        if (this.bytes_ === null) {
          this.textCursor_ = 1;
          this.textCursorOffset_ += BOM_BYTES;
        }
      }
    }
    if (this.afterCR_) {
      this.afterCR_ = false;
      if (text.charCodeAt(i) === LF) {
        this.lineStart_ = this.lineEndOffset_(i, LF) + 1;
        i++;
      }
    }
    let cr = text.indexOf('\r', i);
    let lf = text.indexOf('\n', i);
    for (;;) {
      if (cr !== -1 && cr < i) cr = text.indexOf('\r', i);
      if (lf !== -1 && lf < i) lf = text.indexOf('\n', i);
      const end = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
      if (end === -1) break;
      let line = text.slice(i, end);
      if (this.pending_.length > 0) {
        this.pending_.push(line);
        line = this.pending_.join('');
        this.pending_ = [];
      }
      let next = end + 1;
      const endOffset = this.lineEndOffset_(end, text.charCodeAt(end));
      let nextOffset = endOffset + 1;
      if (text.charCodeAt(end) === CR) {
        if (next === n) this.afterCR_ = true;
        else if (text.charCodeAt(next) === LF) nextOffset = this.lineEndOffset_(next++, LF) + 1;
      }
      this.line_(line, endOffset - this.lineStart_, out);
      this.lineStart_ = nextOffset;
      i = next;
      if (this.failure_ !== null) return;
    }
    if (i < n) this.pending_.push(i === 0 ? text : text.slice(i));
  }

  /**
   * The byte offset of the CR or LF at text index `t` of the current chunk. Called for every CR and LF of the
   * chunk in order: in bytes they are the same characters in the same order (UTF-8 and its decoder never fold
   * them into another character), so the next one in the bytes is this one.
   */
  private lineEndOffset_(t: number, unit: number): number {
    const bytes = this.bytes_;
    if (bytes !== null) {
      if (this.direct_) return this.position_ + t;
      // A loop, not bytes.indexOf(): a typed array's indexOf costs more to call than a line's bytes cost to scan.
      let b = this.byteCursor_;
      while (bytes[b] !== unit) b++;
      this.byteCursor_ = b + 1;
      return this.position_ + b;
    }
    return this.offsetOf_(t);
  }

  /** The byte offset of text index `t` (at or after the last one asked) of the current string chunk. */
  private offsetOf_(t: number): number {
    this.textCursorOffset_ += utf8Length(this.text_, this.textCursor_, t);
    this.textCursor_ = t;
    return this.textCursorOffset_;
  }

  private line_(line: string, bytes: number, out: ServerSentEvent[]): void {
    if (line.length === 0) {
      this.dispatch_(out);
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) return;
    // The field name is the text before the colon (the whole line without one); compared in place, not sliced:
    // only the four names the standard knows matter, the rest are ignored.
    const nameLength = colon === -1 ? line.length : colon;
    const field = fieldOf(line, nameLength);
    if (field === '') return;
    const value = colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    switch (field) {
      case 'data':
        if (this.data_.length === 0) this.dataStart_ = this.lineStart_;
        this.data_.push(value);
        this.dataBytes_ += bytes;
        if (this.dataBytes_ > this.maxEventBytes_) this.fail_();
        break;
      case 'event':
        this.type_ = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId_ = value;
        break;
      case 'retry':
        if (isDigits(value)) this.retry_ = Number(value);
        break;
    }
  }

  private dispatch_(out: ServerSentEvent[]): void {
    const data = this.data_;
    if (data.length === 0) {
      this.type_ = '';
      return;
    }
    out.push({
      event: this.type_ === '' ? 'message' : this.type_,
      data: data.length === 1 ? data[0]! : data.join('\n'),
      id: this.lastId_,
      retry: this.retry_,
    });
    this.data_ = [];
    this.dataBytes_ = 0;
    this.type_ = '';
  }

  private fail_(): void {
    const start = this.data_.length > 0 ? this.dataStart_ : this.lineStart_;
    this.failure_ = new EventStreamLimitError(
      `Cannot parse event stream: an event larger than maxEventBytes (${this.maxEventBytes_}), ` +
        `the event starting at byte ${start}`,
      this.maxEventBytes_,
      start,
    );
    this.data_ = [];
    this.pending_ = [];
  }
}

/** The field a line names in its first `length` characters: one of the four the standard reads, or ''. */
function fieldOf(line: string, length: number): string {
  if (length === 4) return line.startsWith('data') ? 'data' : '';
  if (length === 5) return line.startsWith('event') ? 'event' : line.startsWith('retry') ? 'retry' : '';
  return length === 2 && line.startsWith('id') ? 'id' : '';
}

/** Only ASCII digits, at least one (a `retry` field's value as the spec takes it). */
function isDigits(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0x30 || unit > 0x39) return false;
  }
  return true;
}

/** The UTF-8 length of `text` from `from` to `to` (a lone surrogate counts 3 bytes: it is sent as U+FFFD). */
export function utf8Length(text: string, from: number, to: number): number {
  let bytes = to - from;
  for (let i = from; i < to; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else {
      // 3 bytes; a surrogate pair is 4 for its 2 units.
      bytes += 2;
      const low = i + 1 < to ? text.charCodeAt(i + 1) : 0;
      if (unit >= 0xd800 && unit <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) i++;
    }
  }
  return bytes;
}
