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

  private readonly maxEventBytes: number;
  private readonly api: ApiName;
  private readonly subject: string;
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The previous chunk was bytes: the decoder may hold the start of a character. */
  private decoderUsed = false;
  /** The first character of the stream was seen (and a byte order mark stripped if it was one). */
  private started = false;
  /** The last line ended with a CR that ended its chunk: an LF starting the next chunk is part of that line end. */
  private afterCR = false;
  /** The line being read: its pieces so far, joined when its end arrives. */
  private pending: string[] = [];
  /** Byte offset of the first byte of the line being read. */
  private lineStart = 0;
  /** Bytes of input before the current chunk. */
  private position = 0;

  private data: string[] = [];
  /** Bytes of the event's data lines, line ends excluded (a CRLF may be split over chunks). */
  private dataBytes = 0;
  /** Byte offset of the event's first data line. */
  private dataStart = 0;
  private type = '';
  private lastId = '';
  private retry: number | undefined = undefined;

  // The current chunk: its bytes (null for a string) and, for a string, the last text index mapped to a byte offset.
  private bytes: Uint8Array | null = null;
  /** Text index t of the current chunk is its byte t (see push()). */
  private direct = false;
  /** The decoder holds no byte of a character begun in an earlier chunk. */
  private synced = true;
  private text = '';
  private byteCursor = 0;
  private textCursor = 0;
  private textCursorOffset = 0;

  constructor(options: ResolvedEventStreamOptions, api: ApiName, subject: string) {
    this.maxEventBytes = options.maxEventBytes;
    this.api = api;
    this.subject = subject;
  }

  /** Parses one chunk; returns the events it completed. After a failure, returns none. */
  push(chunk: unknown): ServerSentEvent[] {
    const out: ServerSentEvent[] = [];
    if (this.failure_ !== null) return out;
    let text: string;
    const base = this.position;
    if (typeof chunk === 'string') {
      text = chunk;
      // A string after bytes: the start of a character the decoder holds is a U+FFFD of the line being read.
      if (this.decoderUsed) {
        this.decoderUsed = false;
        this.synced = true;
        const held = this.decoder.decode();
        if (held !== '') this.pending.push(held);
      }
      this.bytes = null;
      this.textCursor = 0;
      this.textCursorOffset = base;
    } else {
      const bytes = isUint8Array(chunk) ? chunk : isArrayBuffer(chunk) ? new Uint8Array(chunk) : null;
      if (bytes === null) throw mustBe(this.api, this.subject, 'a Uint8Array, ArrayBuffer or string', chunk);
      if (bytes.length === 0) return out;
      text = this.decoder.decode(bytes, { stream: true });
      this.decoderUsed = true;
      this.bytes = bytes;
      this.byteCursor = 0;
      // As many characters as bytes, with nothing held from before: each character is one byte (ASCII, or an
      // invalid byte's U+FFFD; any other is fewer characters than bytes), so text index t is byte t.
      this.direct = this.synced && text.length === bytes.length;
      // Nothing is held after a direct chunk, nor after an ASCII byte (it ends any character begun).
      this.synced = this.direct || bytes[bytes.length - 1]! < 0x80;
    }
    const end = base + (this.bytes === null ? 0 : this.bytes.length);
    this.text = text;
    this.scan(text, out);
    this.position = this.bytes === null ? this.offsetOf(text.length) : end;
    this.bytes = null;
    this.text = '';
    if (this.failure_ === null) {
      const held = this.dataBytes + (this.position - this.lineStart);
      if (held > this.maxEventBytes) this.fail();
    }
    return out;
  }

  private scan(text: string, out: ServerSentEvent[]): void {
    const n = text.length;
    if (n === 0) return;
    let i = 0;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === BOM) {
        i = 1;
        this.lineStart = BOM_BYTES;
        if (this.bytes === null) {
          this.textCursor = 1;
          this.textCursorOffset += BOM_BYTES;
        }
      }
    }
    if (this.afterCR) {
      this.afterCR = false;
      if (text.charCodeAt(i) === LF) {
        this.lineStart = this.lineEndOffset(i, LF) + 1;
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
      if (this.pending.length > 0) {
        this.pending.push(line);
        line = this.pending.join('');
        this.pending = [];
      }
      let next = end + 1;
      const endOffset = this.lineEndOffset(end, text.charCodeAt(end));
      let nextOffset = endOffset + 1;
      if (text.charCodeAt(end) === CR) {
        if (next === n) this.afterCR = true;
        else if (text.charCodeAt(next) === LF) nextOffset = this.lineEndOffset(next++, LF) + 1;
      }
      this.line(line, endOffset - this.lineStart, out);
      this.lineStart = nextOffset;
      i = next;
      if (this.failure_ !== null) return;
    }
    if (i < n) this.pending.push(i === 0 ? text : text.slice(i));
  }

  /**
   * The byte offset of the CR or LF at text index `t` of the current chunk. Called for every CR and LF of the
   * chunk in order: in bytes they are the same characters in the same order (UTF-8 and its decoder never fold
   * them into another character), so the next one in the bytes is this one.
   */
  private lineEndOffset(t: number, unit: number): number {
    const bytes = this.bytes;
    if (bytes !== null) {
      if (this.direct) return this.position + t;
      // A loop, not bytes.indexOf(): a typed array's indexOf costs more to call than a line's bytes cost to scan.
      let b = this.byteCursor;
      while (bytes[b] !== unit) b++;
      this.byteCursor = b + 1;
      return this.position + b;
    }
    return this.offsetOf(t);
  }

  /** The byte offset of text index `t` (at or after the last one asked) of the current string chunk. */
  private offsetOf(t: number): number {
    this.textCursorOffset += utf8Length(this.text, this.textCursor, t);
    this.textCursor = t;
    return this.textCursorOffset;
  }

  private line(line: string, bytes: number, out: ServerSentEvent[]): void {
    if (line.length === 0) {
      this.dispatch(out);
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
        if (this.data.length === 0) this.dataStart = this.lineStart;
        this.data.push(value);
        this.dataBytes += bytes;
        if (this.dataBytes > this.maxEventBytes) this.fail();
        break;
      case 'event':
        this.type = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      case 'retry':
        if (isDigits(value)) this.retry = Number(value);
        break;
    }
  }

  private dispatch(out: ServerSentEvent[]): void {
    const data = this.data;
    if (data.length === 0) {
      this.type = '';
      return;
    }
    out.push({
      event: this.type === '' ? 'message' : this.type,
      data: data.length === 1 ? data[0]! : data.join('\n'),
      id: this.lastId,
      retry: this.retry,
    });
    this.data = [];
    this.dataBytes = 0;
    this.type = '';
  }

  private fail(): void {
    const start = this.data.length > 0 ? this.dataStart : this.lineStart;
    this.failure_ = new EventStreamLimitError(
      `Cannot parse event stream: an event larger than maxEventBytes (${this.maxEventBytes}), ` +
        `the event starting at byte ${start}`,
      this.maxEventBytes,
      start,
    );
    this.data = [];
    this.pending = [];
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
