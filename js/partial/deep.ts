// Containers nested deeper than treeTuning.lazyDepth: snapshots made when read, not at every push. A change deep
// down makes every container above it new (its snapshot shows a new child), so copying them all at each push costs
// O(depth) a delta: 1,000 levels written 4 characters at a time took 43 µs a delta against 1 µs at 10 (issue 29).
// From lazyDepth down a container keeps its members in a store, as a view does (array_view.ts, object_view.ts), and
// at each push that changed its OWN members (one written, added, or a child opened or closed into one) it gets a new
// DeepState: an immutable record of its store, member count and the value of the member being written (OPEN there:
// the open child), with a pointer to its parent's state. At a push deeper than lazyDepth the levels from depth 1 up
// to it get a DeepState too, only when theirs is gone (tree.ts, recordUpper()): only the root is copied.
//
// A container's own members cannot change while a child of it is open (writes go to the innermost container), so
// the parent state a child's state points to is the parent's state for as long as the child is open, and the state
// of the innermost container at a push fixes the states of every level above it: a push makes one DeepState (a few
// when it opens containers) and one Shown, which keeps that innermost state. The snapshot at depth 1 is a view
// made at each deep push; the view of an open child inside it is a Lazy that the Shown resolves when first read (one walk
// up the parent pointers, then one view per level read). Nothing but the snapshots that show a state keeps it: the
// states of a closed container go when no snapshot of its time is held, so memory is what the live values and the
// held snapshots need.
import { arrayView, Lazy } from './array_view.js';
import { type MemberStore, objectView, setMember } from './object_view.js';
import { treeTuning } from './tuning.js';

/** In a deep container's store and states: the member is an open container (its view is made when read). */
export const OPEN: unique symbol = Symbol('sluice.partial.open');

/** What a deep container held at a push that changed its own members. Immutable. */
export class DeepState {
  constructor(
    /** The parent's state while this container was open with these members (null at depth 1). */
    readonly parent_: DeepState | null,
    /** Arrays: the append-only store; objects: the member store. */
    readonly store: unknown[] | MemberStore,
    readonly count: number,
    /** Objects: the slot of the member being written or just written, or -1. */
    readonly slot_: number,
    /** That member's value (arrays: the last element's); OPEN for an open container. */
    readonly value: unknown,
  ) {}
}

/** What a deep container keeps (tree.ts's Frame extends it). */
export class DeepFrame {
  readonly isArray: boolean;
  readonly depth: number;
  /** Arrays published as views (and deep arrays): the append-only store, shared with the views. */
  store: unknown[] | null = null;
  /** Objects published as views (and deep objects): the member store, shared with the views. */
  members: MemberStore | null = null;
  /** Objects: whether the member being written has started (-1: not yet); as a view, its slot in `members`. */
  current_ = -1;
  /** Objects as views: the slot of the member written before the current key, or -1. */
  last = -1;
  /** Deep frames: the tree's list of deep frames changed since the last publish, which this one joins when changed. */
  touched_: DeepFrame[] | null = null;
  /** Deep frames: what it held at the last publish that changed its own members. */
  state: DeepState | null = null;

  constructor(isArray: boolean, depth: number) {
    this.isArray = isArray;
    this.depth = depth;
  }

  /** Records what the container holds now, under its parent's state. O(1). */
  record(parent: DeepState | null): void {
    if (this.isArray) {
      const store = this.store!;
      const count = store.length;
      this.state = new DeepState(parent, store, count, count - 1, count > 0 ? store[count - 1] : undefined);
    } else {
      const members = this.members!;
      const slot = this.current_ >= 0 ? this.current_ : this.last;
      this.state = new DeepState(
        parent,
        members,
        members.keys.length,
        slot,
        slot >= 0 ? members.values[slot] : undefined,
      );
    }
  }
}

/**
 * The deep part of the snapshot of one push: its innermost state (at `depth`), and the views made of it so far,
 * each made once (a view read twice is the same object).
 */
export class Shown extends Lazy {
  private readonly depth_: number;
  private readonly base_: number;
  /** The view at `base`, made at publish. */
  private topView_: unknown = undefined;
  /**
   * States and views by distance up from the innermost, filled as far up as read: a container that closes in a push
   * after its last change takes its view from here (a few levels up at most), and a reader going down from `base`
   * makes the walk once.
   */
  private readonly innermost_: DeepState;
  private states_: DeepState[] | null = null;
  private views_: unknown[] | null = null;

  constructor(innermost: DeepState, depth: number, base: number) {
    super();
    this.innermost_ = innermost;
    this.depth_ = depth;
    this.base_ = base;
  }

  /** As the Lazy in the top view (one object less a push): the view of the top's open child. */
  get(): unknown {
    return this.viewAt_(this.base_ + 1);
  }

  /** The view at `base`, made at publish from `state`, the container's state there (no walk). */
  top(state: DeepState): unknown {
    const view = this.make_(state, this);
    this.topView_ = view;
    return view;
  }

  /** The view of the container at `depth` (base to the innermost) at this push. */
  viewAt_(depth: number): unknown {
    if (depth === this.base_ && this.topView_ !== undefined) return this.topView_;
    const up = this.depth_ - depth;
    if (this.states_ === null) this.states_ = [this.innermost_];
    const states = this.states_;
    while (states.length <= up) states.push(states[states.length - 1]!.parent_!);
    if (this.views_ === null) this.views_ = [];
    const views = this.views_;
    while (views.length <= up) views.push(undefined);
    if (views[up] !== undefined) return views[up];
    // Below the top every view holds its open child's view itself: made from the deepest one missing up (a loop,
    // not a recursion, whatever the depth).
    let from = up;
    while (from > 0 && views[from - 1] === undefined) from--;
    for (let u = from; u <= up; u++) views[u] = this.make_(states[u]!, u === 0 ? undefined : views[u - 1]);
    return views[up];
  }

  /** Whether the view at `depth` is a plain copy (the top one is a proxy when it holds a Lazy). */
  plainAt_(depth: number, isArray: boolean, count: number): boolean {
    return isPlain(isArray, count) && (depth !== this.base_ || this.depth_ === this.base_);
  }

  /** A container's view from its state; `child` stands for its open child (a Lazy at the top). */
  private make_(state: DeepState, child: unknown): unknown {
    const value = state.value === OPEN ? child : state.value;
    const store = state.store;
    const count = state.count;
    if (Array.isArray(store)) {
      if (!isPlain(true, count) || value instanceof Lazy) return arrayView(store, count, value);
      const copy = store.slice(0, count);
      if (count > 0) copy[count - 1] = value;
      return treeTuning.freezeOpen ? Object.freeze(copy) : copy;
    }
    const members = store as MemberStore;
    if (!isPlain(false, count) || value instanceof Lazy) return objectView(members, count, state.slot_, value);
    const copy: Record<string, unknown> = {};
    const { keys, values } = members;
    for (let i = 0; i < count; i++) setMember(copy, keys[i]!, i === state.slot_ ? value : values[i]);
    return treeTuning.freezeOpen ? Object.freeze(copy) : copy;
  }
}

/**
 * Whether a deep container's view is a plain copy (below the views' thresholds, as above lazyDepth): then one that
 * closes in a push after its last change becomes its view frozen, as a shallow one does, not a proxy kept for good.
 */
function isPlain(isArray: boolean, count: number): boolean {
  return count < (isArray ? treeTuning.viewMinLength : treeTuning.objectViewMinKeys);
}

/** Whether a plain view still holds exactly the frame's members (the application may write into it). */
export function holdsMembers(view: unknown, frame: DeepFrame): boolean {
  if (Object.getOwnPropertySymbols(view as object).length !== 0) return false;
  if (frame.isArray) {
    const store = frame.store!;
    const array = view as unknown[];
    if (!Array.isArray(array) || array.length !== store.length || Object.keys(array).length !== store.length) {
      return false;
    }
    for (let i = 0; i < store.length; i++) if (array[i] !== store[i]) return false;
    return true;
  }
  const { keys, values } = frame.members!;
  const object = view as Record<string, unknown>;
  if (Object.keys(object).length !== keys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    if (!Object.hasOwn(object, keys[i]!) || object[keys[i]!] !== values[i]) return false;
  }
  return true;
}
