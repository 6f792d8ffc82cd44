// openJson's request planning, for get() and both iterators: where a request's parser starts (the cursor, a
// checkpoint, or the stream's beginning), which selectors it runs, and what each event number means. The native
// parser takes at most MAX_SELECTORS paths of every kind together; every budget below derives from it.
//
// Event numbers follow the selector order: ordinary selectors (the values asked for), end markers, start markers.
//   get(steps)            0: the value; 1...: end markers of its ancestors, nearest first (ends: absent)
//   iterate(container)    0: an element; 1: the container's end, 2...: its ancestors' ends, then a slice's stop
//   expand(container, E)  0..E-1: the children of the j-th expanded member; E: an element's end; E+1: a member's
//                         end; E+2: the container's end, then its ancestors'; start markers: an element, a member
// get() and iterate() then add start markers that record the member names passed in the objects on their way
// (transient documents, Cursor.track).
import type { Cursor, NameRecord, Start } from './open_json_cursor.js';
import { MAX_SELECTORS } from '../native/contract.js';
import { ancestors, type Step } from './open_json_path.js';

/**
 * The most names options.expand may hold: an expanded iteration spends one selector per name and five more (the
 * element and its members, each as a marker and as a start marker, and the container's marker) of the native
 * parser's MAX_SELECTORS; the rest go to markers on the container's ancestors.
 */
export const MAX_EXPAND = MAX_SELECTORS - 5;

export type Request =
  | { readonly kind: 'get'; readonly steps: readonly Step[] }
  | {
      readonly kind: 'iterate';
      readonly container: readonly Step[];
      /**
       * The native selector of the elements: `[start:end:step]` for a slice, `[?program]` for a filter run in wasm;
       * absent: all of them.
       */
      readonly selector?: string;
      /** A slice's stop: the index whose end (an end marker: nothing copied) ends the iteration, its last element's. */
      readonly stop?: number;
    }
  | { readonly kind: 'expand'; readonly container: readonly Step[]; readonly names: readonly string[] };

/** What one request's parser runs, and how to read its events. */
export interface Plan {
  readonly start: Start;
  readonly paths: readonly (readonly Step[])[];
  readonly markers: readonly (readonly Step[])[];
  readonly starts: readonly (readonly Step[])[];
  /** paths[0]'s last step as the native parser reads it, in place of `[*]` (an iteration's slice or filter). */
  readonly selector?: string;
  /** The event number of a slice's stop marker (an iteration): the end of the slice's last element. */
  readonly stop?: number;
  /** Event numbers [firstEnd, firstEnd + ends.length) are the ends of `ends`: the request is over. */
  readonly firstEnd: number;
  readonly ends: readonly (readonly Step[])[];
  /** The first start marker's event number. */
  readonly firstStart: number;
  /**
   * Transient, a sibling member passed on the way (relation 'unknown'): the value is looked for after the cursor
   * until this object ends, and is then reported passed (it may have come before).
   */
  readonly ambiguous: readonly Step[] | null;
  /** Start markers from here on record names (get, iterate): the record of Cursor.track. */
  readonly names: NameRecord;
}

/** The plan of `request` from where `cursor` stands; null when the cursor shows there is no such value. */
export function planRequest(cursor: Cursor, request: Request, path: string): Plan | null {
  const target = request.kind === 'get' ? request.steps : request.container;
  const where = cursor.startFor_(target, path);
  if (where === null) return null;
  const ambiguous = where.rel.kind === 'unknown' && cursor.transient ? where.rel.object : null;
  if (request.kind === 'get') {
    const steps = request.steps;
    const names = cursor.track_(steps, steps.length, MAX_SELECTORS - steps.length);
    const ends = ancestors(steps, MAX_SELECTORS - 1 - names.starts.length);
    return {
      start: where.start,
      paths: [steps],
      markers: ends,
      starts: names.starts,
      firstEnd: 1,
      ends,
      firstStart: 1 + ends.length,
      ambiguous,
      names,
    };
  }
  const container = request.container;
  if (request.kind === 'iterate') {
    // Not the array itself: a transient iteration always leaves the cursor after it (return() skips the rest).
    // A slice's stop marker takes one selector from the budget. The iteration never starts inside its container
    // (startFor_ finds the container passed then), so the parser's indices in it are the array's own: the slice's
    // selector and stop need no translation by localPath().
    const stop = request.stop === undefined ? [] : [[...container, request.stop]];
    const room = MAX_SELECTORS - 2 - stop.length;
    const names = cursor.track_(container, container.length, room - container.length);
    const ends = [container, ...ancestors(container, room - names.starts.length)];
    return {
      start: where.start,
      paths: [[...container, null]],
      ...(request.selector === undefined ? {} : { selector: request.selector }),
      ...(request.stop === undefined ? {} : { stop: 1 + ends.length }),
      markers: [...ends, ...stop],
      starts: names.starts,
      firstEnd: 1,
      ends,
      firstStart: 1 + ends.length + stop.length,
      ambiguous,
      names,
    };
  }
  // Names are not recorded here: later sibling requests fall back to reading forward.
  cursor.forgetNames_();
  const e = request.names.length;
  const element = [...container, null];
  const member = [...element, null];
  const ends = [container, ...ancestors(container, MAX_EXPAND - e)];
  return {
    start: where.start,
    paths: request.names.map((name) => [...element, name, null]),
    markers: [element, member, ...ends],
    starts: [element, member],
    firstEnd: e + 2,
    ends,
    firstStart: e + 2 + ends.length,
    ambiguous,
    names: { starts: [], record: () => {} },
  };
}

/** The container whose end event `path` reports, or undefined when it is no such event. */
export function endOf(plan: Plan, path: number): readonly Step[] | undefined {
  return path >= plan.firstEnd && path < plan.firstEnd + plan.ends.length ? plan.ends[path - plan.firstEnd] : undefined;
}

/** Files a name-recording event (get, iterate); false for any other event. */
export function recordName(plan: Plan, path: number, key: unknown): boolean {
  if (path < plan.firstStart || plan.names.starts.length === 0) return false;
  plan.names.record(path - plan.firstStart, key);
  return true;
}

/** Whether the end of `container` shows that an ambiguous request's value came before the cursor, if at all. */
export function passedBefore(plan: Plan, container: readonly Step[]): boolean {
  return plan.ambiguous !== null && container.length <= plan.ambiguous.length;
}
