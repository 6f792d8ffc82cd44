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
import { arrayView } from './array_view.js';
import { holdsMembers, OPEN, Shown, type DeepFrame } from './deep.js';
import {
  closeView,
  finalOf,
  Frame,
  freeze,
  putSlot,
  recordUpper,
  sameMembers,
  snapshotOf,
  writeSlot,
  type Container,
} from './frame.js';
import { treeTuning } from './tuning.js';

export { treeTuning } from './tuning.js';

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
  private shown_: Shown | null = null;
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
      value = frame.changed_ ? finalOf(frame) : (this.shown_!.viewAt_(frame.depth) as Container);
      const count = frame.isArray ? frame.store!.length : frame.members!.keys.length;
      if (!frame.changed_ && this.shown_!.plainAt_(frame.depth, frame.isArray, count)) {
        if (holdsMembers(value, frame)) {
          value = freeze(value);
        } else {
          value = finalOf(frame);
          frame.changed_ = true;
        }
      } else if (!frame.changed_) closeView(value);
    } else if (!frame.changed_ && this.deepShown_ && frame.depth >= baseDepth()) {
      // Above lazyDepth, shown by the last (deep) publish through a view made when read: that view, as below.
      value = this.shown_!.viewAt_(frame.depth) as Container;
      const count = frame.isArray
        ? ((frame.store ?? frame.work_) as unknown[]).length
        : frame.members !== null
          ? frame.members.keys.length
          : frame.count;
      if (this.shown_!.plainAt_(frame.depth, frame.isArray, count)) {
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
      return this.shown_!.viewAt_(frame.depth);
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
      this.shown_ = shown;
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
 * The depth of the view a deep publish makes (its open child made when read): 1, so that the root stays a plain copy
 * (lazyDepth itself if lower).
 */
function baseDepth(): number {
  return Math.min(treeTuning.lazyDepth, 1);
}
