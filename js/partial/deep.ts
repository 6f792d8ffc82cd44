// Containers nested deeper than treeTuning.lazyDepth: snapshots made when read, not at every push. A change deep
// down makes every container above it new (its snapshot shows a new child), so copying them all at each push costs
// O(depth) a delta: 1,000 levels written 4 characters at a time took 43 µs a delta against 1 µs at 10 (issue 29).
// The levels above lazyDepth are still copied at each push; below it a container keeps its members in a store, as
// a view does (array_view.ts, object_view.ts), and a history of what it held at each push that changed it: its
// store, member count, and the value of the member being written (an open container there: the child frame
// itself). The snapshot at lazyDepth is a view made at each push that changed anything below; the view of an open
// child inside it is a Lazy made when first read, for the same push. So a push costs O(1) whatever the depth, and a
// reader going down pays one view per level it reads (a binary search in the container's history, once).
//
// Sharing: the snapshot of a container at push v is keyed by the last push up to v that changed anything at its
// depth or below (DeepLog.changedAt): two pushes with the same key show the same subtree and get the same view
// (each frame keeps the last view it made, which is what reading the snapshots in order needs).
import { arrayView, Lazy } from './array_view.js';
import { type MemberStore, objectView } from './object_view.js';

/** What a deep container keeps (tree.ts's Frame extends it). */
export class DeepFrame {
  readonly isArray: boolean;
  readonly depth: number;
  /** Arrays published as views (and deep arrays): the append-only store, shared with the views. */
  store: unknown[] | null = null;
  /** Objects published as views (and deep objects): the member store, shared with the views. */
  members: MemberStore | null = null;
  /** Objects: whether the member being written has started (-1: not yet); as a view, its slot in `members`. */
  current = -1;
  /** Objects as views: the slot of the member written before the current key, or -1. */
  last = -1;
  /** Deep frames: the tree's list of deep frames changed since the last publish, which this one joins when changed. */
  touched: DeepFrame[] | null = null;
  /** Deep frames: closed (its history is complete). */
  closed = false;
  /** Deep frames: per push that changed it, 5 slots: the push, the store, the member count, the slot, its value. */
  history: unknown[] = [];
  /** Deep frames: the key of the last view made, and that view. */
  viewKey = -1;
  view: unknown = undefined;

  constructor(isArray: boolean, depth: number) {
    this.isArray = isArray;
    this.depth = depth;
  }

  /** Records what the container holds at this push. O(1). */
  record(version: number): void {
    const history = this.history;
    if (this.isArray) {
      const store = this.store!;
      const count = store.length;
      history.push(version, store, count, count - 1, count > 0 ? store[count - 1] : undefined);
    } else {
      const members = this.members!;
      const slot = this.current >= 0 ? this.current : this.last;
      history.push(version, members, members.keys.length, slot, slot >= 0 ? members.values[slot] : undefined);
    }
  }
}

/** The pushes that changed something at lazyDepth or deeper, with the depth of the deepest change. */
export class DeepLog {
  private readonly versions: number[] = [];
  private readonly depths: number[] = [];
  /** For each entry, the last earlier one with a greater depth, or -1 (a previous-greater chain). */
  private readonly previous: number[] = [];

  add(version: number, depth: number): void {
    let j = this.versions.length - 1;
    // The entries between previous[j] and j are no deeper than j: none deeper than `depth` either.
    while (j >= 0 && this.depths[j]! <= depth) j = this.previous[j]!;
    this.versions.push(version);
    this.depths.push(depth);
    this.previous.push(j);
  }

  /** The last push up to `version` that changed something at `depth` or deeper, or -1. */
  changedAt(depth: number, version: number): number {
    const versions = this.versions;
    let i = lastAtMost(versions, 1, version);
    while (i >= 0 && this.depths[i]! < depth) i = this.previous[i]!;
    return i < 0 ? -1 : versions[i]!;
  }

  /** The snapshot of a deep container at push `version` (a view); the same view for pushes that showed the same. */
  viewOf(frame: DeepFrame, version: number): unknown {
    const key = this.changedAt(frame.depth, version);
    if (frame.viewKey === key) return frame.view;
    const history = frame.history;
    const at = lastAtMost(history, 5, key) * 5;
    const count = history[at + 2] as number;
    let value = history[at + 4];
    if (value instanceof DeepFrame) {
      const child = value;
      value = new Lazy(() => this.viewOf(child, key));
    }
    const view = frame.isArray
      ? arrayView(history[at + 1] as unknown[], count, value)
      : objectView(history[at + 1] as MemberStore, count, history[at + 3] as number, value);
    frame.viewKey = key;
    frame.view = view;
    return view;
  }
}

/** The index of the last entry of an ascending sequence (every `stride`-th element of `list`) at most `value`, or -1. */
function lastAtMost(list: readonly unknown[], stride: number, value: number): number {
  let high = list.length / stride - 1;
  // Mostly the newest.
  if (high < 0 || (list[high * stride] as number) <= value) return high;
  let low = 0;
  high--;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((list[middle * stride] as number) <= value) low = middle + 1;
    else high = middle - 1;
  }
  return high;
}
