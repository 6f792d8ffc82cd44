// The reference semantics of RFC 9535 over JS values (what JSON.parse returns): a query's nodelist in the RFC's
// order, each node with its normalized path. Pure JS and deliberately plain (whole nodelists, one segment after the
// other): the streamed engine is to be checked against it, not the other way round.
//
// Order (RFC 9535 §2.5): a segment's results are the concatenation, over its input nodes in order, of each node's
// results, and for one node the concatenation over the selectors in the order written. A descendant segment
// visits the node and then its descendants depth first, a node before its children, arrays in index order and
// objects in their member order (JS's: integer-like names first, then insertion order; the RFC leaves object
// order to the implementation).
import type { LogicalExpression, Query, Segment, Selector } from './ast.js';
import { isObject } from './compare.js';
import { filterTest } from './filter.js';
import { Location, normalizedPath } from './normalized_path.js';

/** @internal One node of a result: the value found and where, as an RFC 9535 normalized path (`$['a'][0]`). */
export interface QueryNode {
  readonly value: unknown;
  readonly path: string;
}

/** A node while a query runs: its value and, when paths are wanted, where it is (`null` at the root or untracked). */
class Item {
  constructor(
    readonly value: unknown,
    readonly location: Location | null,
  ) {}
}

/**
 * @internal The nodelist of `query` (parseQuery()'s tree, trusted as well-typed) over the JSON value `value`, in
 * RFC 9535's order, each node with its normalized path.
 */
export function evaluate(query: Query, value: unknown): QueryNode[] {
  const items = run(query.segments, [new Item(value, null)], value, true);
  return items.map((item) => ({ value: item.value, path: normalizedPath(item.location) }));
}

/** @internal One node of a tail's result: its value, its own key and where it is (null: the candidate itself). */
export interface KeyedNode {
  readonly value: unknown;
  readonly key: string | number | null;
  /** Its place below the candidate, which is the root of its normalizedPath() (`$[0]['a']` for `@[0]['a']`). */
  readonly location: Location | null;
}

/**
 * @internal The nodelist of `segments` over `value` as their root, in RFC 9535's order, each node with its key:
 * a streamed query's tail over one candidate (js/query/split.ts), which reads no `$`.
 */
export function evaluateSegments(segments: readonly Segment[], value: unknown): KeyedNode[] {
  return locateSegments(segments, value).map((node) => ({
    value: node.value,
    key: node.location === null ? null : node.location.key_,
    location: node.location,
  }));
}

/** @internal One node of a tail's result and where it is in the candidate (null: the candidate itself). */
export interface LocatedNode {
  readonly value: unknown;
  readonly location: Location | null;
}

/**
 * @internal evaluateSegments with each node's whole location in the candidate: the command line finds the node's
 * exact text in the candidate's by it (js/cli/node_text.ts).
 */
export function locateSegments(segments: readonly Segment[], value: unknown): LocatedNode[] {
  return run(segments, [new Item(value, null)], value, true);
}

/** @internal Whether the filter `expression` holds for `candidate` as `@` (it reads no `$`). */
export function filterHolds(expression: LogicalExpression, candidate: unknown): boolean {
  return filterTest(expression, candidate, candidate, select);
}

/** @internal The values of `query`'s nodelist over `value` (no paths: cheaper, what filters use). */
export function evaluateValues(query: Query, value: unknown): unknown[] {
  return select(query, value, value);
}

/** A filter's query: `@` from the candidate, `$` from the document; values only. */
function select(query: Query, current: unknown, root: unknown): unknown[] {
  const start = query.root === '@' ? current : root;
  return run(query.segments, [new Item(start, null)], root, false).map((item) => item.value);
}

function run(segments: readonly Segment[], input: Item[], root: unknown, track: boolean): Item[] {
  let nodes = input;
  for (const segment of segments) {
    const out: Item[] = [];
    for (const node of nodes) {
      if (segment.descendant) {
        descendants(node, track, (d) => selectAll(segment.selectors, d, root, track, out));
      } else {
        selectAll(segment.selectors, node, root, track, out);
      }
    }
    nodes = out;
  }
  return nodes;
}

function child(parent: Item, key: string | number, value: unknown, track: boolean): Item {
  return new Item(value, track ? new Location(parent.location, key) : null);
}

/** Calls `visit` on `node` and each of its descendants, pre-order; an explicit stack, for deep documents. */
function descendants(node: Item, track: boolean, visit: (item: Item) => void): void {
  const stack: Item[] = [node];
  while (stack.length > 0) {
    const item = stack.pop()!;
    visit(item);
    const v = item.value;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(child(item, i, v[i], track));
    } else if (isObject(v)) {
      const names = Object.keys(v);
      for (let i = names.length - 1; i >= 0; i--) stack.push(child(item, names[i]!, v[names[i]!], track));
    }
  }
}

function selectAll(selectors: readonly Selector[], node: Item, root: unknown, track: boolean, out: Item[]): void {
  for (const selector of selectors) selectOne(selector, node, root, track, out);
}

function selectOne(selector: Selector, node: Item, root: unknown, track: boolean, out: Item[]): void {
  const v = node.value;
  switch (selector.kind) {
    case 'name':
      if (isObject(v) && Object.hasOwn(v, selector.name)) out.push(child(node, selector.name, v[selector.name], track));
      return;
    case 'index': {
      if (!Array.isArray(v)) return;
      const i = selector.index < 0 ? v.length + selector.index : selector.index;
      if (i >= 0 && i < v.length) out.push(child(node, i, v[i], track));
      return;
    }
    case 'wildcard':
      children(node, track, out, () => true);
      return;
    case 'slice':
      if (Array.isArray(v)) for (const i of sliceIndices(selector, v.length)) out.push(child(node, i, v[i], track));
      return;
    case 'filter':
      children(node, track, out, (c) => filterTest(selector.expression, c, root, select));
      return;
  }
}

/** The children of `node` (array elements in order, member values in object order) that pass `keep`. */
function children(node: Item, track: boolean, out: Item[], keep: (value: unknown) => boolean): void {
  const v = node.value;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (keep(v[i])) out.push(child(node, i, v[i], track));
  } else if (isObject(v)) {
    for (const name of Object.keys(v)) if (keep(v[name])) out.push(child(node, name, v[name], track));
  }
}

/** @internal The indices a slice selects in an array of `length`, in order (RFC 9535 §2.3.4.2.2). */
export function sliceIndices(
  slice: { readonly start: number | null; readonly end: number | null; readonly step: number | null },
  length: number,
): number[] {
  const step = slice.step ?? 1;
  const out: number[] = [];
  if (step === 0) return out;
  const normalize = (i: number) => (i >= 0 ? i : length + i);
  if (step > 0) {
    const lower = Math.min(Math.max(normalize(slice.start ?? 0), 0), length);
    const upper = Math.min(Math.max(normalize(slice.end ?? length), 0), length);
    for (let i = lower; i < upper; i += step) out.push(i);
  } else {
    const upper = Math.min(Math.max(normalize(slice.start ?? length - 1), -1), length - 1);
    const lower = Math.min(Math.max(normalize(slice.end ?? -length - 1), -1), length - 1);
    for (let i = upper; lower < i; i += step) out.push(i);
  }
  return out;
}
