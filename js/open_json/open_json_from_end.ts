// doc.get() of a singular query with a negative index (`$.rows[-1].id`): the array's length is known only at its
// end, so one scan reads the array to its end, its elements skipped in wasm, keeping a window of the last few:
// - kept: the end offsets of the last |N| + 1 elements (end markers, no bytes). The end of element length - N - 1
//   becomes a checkpoint of the cursor, and the rest of the query is then resolved as a query of indices >= 0,
//   which restarts there (the bytes are kept) and reads element length - N alone.
// - transient: the bytes are gone once passed, so the last |N| elements themselves, read in byte mode: of each
//   native call's elements only its last |N| are copied out of wasm (the array's last |N| are among them), and
//   only the one answered is parsed; the rest of the query runs on that value in JS.
// The cursor ends after the array (transient), or wherever the rest of the query left it (kept).
import type { DriverEvent } from './open_json_driver.js';
import type { IterableDocument } from './open_json_iterable.js';
import { endOf, passedBefore, planRequest, recordName, type Plan } from './open_json_plan.js';
import type { SingularStep } from './open_json_query.js';

/** The value of a query of indices >= 0 (the document's ordinary get). */
export type Resolve = (steps: readonly SingularStep[]) => Promise<unknown>;

/** The value at `steps` (the first negative index at `k`), or undefined. */
export async function resolveFromEnd(
  doc: IterableDocument,
  steps: readonly SingularStep[],
  k: number,
  path: string,
  resolve: Resolve,
): Promise<unknown> {
  const container = steps.slice(0, k);
  const back = -(steps[k] as number);
  const rest = steps.slice(k + 1);
  // Kept: element length - back and the one before it (whose end is the restart point); transient: the element.
  const keep = doc.transient ? back : back + 1;
  const tail = await lastElements(doc, container, keep, path);
  if (tail === null || tail.object) return undefined;
  const i = tail.length - back;
  if (i < 0) return undefined;
  if (i < tail.first) throw doc.cursor.passed(path);
  if (doc.transient) return walk(tail.at(i).value(), rest);
  if (i > 0) doc.cursor.advance_([...container, i - 1], tail.at(i - 1).end);
  return resolve([...container, i, ...rest]);
}

interface LastElements {
  /** The number of elements of the container. */
  readonly length: number;
  /** The first element read whole (a transient document whose cursor was inside the array: the one after it). */
  readonly first: number;
  /** It had members: an object, where an index selects nothing. */
  readonly object: boolean;
  /** The event of element j, for j among the last `keep`. */
  at(j: number): DriverEvent;
}

/**
 * Reads the container at `container` to its end, keeping the events of its last `keep` elements: values for a
 * transient document, end markers (no bytes) for a kept one. Null when there is no such container.
 */
async function lastElements(
  doc: IterableDocument,
  container: readonly SingularStep[],
  keep: number,
  path: string,
): Promise<LastElements | null> {
  const cursor = doc.cursor;
  // A transient cursor inside the array (after element `base`, or inside it) restarts there: the elements after it
  // are still to come. The parser's indices then count from the cursor's element (0), as localPath() writes them.
  const loc = cursor.loc_;
  const k = container.length;
  const inside =
    doc.transient &&
    loc !== null &&
    loc.length > k &&
    typeof loc[k] === 'number' &&
    container.every((s, j) => loc[j] === s);
  const base = inside ? (loc[k] as number) : 0;
  const planned = inside
    ? planRequest(cursor, { kind: 'get', steps: [...container, base + 1] }, path)
    : planRequest(cursor, { kind: 'iterate', container }, path);
  if (planned === null) return null;
  // Transient: the elements as values. Kept: the element selector becomes an end marker with the same event number,
  // so no element is copied out.
  const element = [...container, null];
  const plan: Plan = doc.transient
    ? { ...planned, paths: [element] }
    : { ...planned, paths: [], markers: [element, ...planned.markers] };
  const window: DriverEvent[] = [];
  let length = inside ? base + 1 : 0;
  let object = false;
  // Byte mode, no value batch: an element is copied (and reported) only if fewer than `keep` elements of its call
  // follow it. The array's last `keep` are among those, and so is the last of each call, which tells the length
  // and whether the container is an object (the markers of a kept document have no bytes: all are reported).
  const copy = (path: number, later: number) => path === 0 && later < keep;
  for await (const events of doc.scan(plan, copy)) {
    for (const ev of events) {
      if (recordName(plan, ev.path, ev.key)) continue;
      if (ev.path === 0) {
        // An array's elements are numbered; an object's members are named (values) or not at all (end markers).
        if (typeof ev.key !== 'number') {
          object = true;
          continue;
        }
        const index = base + ev.key;
        window[index % keep] = ev;
        length = index + 1;
        continue;
      }
      const ended = endOf(plan, ev.path)!;
      cursor.advance_(ended, ev.end);
      if (passedBefore(plan, ended)) throw cursor.passed(path, plan.ambiguous!);
      // An ancestor's end: the container is not there.
      if (ended.length !== container.length) return null;
      return { length, first: inside ? base + 1 : 0, object, at: (j) => window[j % keep]! };
    }
  }
  cursor.advance_([], doc.store.end);
  if (plan.ambiguous !== null) throw cursor.passed(path, plan.ambiguous);
  return null;
}

/** The value at `steps` inside `value` (a JSON.parse result), or undefined. */
function walk(value: unknown, steps: readonly SingularStep[]): unknown {
  let v = value;
  for (const s of steps) {
    if (typeof s === 'string') {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, s)) return undefined;
      v = (v as Record<string, unknown>)[s];
    } else {
      if (!Array.isArray(v)) return undefined;
      const j = s < 0 ? v.length + s : s;
      if (j < 0 || j >= v.length) return undefined;
      v = v[j];
    }
  }
  return v;
}
