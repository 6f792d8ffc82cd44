// An open container of the tree (tree.ts), a frame: its private mutable state, the writes into its slots, its
// snapshot after a change (a copy of its state, or a view: tree.ts says what each costs), its final value when it
// closes, and its state when a deep publish shows it as a level above lazyDepth.
import { arrayView, PARTIAL_VIEW_STATE, type ViewState } from './array_view.js';
import { DeepFrame, DeepState, OPEN } from './deep.js';
import { MemberStore, objectView, setMember } from './object_view.js';
import { treeTuning } from './tuning.js';

export type Container = unknown[] | Record<string, unknown>;
type Members = Record<string, unknown>;

/**
 * Copies of open objects' states when they are not frozen. V8 (11, Node 20) copies an object with `{ ...o }` fast
 * only at a call site that has seen at most 4 shapes, and about 4 times slower at one that has seen more (the
 * snapshot's shape is that of its state: one per key count of each kind of object). Each frame copies through the
 * site its depth and key count pick, so a site sees few shapes. (Frozen copies cannot take the fast path: V8 gives
 * its copies shapes on which freezing costs several times more than the copy saves, so they share one site.)
 */
const COPIES: readonly ((members: Members) => Members)[] = [
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
  (o) => ({ ...o }),
];

/** An open array or object. */
export class Frame extends DeepFrame {
  /** The last published snapshot (a copy of the state, or a view), or null before the first publish. */
  snap_: Container | null = null;
  /**
   * The private, mutable state changes go to (null once the frame is a view). Snapshots are copied from it: V8
   * copies a frozen array tens of times slower than a plain one (array.slice(): 0.7 us for 5 elements, 5.6 us for
   * 100, against 0.07 and 0.11 us), so copying the last snapshot instead would cost more than the parse.
   */
  work_: Container | null;
  /** Something in this container changed since its last publish. */
  changed_ = true;
  /** Objects: the key of the member being written. */
  key = '';
  /** Arrays: the index of the element being written; elements started so far is index + 1. */
  index = -1;
  /** Objects: the COPIES site of its unfrozen snapshots (from its depth and its key count). */
  site_: number;
  /** Objects: members so far (counted until the object becomes a view). */
  count = 0;

  constructor(isArray: boolean, depth: number, touched: DeepFrame[] | null) {
    super(isArray, depth);
    this.site_ = (depth * 5) & 15;
    if (touched === null) {
      this.work_ = isArray ? [] : {};
      return;
    }
    // Deep (lazyDepth or deeper): its members live in a store from the start (deep.ts).
    this.work_ = null;
    if (isArray) this.store = [];
    else this.members = new MemberStore([], []);
    this.touched_ = touched;
    touched.push(this);
  }
}

export function freeze<T extends object>(value: T): T {
  return treeTuning.freeze ? Object.freeze(value) : value;
}

/** The container's snapshot after a change: a copy of its state (frozen with freezeOpen), or a view. */
export function snapshotOf(frame: Frame): Container {
  const store = frame.store;
  if (store !== null) return arrayView(store, store.length, store[store.length - 1]);
  if (!frame.isArray && (frame.members !== null || frame.count >= treeTuning.objectViewMinKeys)) {
    return membersView(frame);
  }
  const work = frame.work_!;
  if (!treeTuning.freezeOpen) {
    if (!frame.isArray) return COPIES[frame.site_]!(work as Members);
    if ((work as unknown[]).length < treeTuning.viewMinLength) return (work as unknown[]).slice();
  } else {
    if (!frame.isArray) return freeze({ ...(work as Members) });
    if ((work as unknown[]).length < treeTuning.viewMinLength) return freeze((work as unknown[]).slice());
  }
  const array = work as unknown[];
  // From now on the elements live in the store: no copy, now or at any later change.
  frame.store = array;
  frame.work_ = null;
  return arrayView(array, array.length, array[array.length - 1]);
}

/** An object's snapshot as a view (the first one turns its state into a member store). O(1) but for that first. */
function membersView(frame: Frame): Container {
  let members = frame.members;
  if (members === null) {
    members = MemberStore.of(frame.work_ as Members);
    frame.members = members;
    frame.work_ = null;
    frame.current_ = frame.current_ < 0 ? -1 : members.find(frame.key);
    frame.last = -1;
  }
  // The one slot a later push may write without a new store: that of the member being written or just written.
  const slot = frame.current_ >= 0 ? frame.current_ : frame.last;
  return objectView(members, members.keys.length, slot, slot >= 0 ? members.values[slot] : undefined) as Members;
}

/**
 * A closed container's value, from its state. An array's state grew by push(), so its storage has room for more
 * (V8 grows it by half, plus 16 slots): the value is an exact copy, made once. Trimmed, the 1 MB corpus's finished
 * tree holds about 2.5 MB of heap instead of 2.9 (JSON.parse's value: 1.8), and its tokens take about a fifth less
 * time: every byte of the tree is copied twice by young collections (docs/partial.md).
 */
export function finalOf(frame: Frame): Container {
  if (frame.store !== null) return freeze(frame.store.slice());
  const members = frame.members;
  if (members !== null) {
    // Once, when the object ends: a plain object with JSON.parse's order (indices first, as any object orders them).
    const value: Members = {};
    const { keys, values } = members;
    for (let i = 0; i < keys.length; i++) setMember(value, keys[i]!, values[i]);
    return freeze(value);
  }
  const work = frame.work_!;
  return freeze(frame.isArray ? (work as unknown[]).slice() : work);
}

/**
 * A view that becomes a closed container's value says so from now on (isComplete(), completion.ts): views cannot be
 * frozen, and every other final value is (finalOf, freeze), while open snapshots never are (treeTuning.freezeOpen).
 */
export function closeView(value: Container): Container {
  const state = (value as { [PARTIAL_VIEW_STATE]?: ViewState })[PARTIAL_VIEW_STATE];
  if (state !== undefined) state.final_ = true;
  return value;
}

/** Whether a published open snapshot still holds exactly its state's members (the application may write into it). */
export function sameMembers(snap: Container, work: Container): boolean {
  const keys = Object.keys(work);
  const shown = Object.keys(snap);
  if (shown.length !== keys.length || Object.getOwnPropertySymbols(snap).length !== 0) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (shown[i] !== key || (snap as Members)[key] !== (work as Members)[key]) return false;
  }
  return true;
}

export function writeSlot(frame: Frame, value: unknown): void {
  if (!frame.changed_ && frame.touched_ !== null) frame.touched_.push(frame);
  frame.changed_ = true;
  // Its state is gone (a deep frame gets a new one at the next publish, an upper one at the next deep publish).
  if (frame.state !== null) frame.state = null;
  if (frame.isArray) {
    const array = (frame.store ?? frame.work_) as unknown[];
    const index = frame.index;
    if (index === array.length) array.push(value);
    else array[index] = value;
    return;
  }
  const members = frame.members;
  if (members === null) {
    const work = frame.work_ as Members;
    if (frame.current_ < 0) {
      frame.current_ = 0;
      if (!Object.hasOwn(work, frame.key)) frame.count++;
    }
    setMember(work, frame.key, value);
    return;
  }
  writeMember(frame, members, value);
}

/** A view's member store: appends a new key; a key written again gets a new store unless it is the last one's. */
function writeMember(frame: Frame, members: MemberStore, value: unknown): void {
  let slot = frame.current_;
  if (slot < 0) {
    const key = frame.key;
    const found = members.find(key);
    if (found < 0) {
      frame.current_ = members.add(key, value);
      return;
    }
    // Views hold the slot of the member just written (its value may still change); every other slot is final.
    if (found !== frame.last) frame.members = members = members.rewrite_();
    frame.current_ = slot = found;
  }
  members.values[slot] = value;
}

/** A parent's slot gets the value its closed child showed (no change: the parent's snapshots show that already). */
export function putSlot(frame: Frame, value: unknown): void {
  if (frame.isArray) ((frame.store ?? frame.work_) as unknown[])[frame.index] = value;
  else if (frame.members !== null) frame.members.values[frame.current_] = value;
  else setMember(frame.work_ as Members, frame.key, value);
}

/**
 * A level above lazyDepth at a deep publish: a state as a deep container's (deep.ts), its slot of the open child
 * holding OPEN. An array's storage is append-only (its state shares it); a plain object's members are copied into a
 * store of their own, once for each child it opens, what an eager publish would copy at each push.
 */
export function recordUpper(frame: Frame, parent: DeepState | null): void {
  writeSlot(frame, OPEN);
  frame.changed_ = false;
  if (frame.isArray) {
    const store = (frame.store ?? frame.work_) as unknown[];
    frame.state = new DeepState(parent, store, frame.index + 1, frame.index, OPEN);
    return;
  }
  const own = frame.members;
  const members = own ?? MemberStore.of(frame.work_ as Members);
  const slot = own !== null ? frame.current_ : members.find(frame.key);
  frame.state = new DeepState(parent, members, members.keys.length, slot, OPEN);
}
