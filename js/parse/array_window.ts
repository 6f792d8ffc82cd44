// A segment counted from the end of an array (`[-1]`, `[-3:]`, `[1:-1]`, `[::-1]`) over the elements a native
// head (`...[*]`) selects, each keyed by its index (js/query/split.ts). Every array the head reaches is at one depth,
// in document order, so an element of index 0 starts the next array and completes the one before; the end of the
// input completes the last. Until then JS holds a window of each array's last elements: |N| for `[-N]`, |start|
// for a slice with a negative start, none but a delay of |end| elements for a slice that only ends from the end,
// the whole array for a negative step (docs/paths.md, "Streaming": memory).
import type { IndexSelector, SliceSelector } from '../query/ast.js';
import { sliceIndices } from '../query/evaluate.js';
import type { ArrayWindowSpec } from '../query/split.js';

/** @internal One query's window, in one parser. */
export class ArrayWindow {
  private readonly selector_: IndexSelector | SliceSelector;
  /** How many of the last elements are held; Infinity: all (a negative step). */
  private readonly capacity_: number;
  /** A forward slice whose end alone counts from the end: elements are emitted |end| elements late. */
  private readonly delay_: number;
  /** The held elements from `head_` on, the oldest first, with their indices; compacted now and then. */
  private items_: unknown[] = [];
  private indices_: number[] = [];
  private head_ = 0;
  /** Elements of the current array seen so far: its length once it is complete. */
  private length_ = 0;

  constructor(spec: ArrayWindowSpec) {
    const s = spec.selector;
    this.selector_ = s;
    this.delay_ = 0;
    if (s.kind === 'index') {
      this.capacity_ = -s.index;
    } else if ((s.step ?? 1) < 0) {
      this.capacity_ = Infinity;
    } else if ((s.step ?? 1) === 0) {
      this.capacity_ = 0;
    } else if ((s.start ?? 0) < 0) {
      this.capacity_ = -s.start!;
    } else {
      this.capacity_ = 0;
      this.delay_ = -s.end!;
    }
  }

  /** Element `index` of the current array, as it completes; what it completes goes to `out`. */
  push(index: number, item: unknown, out: unknown[]): void {
    if (index === 0) this.flush(out);
    this.length_ = index + 1;
    const keep = this.delay_ > 0 ? this.delay_ : this.capacity_;
    if (keep === 0) return;
    this.items_.push(item);
    this.indices_.push(index);
    if (this.items_.length - this.head_ <= keep) return;
    const at = this.indices_[this.head_]!;
    const held = this.items_[this.head_];
    this.head_++;
    if (this.delay_ > 0) {
      // |end| elements came after it, so it is before the slice's end whatever the array's length.
      const s = this.selector_ as SliceSelector;
      const start = s.start ?? 0;
      if (at >= start && (at - start) % (s.step ?? 1) === 0) out.push(held);
    }
    // Dropped from the front in bulk: amortised constant time per element.
    if (this.head_ >= keep && this.head_ >= 64) {
      this.items_ = this.items_.slice(this.head_);
      this.indices_ = this.indices_.slice(this.head_);
      this.head_ = 0;
    }
  }

  /** The current array is complete: its selected elements, in the RFC's order, go to `out`. */
  flush(out: unknown[]): void {
    const length = this.length_;
    if (length === 0) return;
    if (this.delay_ === 0 && this.items_.length > this.head_) {
      // The held elements are the array's last ones, which hold every index the selector takes.
      const first = this.indices_[this.head_]! - this.head_;
      const s = this.selector_;
      const selected = s.kind === 'index' ? [length + s.index] : sliceIndices(s, length);
      for (const i of selected) if (i >= first + this.head_ && i < length) out.push(this.items_[i - first]);
    }
    this.items_ = [];
    this.indices_ = [];
    this.head_ = 0;
    this.length_ = 0;
  }
}

/**
 * @internal A parser's windows: one per query (its spec), shared by the query's native selectors, at their
 * selectors' places.
 */
export function windowsOf(specs: readonly (ArrayWindowSpec | null)[]): (ArrayWindow | null)[] {
  const made = new Map<ArrayWindowSpec, ArrayWindow>();
  return specs.map((spec) => {
    if (spec === null) return null;
    let window = made.get(spec);
    if (window === undefined) made.set(spec, (window = new ArrayWindow(spec)));
    return window;
  });
}

/** @internal Each window once (selectors of one query share it), with the first selector that uses it. */
export function distinctWindows(windows: readonly (ArrayWindow | null)[]): [number, ArrayWindow][] {
  const seen = new Set<ArrayWindow>();
  const distinct: [number, ArrayWindow][] = [];
  for (const [selector, window] of windows.entries()) {
    if (window === null || seen.has(window)) continue;
    seen.add(window);
    distinct.push([selector, window]);
  }
  return distinct;
}
