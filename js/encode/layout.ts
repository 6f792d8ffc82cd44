// The encoder's text around values: separators, indentation and brackets, and the text JSON.stringify writes for a
// plain value or a slice of plain array elements, placed at a nesting depth.
import type { NestedFrame } from './frames.js';

/** @internal */
export class Layout {
  /** The indentation unit; '' when compact. */
  readonly gap: string;
  /** What goes between a member's key and its value. */
  readonly colon: string;
  private readonly propertyList: string[] | undefined;
  /** '\n' followed by the indentation of each depth, built on first use. */
  private readonly newlines: string[] = ['\n'];

  constructor(gap: string, propertyList: string[] | undefined) {
    this.gap = gap;
    this.colon = gap === '' ? ':' : ': ';
    this.propertyList = propertyList;
  }

  /** The text before the next member of `frame`, counted as written. */
  separator(frame: NestedFrame): string {
    const first = frame.count++ === 0;
    if (this.gap === '') return first ? '' : ',';
    return first ? this.newline(frame.depth + 1) : ',' + this.newline(frame.depth + 1);
  }

  /** The text that closes `frame` with `bracket`. */
  closing(frame: NestedFrame, bracket: string): string {
    return frame.count === 0 || this.gap === '' ? bracket : this.newline(frame.depth) + bracket;
  }

  /** JSON.stringify's text of a plain value, its lines indented for nesting `depth`. */
  stringify(value: object, depth: number): string {
    const text = JSON.stringify(value, this.propertyList, this.gap);
    // Outside strings (where JSON.stringify escapes them) newlines are only its indentation.
    return this.gap !== '' && depth > 0 ? text.replaceAll('\n', this.newline(depth)) : text;
  }

  /**
   * The elements of `slice` (plain) as they follow one another in an array at nesting `depth`, each with the
   * separator before it except the first's comma: "a,b", or "\n<indent>a,\n<indent>b".
   */
  elements(slice: readonly unknown[], depth: number): string {
    const text = JSON.stringify(slice, this.propertyList, this.gap);
    if (this.gap === '') return text.slice(1, -1);
    // "[\n<gap>a,\n<gap>b\n]" -> "\n<gap>a,\n<gap>b", then re-based to this depth.
    const inner = text.slice(1, -2);
    return depth > 0 ? inner.replaceAll('\n', this.newline(depth)) : inner;
  }

  newline(depth: number): string {
    const newlines = this.newlines;
    while (newlines.length <= depth) newlines.push(newlines[newlines.length - 1] + this.gap);
    return newlines[depth]!;
  }
}
