// The value being built, as snapshots that share structure. Each open container (a frame) keeps a private mutable
// state that the tokenizer's changes go to, and its last published snapshot. publish() gives each changed frame a
// new snapshot (a copy of its state), from the deepest changed frame up to the root: only the containers on the
// path that changed are new, every other subtree keeps its identity, and a push that changed nothing leaves the
// root as it was. A container that closes hands over its state, frozen, as its final value (an array as an exact
// copy): an object opened and closed within one push is never copied. The parser never writes into a snapshot, and
// what an application writes into one never reaches the state (close() checks the one case where it could).
//
// Cost per publish: the members of each changed open container are copied once (O(width) per changed level). An
// array published with treeTuning.viewMinLength elements or more, and an object with treeTuning.objectViewMinKeys
// members or more, is published as a view instead (array_view.ts, object_view.ts): O(1), whatever its width. A push
// deeper than treeTuning.lazyDepth copies only the root: the levels below it are shown through states (deep.ts).
import { arrayView, PARTIAL_VIEW_STATE, type ViewState } from './array_view.js';
import { DeepFrame, DeepState, holdsMembers, OPEN, Shown } from './deep.js';
import { MemberStore, objectView, setMember } from './object_view.js';
import { treeTuning } from './tuning.js';

export { treeTuning } from './tuning.js';

type Container = unknown[] | Record<string, unknown>;
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

/** Where flatten() puts the character it reads, so that the read is not optimised away. */
const flat = { sink: 0 };

/**
 * Makes a finished string flat. A string appended to over many pushes is a rope (V8 and JavaScriptCore keep `a + b`
 * as a node pointing to both), one node per push, until something reads its characters: then the engine copies it
 * into one string, once. Reading one character here does that when the string ends, so the tree keeps one string,
 * not a node per push that the garbage collector would copy and mark for as long as the value lives (a sixth of
 * the time per token of the 1 MB corpus, docs/partial.md). A reader would flatten it anyway to show it.
 */
export function flatten(value: string): void {
  if (treeTuning.flatten && value.length !== 0) flat.sink ^= value.charCodeAt(0);
}

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

function freeze<T extends object>(value: T): T {
  return treeTuning.freeze ? Object.freeze(value) : value;
}

/** The container's snapshot after a change: a copy of its state (frozen with freezeOpen), or a view. */
function snapshotOf(frame: Frame): Container {
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

export class Tree {
  /** Open containers, root first. */
  readonly frames_: Frame[] = [];
  /** The latest published root: undefined until the root's type is known. */
  root: unknown = undefined;
  /** A root scalar waiting for publish(), and whether there is one. */
  private rootValue_: unknown = undefined;
  private rootChanged_ = false;
  /** The deepest frame changed since the last publish, or -1. Every frame above it changes too. */
  private dirty_ = -1;
  /** Deep frames (treeTuning.lazyDepth or deeper) changed since the last publish. */
  private readonly touched_: DeepFrame[] = [];
  /** The deep part of the last publish that changed something at lazyDepth or deeper. */
  private shown: Shown | null = null;
  /**
   * Whether the last publish that changed something was deep: then the levels from depth 1 down were shown through
   * `shown` (their `snap` is older), so a container that closes without a change since takes its view from there.
   */
  private deepShown_ = false;

  /** The value at the current slot of the innermost container (or the root) is now `value`. */
  set(value: unknown): void {
    const frames = this.frames_;
    const depth = frames.length - 1;
    if (depth < 0) {
      this.rootValue_ = value;
      this.rootChanged_ = true;
      return;
    }
    writeSlot(frames[depth]!, value);
    if (depth > this.dirty_) this.dirty_ = depth;
  }

  /** The innermost object's next member has this key. */
  key(key: string): void {
    const frame = this.frames_[this.frames_.length - 1]!;
    frame.key = key;
    frame.site_ = (frame.site_ + 1) & 15;
    frame.last = frame.current_;
    frame.current_ = -1;
  }

  /** Begins an element of the innermost array (before its value is known). */
  nextIndex_(): void {
    this.frames_[this.frames_.length - 1]!.index++;
  }

  /** Opens a container at the current slot. */
  open(isArray: boolean): void {
    const frames = this.frames_;
    const depth = frames.length;
    const deep = depth >= treeTuning.lazyDepth;
    const frame = new Frame(isArray, depth, deep ? this.touched_ : null);
    // A deep parent holds OPEN for the open child, which its views show as a Lazy (deep.ts).
    if (deep && depth > treeTuning.lazyDepth) writeSlot(frames[depth - 1]!, OPEN);
    // An upper parent's state (if any) showed its previous child: it gets a new one at the next deep publish.
    else if (depth > 0) frames[depth - 1]!.state = null;
    frames.push(frame);
    // The new frame publishes its first (empty) snapshot into its parent's slot.
    this.dirty_ = depth;
  }

  /** Closes the innermost container; its final value (returned) goes into its parent's slot (or is the root). */
  close(): unknown {
    const frames = this.frames_;
    const frame = frames.pop()!;
    let value: Container;
    if (frame.touched_ !== null) {
      // Deep: a frozen copy if it changed since the last publish, else the view that publish showed.
      // Unchanged since the last publish: the view that publish showed, frozen if a plain copy the application
      // left as it was (else the value is a copy of the members, and a change).
      value = frame.changed_ ? finalOf(frame) : (this.shown!.viewAt_(frame.depth) as Container);
      const count = frame.isArray ? frame.store!.length : frame.members!.keys.length;
      if (!frame.changed_ && this.shown!.plainAt_(frame.depth, frame.isArray, count)) {
        if (holdsMembers(value, frame)) {
          value = freeze(value);
        } else {
          value = finalOf(frame);
          frame.changed_ = true;
        }
      } else if (!frame.changed_) closeView(value);
    } else if (!frame.changed_ && this.deepShown_ && frame.depth >= baseDepth()) {
      // Above lazyDepth, shown by the last (deep) publish through a view made when read: that view, as below.
      value = this.shown!.viewAt_(frame.depth) as Container;
      const count = frame.isArray
        ? ((frame.store ?? frame.work_) as unknown[]).length
        : frame.members !== null
          ? frame.members.keys.length
          : frame.count;
      if (this.shown!.plainAt_(frame.depth, frame.isArray, count)) {
        if (frame.work_ !== null && sameMembers(value, frame.work_)) {
          value = freeze(value);
        } else {
          value = finalOf(frame);
          frame.changed_ = true;
        }
      } else closeView(value);
    } else if (frame.changed_) {
      if (frame.store !== null) {
        value = closeView(arrayView(frame.store, frame.store.length, frame.store[frame.store.length - 1]));
      } else {
        // Final: nothing writes to the private state again, so it becomes the value itself (arrays trimmed).
        value = finalOf(frame);
        frame.work_ = null;
      }
    } else if (treeTuning.freezeOpen || frame.store !== null || frame.members !== null) {
      // Unchanged since its last publish: that snapshot (frozen, or a read-only view) is its value.
      value = closeView(frame.snap_!);
    } else if (sameMembers(frame.snap_!, frame.work_!)) {
      // An open snapshot is not frozen: it becomes the value, frozen now, only if the application left it as it was.
      value = freeze(frame.snap_!);
    } else {
      // The application wrote into it: the value is the private state, which nothing outside ever saw.
      value = finalOf(frame);
      frame.changed_ = true;
    }
    const depth = frames.length - 1;
    if (this.dirty_ > depth) this.dirty_ = depth;
    if (depth < 0) {
      this.rootValue_ = value;
      this.rootChanged_ = value !== this.root;
      return value;
    }
    // Unchanged since its last publish: the parent's snapshots show that value already, but a parent shown through
    // states (deep, or with a state: shown by a deep push) holds OPEN in that slot; an eager one holds the value.
    if (!frame.changed_) {
      const parent = frames[depth]!;
      if (parent.touched_ !== null || parent.state !== null) putSlot(parent, value);
      return value;
    }
    writeSlot(frames[depth]!, value);
    if (depth > this.dirty_) this.dirty_ = depth;
    return value;
  }

  /**
   * The path of the innermost open container, or (`inScalar`) of the scalar being written in it: the keys and
   * indices of the frames' current slots.
   */
  path(inScalar: boolean): (string | number)[] {
    const frames = this.frames_;
    const path: (string | number)[] = [];
    const last = inScalar ? frames.length : frames.length - 1;
    for (let d = 0; d < last; d++) {
      const frame = frames[d]!;
      path.push(frame.isArray ? frame.index : frame.key);
    }
    return path;
  }

  /** The current snapshot of the innermost open container (undefined if none), as the last publish showed it. */
  innermostSnapshot_(): unknown {
    const frames = this.frames_;
    const frame = frames[frames.length - 1];
    if (frame === undefined || frame.changed_) return undefined;
    // As close() finds it: levels shown through states by the last publish that changed something have a view.
    if (frame.touched_ !== null || (this.deepShown_ && frame.depth >= baseDepth())) {
      return this.shown!.viewAt_(frame.depth);
    }
    return frame.snap_;
  }

  /** Makes the changes since the last publish visible; returns the root. */
  publish_(): unknown {
    const frames = this.frames_;
    let child: Container | null = null;
    let depth = this.dirty_;
    const lazyDepth = treeTuning.lazyDepth;
    const base = baseDepth();
    const touched = this.touched_;
    if (depth >= lazyDepth) {
      // Levels base .. lazyDepth - 1 get a state when theirs is gone (their own members changed, or a new child
      // opened): those with a state form a prefix, so this walk costs what the states it makes do, O(1) a push when
      // only the deep part changed.
      let d = lazyDepth - 1;
      while (d >= base && frames[d]!.state === null) d--;
      for (d++; d < lazyDepth; d++) recordUpper(frames[d]!, d > base ? frames[d - 1]!.state : null);
    }
    if (touched.length !== 0) {
      // The open frames changed form the innermost ones (a frame with an open child cannot change): states from
      // the shallowest down, each under its parent's new one.
      let from = frames.length;
      for (let i = 0; i < touched.length; i++) {
        const frame = touched[i]!;
        if (frame.depth < from && frames[frame.depth] === frame) from = frame.depth;
        (frame as Frame).changed_ = false;
      }
      touched.length = 0;
      for (let d = from; d < frames.length; d++) frames[d]!.record(d > base ? frames[d - 1]!.state : null);
    }
    if (depth >= lazyDepth) {
      // The root is copied as always; from depth 1 down, snapshots are made when read (one view at depth 1).
      const innermost = frames.length - 1;
      const shown = new Shown(frames[innermost]!.state!, innermost, base);
      this.shown = shown;
      this.deepShown_ = true;
      child = shown.top(frames[base]!.state!) as Container;
      depth = base - 1;
    } else if (depth >= 0) {
      this.deepShown_ = false;
    }
    for (; depth >= 0; depth--) {
      const frame = frames[depth]!;
      if (child !== null) writeSlot(frame, child);
      child = frame.changed_ ? snapshotOf(frame) : frame.snap_!;
      frame.snap_ = child;
      frame.changed_ = false;
    }
    this.dirty_ = -1;
    if (child !== null) {
      this.root = child;
    } else if (this.rootChanged_) {
      this.root = this.rootValue_;
    }
    this.rootChanged_ = false;
    return this.root;
  }
}

/**
 * A closed container's value, from its state. An array's state grew by push(), so its storage has room for more
 * (V8 grows it by half, plus 16 slots): the value is an exact copy, made once. Trimmed, the 1 MB corpus's finished
 * tree holds about 2.5 MB of heap instead of 2.9 (JSON.parse's value: 1.8), and its tokens take about a fifth less
 * time: every byte of the tree is copied twice by young collections (docs/partial.md).
 */
function finalOf(frame: Frame): Container {
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
function closeView(value: Container): Container {
  const state = (value as { [PARTIAL_VIEW_STATE]?: ViewState })[PARTIAL_VIEW_STATE];
  if (state !== undefined) state.final_ = true;
  return value;
}

/** Whether a published open snapshot still holds exactly its state's members (the application may write into it). */
function sameMembers(snap: Container, work: Container): boolean {
  const keys = Object.keys(work);
  const shown = Object.keys(snap);
  if (shown.length !== keys.length || Object.getOwnPropertySymbols(snap).length !== 0) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (shown[i] !== key || (snap as Members)[key] !== (work as Members)[key]) return false;
  }
  return true;
}

function writeSlot(frame: Frame, value: unknown): void {
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
function putSlot(frame: Frame, value: unknown): void {
  if (frame.isArray) ((frame.store ?? frame.work_) as unknown[])[frame.index] = value;
  else if (frame.members !== null) frame.members.values[frame.current_] = value;
  else setMember(frame.work_ as Members, frame.key, value);
}

/**
 * The depth of the view a deep publish makes (its open child made when read): 1, so that the root stays a plain copy
 * (lazyDepth itself if lower).
 */
function baseDepth(): number {
  return Math.min(treeTuning.lazyDepth, 1);
}

/**
 * A level above lazyDepth at a deep publish: a state as a deep container's (deep.ts), its slot of the open child
 * holding OPEN. An array's storage is append-only (its state shares it); a plain object's members are copied into a
 * store of their own, once for each child it opens, what an eager publish would copy at each push.
 */
function recordUpper(frame: Frame, parent: DeepState | null): void {
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
