// isComplete(): which parts of a partial JSON snapshot are final, at no cost to a parse that never asks.
//
// Containers: every closed container's value is frozen (tree.ts: finalOf, freeze) or a view marked final when it
// closes (closeView), and no open container's snapshot is either (treeTuning.freezeOpen is false), so the answer
// is read off the value. A set of closed containers would cost a parse that never asks: a WeakSet.add of a young
// object costs 1 to 3 µs in V8 (Node 20), a token 0.5 to 0.8 µs.
//
// Scalars: only the innermost open container's current snapshot can hold a scalar still being written (a string
// shown as it grows, a number with numbers: 'partial', a duplicate key's earlier value), and only the parser knows
// whether it still is (a closing quote that changes nothing publishes nothing). So each parser registers here,
// once (a WeakRef: a dropped parser goes with its snapshots), and answers for its innermost snapshot. Any other open
// snapshot was made either while a child container was open in it (then all its scalars were final), or as the
// innermost container of an earlier push: then only the member written last may have been unfinished.
import { mustBe } from '../validate.js';
import { PARTIAL_VIEW_STATE, type ViewState } from './array_view.js';

/** A partial parser, as isComplete() asks it. */
export interface CompletionSource {
  /**
   * If `snapshot` is the current snapshot of its innermost open container: the key (an array's index, as a string)
   * of the scalar being written there, or null if none is. Otherwise undefined.
   */
  writing_(snapshot: object): string | null | undefined;
}

/**
 * What the registry's WeakRef points to. Not the parser: a WeakRef keeps its target alive until the current job
 * ends, and a synchronous loop of parses would keep every tree until then (28 parses of the 20 kB corpus: 1.6 MB
 * more heap after a collection, 10 % more instructions a token in young collections). The probe lets go of its
 * parser when the parser ends.
 */
export class CompletionProbe {
  constructor(public source_: CompletionSource | null) {}
}

const probes: WeakRef<CompletionProbe>[] = [];
/** Registrations left before the next sweep of ended or collected parsers. */
let untilSweep = 64;

/** @internal A new parser: its probe (one WeakRef, what a parser costs that no one asks about). */
export function trackCompletion(source: CompletionSource): CompletionProbe {
  const probe = new CompletionProbe(source);
  probes.push(new WeakRef(probe));
  if (--untilSweep <= 0) {
    let live = 0;
    for (let i = 0; i < probes.length; i++) {
      const p = probes[i]!.deref();
      if (p !== undefined && p.source_ !== null) probes[live++] = probes[i]!;
    }
    probes.length = live;
    untilSweep = Math.max(64, live);
  }
  return probe;
}

type Snapshot = Record<string, unknown> | unknown[];

function stateOf(value: object): ViewState | undefined {
  return (value as { [PARTIAL_VIEW_STATE]?: ViewState })[PARTIAL_VIEW_STATE];
}

/** A container the parser closed: frozen, or a view marked final. */
function closed(value: object): boolean {
  const state = stateOf(value);
  return state !== undefined ? state.final_ : Object.isFrozen(value);
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** Whether an open snapshot that no parser is writing into may show `key` unfinished (see the top). */
function mayBeUnfinished(snapshot: Snapshot, key: string): boolean {
  if (Array.isArray(snapshot)) {
    const last = snapshot.length - 1;
    if (last < 0) return false;
    const value = snapshot[last];
    // Its last element is an open container: every scalar was final. Else only the last may not be.
    return !(isContainer(value) && !closed(value)) && key === String(last);
  }
  const pending = stateOf(snapshot)?.pendingKey_();
  const keys = pending !== undefined ? (pending === null ? [] : [pending]) : Object.keys(snapshot);
  // The member written last: the last key, unless integer-like keys came (plain objects list them first).
  for (let i = keys.length - 1; i >= 0; i--) {
    const value = snapshot[keys[i]!];
    if (isContainer(value) && !closed(value)) return false;
  }
  if (keys.length === 0) return false;
  return key === keys[keys.length - 1] || /^(?:0|[1-9]\d*)$/.test(key);
}

/**
 * Whether a value of a partial JSON snapshot (of createPartialParser, partialJson or readModelStream) is final:
 * no later snapshot shows it otherwise. `isComplete(container)`: the array or object closed. `isComplete(container,
 * key)`: its member `key` (an index of an array) is final: the container closed, or the member is a closed
 * container, or a scalar whose text ended (a string's closing quote, a literal's last letter, the character after
 * a number). False for a member not shown yet, and for `undefined` (a root not started). A key written twice replaces the earlier value (as `JSON.parse`
 * does), even a complete one. The root value itself: complete when the parser's `pending` is null.
 *
 * @throws {TypeError} if `container` is not an object or `key` not a string or a number.
 */
export function isComplete(container: object | undefined, key?: string | number): boolean {
  // Before the root's type is known (push() and value give undefined): nothing is shown, nothing complete.
  if (container === undefined) return false;
  if (!isContainer(container)) {
    throw mustBe('isComplete()', 'container', 'an object or an array of a partial JSON snapshot', container);
  }
  if (key === undefined) return closed(container);
  if (typeof key !== 'string' && typeof key !== 'number') {
    throw mustBe('isComplete()', 'key', 'a string or a number', key);
  }
  if (closed(container)) return true;
  const name = String(key);
  if (!Object.hasOwn(container, name)) return false;
  const value = (container as Record<string, unknown>)[name];
  if (isContainer(value)) return closed(value);
  for (let i = 0; i < probes.length; i++) {
    const writing = probes[i]!.deref()?.source_?.writing_(container);
    if (writing !== undefined) return writing !== name;
  }
  return !mayBeUnfinished(container as Snapshot, name);
}
