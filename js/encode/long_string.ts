// Strings longer than LONG_STRING_CHARS are escaped and written a piece at a time, one piece per step of the
// stepper's loop, so that time slices can fall between pieces: JSON.stringify of a 50 MB string is one call of
// 1.3 s on a loaded 2-core machine (0.6 ms per 64 Ki characters of ASCII). Pieces are escaped exactly as the
// whole: JSON.stringify escapes character by character, and a piece never ends between the halves of a pair.
import type { ChunkWriter } from './chunk_writer.js';

/** @internal Longer strings are written in pieces of this many UTF-16 units (one fewer before a pair). */
export const LONG_STRING_CHARS = 64 * 1024;

/** @internal The long string being written, if any: always the innermost thing being written. */
export class LongString {
  private text_ = '';
  private at_ = 0;
  /** A string is being written: the stepper writes its next piece before anything else. */
  active = false;

  /** Writes the opening quote; the pieces follow, one per step(). */
  start(text: string, out: ChunkWriter): void {
    this.text_ = text;
    this.at_ = 0;
    this.active = true;
    out.write('"');
  }

  /** Writes the next piece, and the closing quote after the last. */
  step(out: ChunkWriter): void {
    const text = this.text_;
    let end = Math.min(text.length, this.at_ + LONG_STRING_CHARS);
    // A high surrogate last: its low half (if any) goes with it in the next piece, or each would be escaped alone.
    if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    const escaped = JSON.stringify(text.substring(this.at_, end));
    out.write(escaped.substring(1, escaped.length - 1));
    this.at_ = end;
    if (end === text.length) {
      out.write('"');
      this.text_ = '';
      this.active = false;
    }
  }
}
