// The encoder's text around values: separators, indentation and brackets, and the text JSON.stringify writes for a
// plain value or a slice of plain array elements, placed at a nesting depth.
import type { NestedFrame } from './frames.js';

/** @internal */
export class Layout {
  /** The indentation unit; '' when compact. */
  readonly gap: string;
  /** What goes between a member's key and its value. */
  readonly colon_: string;
  private readonly propertyList_: string[] | undefined;
  /** The gap has newlines of its own: nested text cannot be re-indented by replacing newlines. */
  private readonly gapHasNewline_: boolean;
  /** '\n' followed by the indentation of each depth, built on first use. */
  private readonly newlines_: string[] = ['\n'];

  constructor(gap: string, propertyList: string[] | undefined) {
    this.gap = gap;
    this.colon_ = gap === '' ? ':' : ': ';
    this.propertyList_ = propertyList;
    this.gapHasNewline_ = gap.includes('\n');
  }

  /** The text before the next member of `frame`, counted as written. */
  separator_(frame: NestedFrame): string {
    const first = frame.count++ === 0;
    if (this.gap === '') return first ? '' : ',';
    return first ? this.newline_(frame.depth + 1) : ',' + this.newline_(frame.depth + 1);
  }

  /** The text that closes `frame` with `bracket`. */
  closing_(frame: NestedFrame, bracket: string): string {
    return frame.count === 0 || this.gap === '' ? bracket : this.newline_(frame.depth) + bracket;
  }

  /** JSON.stringify's text of a plain value, its lines indented for nesting `depth`. */
  stringify(value: object, depth: number): string {
    if (depth === 0 || this.gap === '') return JSON.stringify(value, this.propertyList_, this.gap);
    return this.indented_(value, depth);
  }

  /**
   * The elements `start` to `end` of `array` (plain) as they follow one another in an array at nesting `depth`,
   * each with the separator before it except the first's comma: "a,b", or "\n<indent>a,\n<indent>b".
   */
  elements(array: readonly unknown[], start: number, end: number, depth: number): string {
    let slice = start === 0 && end === array.length ? array : array.slice(start, end);
    // JSON.stringify would call a toJSON of the slice (the array's own, or one on Array.prototype): shadowed.
    if ((slice as { toJSON?: unknown }).toJSON !== undefined) {
      slice = Object.defineProperty(slice === array ? array.slice() : slice, 'toJSON', { value: undefined });
    }
    if (this.gap === '') return JSON.stringify(slice, this.propertyList_).slice(1, -1);
    // "[\n<indent + gap>a,\n<indent + gap>b\n<indent>]" -> "\n<indent + gap>a,\n<indent + gap>b".
    const text = depth === 0 ? JSON.stringify(slice, this.propertyList_, this.gap) : this.indented_(slice, depth);
    return text.slice(1, text.length - 2 - this.gap.length * depth);
  }

  /** JSON.stringify's text of `value` (gap not empty), re-based from nesting 0 to `depth`. */
  private indented_(value: object, depth: number): string {
    // Outside strings (where JSON.stringify escapes them) newlines are only where indentation starts.
    if (!this.gapHasNewline_) {
      return JSON.stringify(value, this.propertyList_, this.gap).replaceAll('\n', this.newline_(depth));
    }
    // A gap with its own newlines cannot be told from the indentation around it: written with one space per level
    // instead (the same text otherwise: the colon is ": " for any gap), each indentation is then rebuilt.
    return JSON.stringify(value, this.propertyList_, ' ').replace(/\n( *)/g, (_line: string, levels: string) =>
      this.newline_(depth + levels.length),
    );
  }

  newline_(depth: number): string {
    const newlines = this.newlines_;
    while (newlines.length <= depth) newlines.push(newlines[newlines.length - 1] + this.gap);
    return newlines[depth]!;
  }
}
