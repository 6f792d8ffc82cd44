// openJson's forward cursor: where the last request finished (the path of the value it ended at and that value's
// absolute end offset), the restart points of a kept document, and, in a transient one, the member names passed
// in the objects around the cursor. It answers where a request must start and whether its value was passed
// (docs/open_json.md, "What passed means in a transient document").
import { JsonPassedError } from '../errors.js';
import { canonicalPath } from '../parse/json_path.js';
import { displayPath, relation, type Relation, type Step } from './open_json_path.js';

/** Where a request's parser starts: the stream's beginning, or just after the value at `loc`. */
export interface Start {
  readonly x: number;
  readonly loc_: readonly Step[] | null;
}

/** Records the names a request passes in the objects it reads under (see Cursor.track). */
export interface NameRecord {
  /** Start-marker paths, one per object whose names are recorded. */
  readonly starts: readonly Step[][];
  /** Notes member `key` passed in the j-th of those objects. */
  record(j: number, key: unknown): void;
}

const MAX_CHECKPOINTS = 4096;
const NO_RECORD: NameRecord = { starts: [], record: () => {} };

export class Cursor {
  readonly transient: boolean;
  /** Just after the value at `loc` (null: nothing read yet), at absolute offset `x`. */
  loc_: readonly Step[] | null = null;
  x = 0;
  /**
   * Transient: the member names passed so far in each object that encloses the cursor (by canonicalPath), for the
   * objects where the record is complete. It tells "passed" from "later or absent" for a sibling member.
   */
  private seen_ = new Map<string, Set<string>>();
  /**
   * Kept: positions where requests finished, sorted by offset. Each is a restart point as good as the cursor
   * (its bytes are kept), so a request behind the cursor starts at the latest one it is ahead of, not at byte 0.
   */
  private checkpoints_: Start[] = [];

  constructor(transient: boolean) {
    this.transient = transient;
  }

  /** Moves the cursor forward (never back: a scan from the start may finish before it). */
  advance_(loc: readonly Step[], x: number): void {
    if (!this.transient) this.remember_(loc, x);
    if (this.loc_ !== null && x <= this.x) return;
    this.loc_ = loc;
    this.x = x;
    if (this.transient && this.seen_.size !== 0) {
      // Only the objects enclosing the cursor matter from now on.
      const enclosing = new Set<string>();
      for (let k = 0; k < loc.length; k++) {
        if (typeof loc[k] === 'string') enclosing.add(canonicalPath(loc.slice(0, k)));
      }
      for (const key of this.seen_.keys()) if (!enclosing.has(key)) this.seen_.delete(key);
    }
  }

  private remember_(loc: readonly Step[], x: number): void {
    const list = this.checkpoints_;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]!.x < x) lo = mid + 1;
      else hi = mid;
    }
    if (lo < list.length && list[lo]!.x === x) return;
    list.splice(lo, 0, { x, loc_: loc });
    // Bounded: thin out evenly, so restart points stay spread over the document.
    if (list.length > MAX_CHECKPOINTS) this.checkpoints_ = list.filter((_, i) => i % 2 === 0);
  }

  /**
   * Transient: the objects on the path to `steps[0..upto)` get start markers on their members, so that the member
   * names a request passes in them are recorded. Returns nothing (and forgets every record) for a kept document or
   * when more than `room` selectors would be needed.
   */
  track_(steps: readonly Step[], upto: number, room: number): NameRecord {
    // Only objects have names to record: the containers whose next step on the path is a name.
    const prefixes: Step[][] = [];
    for (let k = 0; k < upto; k++) if (typeof steps[k] === 'string') prefixes.push(steps.slice(0, k));
    if (!this.transient || prefixes.length > room) {
      this.seen_.clear();
      return NO_RECORD;
    }
    const cursor = this.loc_;
    const sets: (Set<string> | undefined)[] = prefixes.map((a) => {
      const key = canonicalPath(a);
      const enclosing = cursor !== null && a.length < cursor.length && a.every((s, k) => cursor[k] === s);
      if (enclosing) return this.seen_.get(key); // complete since the cursor entered it, or never recorded
      const fresh = new Set<string>(); // it starts after the cursor: every member of it is still to come
      this.seen_.set(key, fresh);
      return fresh;
    });
    return {
      starts: prefixes.map((a) => [...a, null]),
      record: (j, key) => {
        if (typeof key === 'string') sets[j]?.add(key);
      },
    };
  }

  /** Forgets every record of passed names (a request that reads without recording them). */
  forgetNames_(): void {
    this.seen_.clear();
  }

  /**
   * Where a request for the value at `steps` must start, or a JsonPassedError for a transient document. Returns
   * null when the cursor shows the value cannot exist.
   */
  startFor_(steps: readonly Step[], path: string): { start: Start; rel: Relation } | null {
    let rel = relation(steps, this.loc_);
    if (rel.kind === 'absent') return null;
    if (rel.kind === 'unknown' && this.transient) {
      const names = this.seen_.get(canonicalPath(rel.object));
      if (names !== undefined) {
        // The record of that object is complete: passed, or still to come (or absent).
        if (names.has(steps[rel.object.length] as string)) throw this.passed(path);
        rel = { kind: 'ahead' };
      }
    }
    if (rel.kind === 'passed' && this.transient) throw this.passed(path);
    if (rel.kind === 'ahead' || this.transient) return { start: { x: this.x, loc_: this.loc_ }, rel };
    // Kept, behind the cursor: a late checkpoint the value is ahead of (a binary search: the checkpoints before
    // the value are ahead of it, those after it are not; one whose relation is unknown counts as after, which
    // can only pick an earlier start), else the start of the stream.
    const list = this.checkpoints_;
    let lo = 0;
    let hi = list.length - 1;
    let best: Start | null = null;
    let bestRel: Relation = rel;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const r = relation(steps, list[mid]!.loc_);
      if (r.kind === 'absent') return null;
      if (r.kind === 'ahead') {
        best = list[mid]!;
        bestRel = r;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return { start: best ?? { x: 0, loc_: null }, rel: bestRel };
  }

  /**
   * The error for a request whose value the transient cursor passed; with `object`, for one whose value was not
   * found in that object after the cursor (it may have come before).
   */
  passed(path: string, object?: readonly Step[]): JsonPassedError {
    const where = this.loc_ === null ? 'the start' : `the end of ${displayPath(this.loc_)}`;
    const message =
      object === undefined
        ? `openJson: ${path} was already passed: the transient document's cursor is at ${where} (byte ${this.x})`
        : `openJson: ${path} is not in ${displayPath(object)} after the transient document's cursor (${where}, byte ` +
          `${this.x}); it may have come before, and a transient document cannot look back`;
    return new JsonPassedError(message, path, this.x);
  }
}
