// What JS does after the native heads of split queries (js/query/split.ts): each candidate of a tail, already
// materialised (a value: the one JSON.parse of its batch; bytes or text: parsed here, once), is replaced by its
// tail's nodes, in RFC 9535 order; each element of a window goes to it (array_window.ts). Only parsers with a tail
// or a window come here (ResolvedOptions.selectorTails_, selectorWindows_), so the others pay nothing.
import type { QueryTail } from '../query/split.js';
import type { ArrayWindow } from './array_window.js';
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

/**
 * `out` from `before` on (the call's elements, materialised in `mode`, one per element) with each candidate of a
 * tailed selector replaced by its tail's nodes, each element of a windowed one given to its window (which emits
 * what it completes), and the elements `skip` marks (repeats arrival order drops, markers) left out. `wrapped`: each
 * item is a record; `keyed`: with path and key; `named`: with its normalized path.
 */
export function afterHeads(
  call: CallResults,
  out: unknown[],
  before: number,
  tails: readonly (QueryTail | null)[] | null,
  windows: readonly (ArrayWindow | null)[] | null,
  skip: Uint8Array | null,
  mode: Mode,
  wrapped: boolean,
  keyed: boolean,
  named: boolean,
): unknown[] {
  const items = out.splice(before);
  for (let e = 0; e < items.length; e++) {
    if (skip !== null && skip[e] === 1) continue;
    const item = items[e]!;
    const selector = call.path_(e);
    const window = windows === null ? null : windows[selector]!;
    if (window !== null) {
      // An object's members are no array elements: a negative index or slice selects none of them.
      const key = call.key_(e);
      if (typeof key === 'number') window.push(key, item, out);
      continue;
    }
    const tail = tails === null ? null : tails[selector]!;
    if (tail === null) {
      out.push(item);
      continue;
    }
    const element = wrapped ? (item as Wrapped).value : item;
    const candidate =
      mode === MODE_VALUE
        ? element
        : JSON.parse(mode === MODE_BYTES ? decoder.decode(element as Uint8Array) : (element as string));
    const nodes = tail.nodes(candidate);
    if (tail.segments.length === 0) {
      // Only a filter: the node is the candidate, emitted as it was materialised (its exact bytes or text).
      if (nodes.length !== 0) out.push(item);
      continue;
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
  return out;
}
