// Containers nested deeper than treeTuning.lazyDepth: snapshots made when read, not at every push. A change deep
// down makes every container above it new (its snapshot shows a new child), so copying them all at each push costs
// O(depth) a delta: 1,000 levels written 4 characters at a time took 43 µs a delta against 1 µs at 10 (issue 29).
// The levels above lazyDepth are still copied at each push; below it a container keeps its members in a store, as
// a view does (array_view.ts, object_view.ts), and at each push that changed its OWN members (one written, added,
// or a child opened or closed into one) it gets a new DeepState: an immutable record of its store, member count and
// the value of the member being written (OPEN there: the open child), with a pointer to its parent's state.
//
// A container's own members cannot change while a child of it is open (writes go to the innermost container), so
// the parent state a child's state points to is the parent's state for as long as the child is open, and the state
// of the innermost container at a push fixes the states of every level above it: a push makes one DeepState (a few
// when it opens containers) and one Shown, which keeps that innermost state. The snapshot at lazyDepth is a view
// made at each push; the view of an open child inside it is a Lazy that the Shown resolves when first read (one walk
// up the parent pointers, then one view per level read). Nothing but the snapshots that show a state keeps it: the
// states of a closed container go when no snapshot of its time is held, so memory is what the live values and the
// held snapshots need, and the garbage collector sees what the copies above lazyDepth would give it.
import { arrayView, Lazy } from './array_view.js';
import { type MemberStore, objectView } from './object_view.js';

/** In a deep container's store and states: the member is an open container (its view is made when read). */
export const OPEN: unique symbol = Symbol('sluice.partial.open');

/** What a deep container held at a push that changed its own members. Immutable. */
export class DeepState {
  constructor(
    /** The parent's state while this container was open with these members (null at lazyDepth). */
    readonly parent: DeepState | null,
    /** Arrays: the append-only store; objects: the member store. */
    readonly store: unknown[] | MemberStore,
    readonly count: number,
    /** Objects: the slot of the member being written or just written, or -1. */
    readonly slot: number,
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
  current = -1;
  /** Objects as views: the slot of the member written before the current key, or -1. */
  last = -1;
  /** Deep frames: the tree's list of deep frames changed since the last publish, which this one joins when changed. */
  touched: DeepFrame[] | null = null;
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
      const slot = this.current >= 0 ? this.current : this.last;
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
export class Shown {
  private readonly depth: number;
  private readonly base: number;
  /** The view at `base`, made at publish. */
  private topView: unknown = undefined;
  /**
   * States and views by distance up from the innermost, filled as far up as read: a container that closes in a push
   * after its last change takes its view from here (a few levels up at most), and a reader going down from `base`
   * makes the walk once.
   */
  private readonly states: DeepState[];
  private readonly views: unknown[] = [];

  constructor(innermost: DeepState, depth: number, base: number) {
    this.states = [innermost];
    this.depth = depth;
    this.base = base;
  }

  /** The view at `base`, made at publish from `state`, the container's state there (no walk). */
  top(state: DeepState): unknown {
    const view = this.make(state, this.base);
    this.topView = view;
    if (this.depth === this.base) this.views.push(view);
    return view;
  }

  /** The view of the container at `depth` (base to the innermost) at this push. */
  viewAt(depth: number): unknown {
    if (depth === this.base && this.topView !== undefined) return this.topView;
    const up = this.depth - depth;
    const states = this.states;
    while (states.length <= up) states.push(states[states.length - 1]!.parent!);
    const views = this.views;
    while (views.length <= up) views.push(undefined);
    let view = views[up];
    if (view === undefined) views[up] = view = this.make(states[up]!, depth);
    return view;
  }

  private make(state: DeepState, depth: number): unknown {
    const value = state.value === OPEN ? new Lazy(this, depth + 1) : state.value;
    const store = state.store;
    return Array.isArray(store)
      ? arrayView(store, state.count, value)
      : objectView(store as MemberStore, state.count, state.slot, value);
  }
}
