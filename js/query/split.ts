// A query that does not stream whole, split into a head the native automaton streams in RFC order and a tail that
// JS evaluates (evaluate.ts) on each node the head selects, as that node completes (docs/paths.md, "Streaming"),
// or, for a segment counted from the end of an array, a window JS keeps over each array's elements (and the
// segments after it as a tail of each element the window selects).
// The head's last segment selects the children of a container (a wildcard, a forward slice, a filter): each is a
// bounded candidate, and the head, without `..` and with no union but of increasing indices, selects them once
// each, in document order. The tail's nodes of one candidate come in the RFC's order, so the query's nodelist
// is exactly the RFC's: the concatenation, over the candidates in order, of each one's tail nodelist.
import type { IndexSelector, LogicalExpression, Segment, Selector, SliceSelector } from './ast.js';
import { evaluateSegments, filterHolds, type KeyedNode } from './evaluate.js';
import { filterProgram } from './filter_program.js';
import { normalizedPath } from './normalized_path.js';
import { readsRoot, rootFilterAt } from './reads_root.js';

/** @internal What is evaluated in JS on each candidate of a split query. */
export interface QueryTail {
  /** A filter applied to the candidate itself (`@`), that the head's wildcard stands for; null when none. */
  readonly filter: LogicalExpression | null;
  /** The segments applied after it, with the candidate as their root; empty: the candidate is the node. */
  readonly segments: readonly Segment[];
  /** Whether a filter is evaluated in JS (the candidate's or one in `segments`): it reads values. */
  readonly readsValues_: boolean;
  /** Where the tail starts in the query's text (its filter's or first segment's position), for messages. */
  readonly at: number;
  /**
   * The tail's nodelist over a candidate (a `JSON.parse` value), in RFC 9535 order, each node with its key (null:
   * the candidate itself). Held here so that the parsers reach the evaluator only through lowerQuery: the
   * library's own parsers, which take native paths as given, do not bundle it.
   */
  readonly nodes: (candidate: unknown) => readonly KeyedNode[];
  /** A node's normalized path below its candidate (`['a'][0]`), for withNormalizedPath; held here as `nodes` is. */
  readonly below: (node: KeyedNode) => string;
}

/**
 * @internal A segment counted from the end of each array (a negative index, a slice with a negative part):
 * the head selects every element of those arrays, each keyed by its index, and JS keeps a window of them until
 * the array is known complete (js/parse/array_window.ts). One object per query, shared by its native selectors.
 */
export interface ArrayWindowSpec {
  readonly selector: IndexSelector | SliceSelector;
}

/**
 * @internal A query as a native head and what JS does after it: a tail per candidate, or a window per array,
 * then, when segments follow the window's, a tail per element the window selects.
 */
export type SplitQuery =
  | { readonly head: readonly Segment[]; readonly tail: QueryTail; readonly window: null }
  | { readonly head: readonly Segment[]; readonly tail: QueryTail | null; readonly window: ArrayWindowSpec };

/**
 * @internal The split of `segments` with the longest head, or null when there is none: the head would be empty or
 * end in a name or index (one node, which may be the whole document).
 */
export function splitQuery(segments: readonly Segment[]): SplitQuery | null {
  let k = 0;
  while (k < segments.length && headSegment(segments[k]!)) k++;
  if (k === segments.length) return null;
  const segment = segments[k]!;
  const only = segment.selectors.length === 1 ? segment.selectors[0]! : null;
  const fromEnd = !segment.descendant && only !== null && fromTheEnd(only) ? only : null;
  if (fromEnd !== null && k === segments.length - 1) return windowOf(segments, k, fromEnd);
  if (!segment.descendant && only !== null && only.kind === 'filter') {
    const rest = segments.slice(k + 1);
    if (filterProgram(only.expression) !== null) {
      // A filter wasm evaluates ends the head: a rejected candidate never becomes a JS value.
      return { head: segments.slice(0, k + 1), tail: tailOf(null, rest, rest[0]?.at ?? 0), window: null };
    }
    const wildcard: Segment = { at: segment.at, descendant: false, selectors: [{ kind: 'wildcard', at: only.at }] };
    return { head: [...segments.slice(0, k), wildcard], tail: tailOf(only.expression, rest, only.at), window: null };
  }
  for (let j = k - 1; j >= 0; j--) {
    const s = segments[j]!.selectors;
    if (s.length === 1 && (s[0]!.kind === 'wildcard' || s[0]!.kind === 'slice')) {
      const tail = tailOf(null, segments.slice(j + 1), segments[j + 1]!.at);
      return { head: segments.slice(0, j + 1), tail, window: null };
    }
  }
  // No candidate before it: the window's elements are the candidates of the rest.
  return fromEnd === null ? null : windowOf(segments, k, fromEnd);
}

/** Segment k, counted from the end, as a window over each array the head's wildcard reaches, and a tail after it. */
function windowOf(segments: readonly Segment[], k: number, only: IndexSelector | SliceSelector): SplitQuery {
  // Every array the head reaches is at one depth, in document order: index 0 starts the next one.
  const segment = segments[k]!;
  const wildcard: Segment = { at: segment.at, descendant: false, selectors: [{ kind: 'wildcard', at: only.at }] };
  const rest = segments.slice(k + 1);
  const tail = rest.length === 0 ? null : tailOf(null, rest, rest[0]!.at);
  return { head: [...segments.slice(0, k), wildcard], tail, window: { selector: only } };
}

/** A negative index, or a slice with a negative part: counted from the end of the array. */
function fromTheEnd(s: Selector): s is IndexSelector | SliceSelector {
  if (s.kind === 'index') return s.index < 0;
  return s.kind === 'slice' && !forward(s);
}

function tailOf(filter: LogicalExpression | null, segments: readonly Segment[], at: number): QueryTail {
  const readsValues = filter !== null || segments.some((s) => s.selectors.some((x) => x.kind === 'filter'));
  const after =
    segments.length === 0
      ? (candidate: unknown) => [{ value: candidate, key: null, location: null }]
      : (candidate: unknown) => evaluateSegments(segments, candidate);
  const nodes =
    filter === null ? after : (candidate: unknown) => (filterHolds(filter, candidate) ? after(candidate) : []);
  return {
    filter,
    segments,
    readsValues_: readsValues,
    at,
    nodes,
    below: (node) => normalizedPath(node.location).slice(1),
  };
}

/** A segment the head may hold before its last: a child segment of forward selectors, in RFC order. */
function headSegment(segment: Segment): boolean {
  const s = segment.selectors;
  return !segment.descendant && s.every(forward) && (s.length === 1 || increasingIndices(s));
}

function forward(s: Selector): boolean {
  if (s.kind === 'index') return s.index >= 0;
  if (s.kind === 'slice') return (s.start ?? 0) >= 0 && (s.end ?? 0) >= 0 && (s.step ?? 1) >= 0;
  return s.kind !== 'filter';
}

/** @internal Whether a union is of indices in strictly increasing order: distinct nodes in document order. */
export function increasingIndices(selectors: readonly Selector[]): boolean {
  let last = -1;
  for (const s of selectors) {
    if (s.kind !== 'index' || s.index <= last) return false;
    last = s.index;
  }
  return true;
}

/**
 * @internal Where the tail's first filter reading `$` (the document) starts, or null: a candidate is not the
 * document, and the document is never held.
 */
export function absoluteQueryAt(tail: QueryTail): number | null {
  if (tail.filter !== null && readsRoot(tail.filter)) return tail.at;
  return rootFilterAt(tail.segments);
}
