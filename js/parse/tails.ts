// What JS does after the native heads of split queries (js/query/split.ts): each candidate of a tail, already
// materialised (a value: the one JSON.parse of its batch; bytes or text: parsed here, once), is replaced by its
// tail's nodes, in RFC 9535 order; each element of a window goes to it (array_window.ts), and what the window
// selects to the query's tail when segments follow the window's. Only parsers with a tail or a window come here
// (ResolvedOptions.selectorTails_, selectorWindows_), so the others pay nothing.
import type { QueryTail } from '../query/split.js';
import { type ArrayWindow, distinctWindows } from './array_window.js';
import type { CallResults } from './materialise.js';
import { MODE_BYTES, MODE_VALUE, type Mode } from './options.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** A record of `wrap`, `withOffset` or `withNormalizedPath` around an element's value. */
interface Wrapped {
  path?: string;
  key?: string | number | null;
  value: unknown;
  normalizedPath?: string;
}

/** How a parser's items are shaped: each a record (`wrapped`), with path and key (`keyed`), with a normalized path. */
export interface ItemShape {
  readonly mode: Mode;
  readonly wrapped: boolean;
  readonly keyed: boolean;
  readonly named: boolean;
}

/**
 * `out` from `before` on (the call's elements, materialised in `shape.mode`, one per element) with each candidate of
 * a tailed selector replaced by its tail's nodes, each element of a windowed one given to its window (which emits
 * what it completes, through the query's tail if it has one), and the elements `skip` marks (repeats arrival order
 * drops, markers) left out.
 */
export function afterHeads(
  call: CallResults,
  out: unknown[],
  before: number,
  tails: readonly (QueryTail | null)[] | null,
  windows: readonly (ArrayWindow | null)[] | null,
  skip: Uint8Array | null,
  shape: ItemShape,
): unknown[] {
  const items = out.splice(before);
  for (let e = 0; e < items.length; e++) {
    if (skip !== null && skip[e] === 1) continue;
    const item = items[e]!;
    const selector = call.path_(e);
    const window = windows === null ? null : windows[selector]!;
    const tail = tails === null ? null : tails[selector]!;
    if (window !== null) {
      // An object's members are no array elements: a negative index or slice selects none of them.
      const key = call.key_(e);
      if (typeof key !== 'number') continue;
      throughTail(tail, shape, out, (into) => window.push(key, item, into));
    } else if (tail === null) {
      out.push(item);
    } else {
      tailNodes(item, tail, shape, out);
    }
  }
  return out;
}

/** The end of the input completes the last array of each window: what it selects, through its query's tail. */
export function flushWindows(
  windows: readonly (ArrayWindow | null)[],
  tails: readonly (QueryTail | null)[] | null,
  shape: ItemShape,
  out: unknown[],
): void {
  for (const [selector, window] of distinctWindows(windows)) {
    throughTail(tails === null ? null : tails[selector]!, shape, out, (into) => window.flush(into));
  }
}

/** What a window's `step` emits, to `out`: as it is, or each element through the query's tail. */
function throughTail(tail: QueryTail | null, shape: ItemShape, out: unknown[], step: (into: unknown[]) => void): void {
  if (tail === null) {
    step(out);
    return;
  }
  const done: unknown[] = [];
  step(done);
  for (const element of done) tailNodes(element, tail, shape, out);
}

/** One candidate of a tail replaced by the tail's nodes in RFC 9535 order. */
function tailNodes(item: unknown, tail: QueryTail, shape: ItemShape, out: unknown[]): void {
  const { mode, wrapped, keyed, named } = shape;
  const element = wrapped ? (item as Wrapped).value : item;
  const candidate =
    mode === MODE_VALUE
      ? element
      : JSON.parse(mode === MODE_BYTES ? decoder.decode(element as Uint8Array) : (element as string));
  const nodes = tail.nodes(candidate);
  if (tail.segments.length === 0) {
    // Only a filter: the node is the candidate, emitted as it was materialised (its exact bytes or text).
    if (nodes.length !== 0) out.push(item);
    return;
  }
  // Output 'value' without offsets (tail_options.ts): each node is its value, or `{ path, key, value }`, with
  // its normalized path: the candidate's, then the node's below it.
  const path = keyed ? (item as Wrapped).path : undefined;
  const base = named ? (item as Wrapped).normalizedPath! : '';
  for (const node of nodes) {
    if (!wrapped) {
      out.push(node.value);
    } else if (!named) {
      out.push({ path, key: node.key, value: node.value });
    } else {
      const normalized = base + tail.below(node);
      out.push(
        keyed
          ? { path, key: node.key, value: node.value, normalizedPath: normalized }
          : { value: node.value, normalizedPath: normalized },
      );
    }
  }
}
