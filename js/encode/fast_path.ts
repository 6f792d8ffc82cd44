// The encoder's fast path, taken when there is no replacer function: what JSON.stringify can write in one call,
// exactly as the encoder must (PlainCheck decides), goes to it whole. A plain value up to SMALL_CHARS, a plain
// element of a source, and plain array elements in slices of about BATCH_CHARS characters.
import type { ChunkWriter } from './chunk_writer.js';
import type { ArrayFrame, ListFrame } from './frames.js';
import type { Layout } from './layout.js';
import { LONG_STRING_CHARS } from './long_string.js';
import type { PlainCheck } from './plain_check.js';

// Values whose estimated text is at most this long are written by one JSON.stringify call; larger ones member by
// member. Under V8's 64 Ki-character two-byte limit for regular heap strings, above which allocation is slower.
const SMALL_CHARS = 32 * 1024;
// Plain array elements are written by one JSON.stringify per slice of about this many characters: fewer calls
// than one per element, without building strings large enough to leave the young generation.
const BATCH_CHARS = 12 * 1024;

/** @internal */
export class FastPath {
  private readonly check_: PlainCheck;
  private readonly layout_: Layout;
  private readonly out_: ChunkWriter;

  constructor(check: PlainCheck, layout: Layout, out: ChunkWriter) {
    this.check_ = check;
    this.layout_ = layout;
    this.out_ = out;
  }

  /**
   * Writes `value` (resolved: toJSON and the replacer applied) at nesting `depth` if it is plain and small; false
   * if it needs the general path. At the top, a thenable, a toJSON or a rawJson is not plain.
   * @throws {TypeError} when `value` is an object the encoder is inside of (a cycle).
   */
  value(value: object, depth: number): boolean {
    if (this.check_.measure(value, SMALL_CHARS, false, depth) < 0) return false;
    this.out_.write(this.layout_.stringify(value, depth));
    return true;
  }

  /**
   * The common case of a source's element, a plain row, written without the general path (item, transform,
   * emit): true if `value` was plain and small, and is written.
   */
  element_(frame: ListFrame, value: object): boolean {
    if (this.check_.measure(value, SMALL_CHARS, false, frame.depth + 1) < 0) return false;
    const separator = this.layout_.separator_(frame);
    frame.index++;
    this.out_.write(separator + this.layout_.stringify(value, frame.depth + 1));
    return true;
  }

  /**
   * Writes plain array elements from `start` on with one JSON.stringify of a slice, as long as they are plain
   * and about BATCH_CHARS long in all. False when the element at `start` needs the general path.
   */
  batch(frame: ArrayFrame, array: readonly unknown[], start: number): boolean {
    const length = array.length;
    let left = BATCH_CHARS;
    let end = start;
    while (end < length && left > 0) {
      const item = array[end];
      if (typeof item === 'object' && item !== null) {
        // nested: JSON.stringify calls a Date's toJSON itself (with the slice index, which Date ignores).
        const size = this.check_.measure(item, left, true, frame.depth + 1);
        if (size < 0) break;
        left -= size;
      } else if (typeof item === 'string') {
        // A long string is the general path's, written in pieces (long_string.ts).
        if (item.length > LONG_STRING_CHARS) break;
        left -= item.length + 2;
      } else if (typeof item === 'bigint' && !this.check_.bigintIsPlain_()) {
        break;
      } else {
        left -= 6;
      }
      end++;
    }
    if (end === start) return false;
    const text = this.layout_.elements(array, start, end, frame.depth);
    this.out_.write(frame.count === 0 ? text : ',' + text);
    frame.count += end - start;
    frame.index = end;
    return true;
  }
}
