// A query lowered to the native selector automaton (src/select/selector.cpp): what the parsers stream. The
// automaton takes one selector per segment, so a union is expanded into several native selectors (the cartesian
// product over the segments: `$['a','b'][0,2]` is four), all reported as the one query. What the automaton cannot
// answer forward-only (negative indices, slices with a negative part, filters other than the simple ones of the
// last segment: filter_program.ts), and a query whose RFC 9535 nodelist may differ from the order and
// multiplicity in which matches complete unless the caller asked for that arrival order, is split into a native
// head and a tail JS evaluates per candidate (split.ts) when it can be, else refused: one order is never silently
// given for the other (docs/paths.md, "Streaming").
import { MAX_SELECTORS } from '../native/contract.js';
import { misuse, type ApiName } from '../validate.js';
import type { Segment, Selector } from './ast.js';
import { filterProgram } from './filter_program.js';
import { parseQuery } from './parser.js';
import { absoluteQueryAt, increasingIndices, splitQuery, type ArrayWindowSpec, type QueryTail } from './split.js';

/**
 * The order of a query's matches. `'rfc'`: RFC 9535's nodelist, exactly; `'arrival'`: each selected node once, as
 * its last byte arrives (a node inside another before it).
 */
export type PathOrder = 'rfc' | 'arrival';

/** @internal A query as the native parser is given it. */
export interface LoweredQuery {
  /** The native selectors, in the order they are added: each match of one of them is a match of the query. */
  readonly selectors: readonly string[];
  /**
   * Two of the selectors may select the same node (`$[*, 0]`, `$..['a','b']..c`): in arrival order the parser
   * delivers such a node once. Always false for a query that streams in RFC order.
   */
  readonly mayRepeat: boolean;
  /** The steps of its selectors that have a descendant segment, all together (MAX_DESCENDANT_STEPS). */
  readonly descendantSteps: number;
  /** What JS evaluates on each node the selectors select (split.ts), or null: the selectors are the query. */
  readonly tail: QueryTail | null;
  /** The segment JS takes from a window over each array's elements the selectors select (split.ts), or null. */
  readonly window: ArrayWindowSpec | null;
  /** Each selector's steps, in the order of `selectors`: what normalized paths are tracked with (normalized.ts). */
  readonly steps: readonly (readonly NativeStep[])[];
  /** In RFC order, a union whose matches the parser holds back until their container ends, or null. */
  readonly held: HeldUnion | null;
}

/**
 * @internal A union streamed in RFC 9535's order (`$[*, 0]`, `$.a['b','c'].d`): its containers' selectors (several
 * after a union of indices: `$[0, 2]['b', 'a']`), whose end markers release what is held, and per native selector
 * the union's selector it takes (its stage). The matches of stage 0 are delivered as they arrive; the later stages'
 * are held until their container ends, then delivered stage by stage, each in document order (match_order.ts).
 */
export interface HeldUnion {
  readonly containers: readonly string[];
  readonly stages: readonly number[];
  /**
   * When the union is the last segment: per stage, the last index its selector can select in an array (-1: none),
   * so that the next stage is released once an element past it arrives (`$[0, *]` holds nothing); null when none
   * can tell.
   */
  readonly lasts: readonly number[] | null;
}

/** @internal One step of a native selector: its text (`["a"]`, `[*]`, `..["a"]`) and the key it always selects. */
export interface NativeStep {
  readonly text: string;
  /** The member name or index the step selects, when it is one name or index >= 0 of a child segment; else null. */
  readonly key: string | number | null;
}

/** What the streamed grammar takes, as the refusals list it. */
const STREAMED =
  'a stream takes names, *, indices >= 0, slices without negative parts, .. and unions, and in the last segment ' +
  'of a query without .. filters comparing or testing @ queries of names and indices >= 0 with literals; ' +
  'any other query needs a first part of those without .. and ending in *, such a slice or a filter, the rest ' +
  'being evaluated on each node it selects, or a negative index or slice after a first part without .., the ' +
  'rest being evaluated on each element it selects';

/**
 * @internal Parses `text` (named `subject` in messages: `options.path`, `options.paths[2]`, `PATH`) and lowers it
 * to native selectors. `orderHint` is how the caller asks for arrival order (`order: 'arrival'`,
 * `--order arrival`), named when RFC order is refused.
 * @throws {TypeError} for an invalid query (parseQuery's positioned message), a valid one that does not stream
 * yet, one of more than MAX_SELECTORS native selectors, and one that needs arrival order in RFC order.
 */
export function lowerQuery(
  api: ApiName,
  subject: string,
  text: string,
  order: PathOrder,
  orderHint: string,
): LoweredQuery {
  const query = parseQuery(text, api, subject);
  const where = (at: number) => `${subject} ${JSON.stringify(text)} at ${at}`;
  const segments = query.segments;
  const whole = nativeParts(segments, !segments.some((segment) => segment.descendant));
  const problem = Array.isArray(whole) ? (order === 'rfc' ? rfcOrderProblem(segments) : null) : null;
  if (Array.isArray(whole) && problem === null) return lowered(api, subject, text, segments, whole, null, null);
  const union = Array.isArray(whole) ? heldUnionAt(segments) : -1;
  if (union >= 0)
    return withHeld(lowered(api, subject, text, segments, whole as string[][], null, null), segments, union);
  const split = splitQuery(segments);
  if (split === null) {
    if (!Array.isArray(whole)) {
      throw misuse(api, `${where(whole.at)}: ${describe(whole)} is not supported in a stream yet (${STREAMED})`);
    }
    lowered(api, subject, text, segments, whole, null, null);
    throw misuse(
      api,
      `${where(problem!.at)}: ${problem!.why}; with ${orderHint} each match comes once, as its last byte arrives`,
    );
  }
  const absolute = split.tail === null ? null : absoluteQueryAt(split.tail);
  if (absolute !== null) {
    throw misuse(
      api,
      `${where(absolute)}: a filter selector with an absolute query ($...) is not supported in a stream: it reads ` +
        'the whole document, which a stream does not hold',
    );
  }
  const head = nativeParts(split.head, true) as string[][];
  return lowered(api, subject, text, split.head, head, split.tail, split.window);
}

/** The lowered query of native `parts` (one list per segment of `segments`), within MAX_SELECTORS. */
function lowered(
  api: ApiName,
  subject: string,
  text: string,
  segments: readonly Segment[],
  parts: readonly string[][],
  tail: QueryTail | null,
  window: ArrayWindowSpec | null,
): LoweredQuery {
  const count = parts.reduce((n, list) => n * list.length, 1);
  if (count > MAX_SELECTORS) {
    throw misuse(
      api,
      `${subject} ${JSON.stringify(text)} expands to ${count} native selectors (the product of its unions' sizes); ` +
        `at most ${MAX_SELECTORS} are supported`,
    );
  }
  let steps: NativeStep[][] = [[]];
  for (const [k, list] of parts.entries()) {
    const segment = segments[k]!;
    const choices = list.map((text, j): NativeStep => ({ text, key: fixedKey(segment, segment.selectors[j]!) }));
    steps = steps.flatMap((head) => choices.map((step) => [...head, step]));
  }
  const selectors = steps.map((list) => `$${list.map((step) => step.text).join('')}`);
  const descendant = segments.some((segment) => segment.descendant);
  const descendantSteps = descendant ? selectors.length * parts.length : 0;
  return { selectors, mayRepeat: mayRepeat(segments), descendantSteps, tail, window, steps, held: null };
}

/**
 * The segment of the one union that keeps a query from streaming in RFC order when its matches are held back
 * (withHeld), or -1. Without `..` every match is at one depth: the matches in a container of the union come in
 * document order, all before the next container's, and the RFC's order is the union's selectors in turn. So one
 * such union, after a first part of single selectors and unions of increasing indices (one container at a time,
 * each marked), is streamed by holding its later selectors' matches until their container ends.
 */
function heldUnionAt(segments: readonly Segment[]): number {
  if (segments.some((segment) => segment.descendant)) return -1;
  const unions = segments.flatMap((segment, k) =>
    segment.selectors.length > 1 && !increasingIndices(segment.selectors) ? [k] : [],
  );
  if (unions.length !== 1) return -1;
  const u = unions[0]!;
  // The segments before it are in document order (rfcOrderProblem): any union there is of increasing indices.
  return u;
}

/** `query` with its matches held back per selector of the union at segment `u` (heldUnionAt). */
function withHeld(query: LoweredQuery, segments: readonly Segment[], u: number): LoweredQuery {
  const heads = query.steps.map(
    (steps) =>
      `$${steps
        .slice(0, u)
        .map((step) => step.text)
        .join('')}`,
  );
  // The selectors are the product of the segments' choices (lowered()), the last segment's varying fastest.
  const after = segments.slice(u + 1).reduce((n, segment) => n * segment.selectors.length, 1);
  const size = segments[u]!.selectors.length;
  const stages = query.selectors.map((_, i) => Math.floor(i / after) % size);
  // In RFC order a node two of the union's selectors select comes once for each: nothing is dropped as a repeat.
  const lasts = u === segments.length - 1 ? segments[u]!.selectors.map(lastIndex) : null;
  const bounded = lasts?.some((last) => last !== Infinity) ?? false;
  return {
    ...query,
    mayRepeat: false,
    held: { containers: [...new Set(heads)], stages, lasts: bounded ? lasts : null },
  };
}

/** The last array index `s` can select (-1: none), or Infinity: any, or a member. */
function lastIndex(s: Selector): number {
  if (s.kind === 'index') return s.index;
  if (s.kind !== 'slice' || s.end === null) return Infinity;
  return s.step === 0 || (s.start ?? 0) >= s.end ? -1 : s.end - 1;
}

/** The one key `s` selects in a child segment (a name, an index >= 0), else null. */
function fixedKey(segment: Segment, s: Selector): string | number | null {
  if (segment.descendant) return null;
  if (s.kind === 'name') return s.name;
  return s.kind === 'index' && s.index >= 0 ? s.index : null;
}

/**
 * Each segment's native selectors (a union's several), or the first selector the automaton cannot answer. A simple
 * filter is native only in the last segment, and there only when `filterLast`.
 */
function nativeParts(segments: readonly Segment[], filterLast: boolean): string[][] | Selector {
  const parts: string[][] = [];
  const last = segments.length - 1;
  for (const [k, segment] of segments.entries()) {
    const prefix = segment.descendant ? '..' : '';
    const list: string[] = [];
    for (const selector of segment.selectors) {
      const native = nativeSelector(selector, k === last && filterLast);
      if (native === null) return selector;
      list.push(prefix + native);
    }
    parts.push(list);
  }
  return parts;
}

/**
 * The selector as the native grammar writes it, or null when the automaton cannot answer it forward-only. A filter
 * is evaluated natively only where `filterable` (the last segment of a query without `..`): its program runs to
 * the selector's end.
 */
function nativeSelector(s: Selector, filterable: boolean): string | null {
  switch (s.kind) {
    case 'name':
      // JSON.stringify escapes what needs it; RFC 9535 names hold no lone surrogate, so the text is well-formed.
      return `[${JSON.stringify(s.name)}]`;
    case 'wildcard':
      return '[*]';
    case 'index':
      return s.index >= 0 ? `[${s.index}]` : null;
    case 'slice':
      if ((s.start ?? 0) < 0 || (s.end ?? 0) < 0 || (s.step ?? 1) < 0) return null;
      return `[${s.start ?? 0}:${s.end ?? ''}:${s.step ?? 1}]`;
    case 'filter': {
      const program = filterable ? filterProgram(s.expression) : null;
      return program === null ? null : `[?${program}]`;
    }
  }
}

/** A selector that does not stream, as the refusal names it. */
function describe(s: Selector): string {
  if (s.kind === 'index') return `the negative index ${s.index}`;
  if (s.kind === 'slice') {
    const part = (s.start ?? 0) < 0 ? 'start' : (s.end ?? 0) < 0 ? 'end' : 'step';
    return `a slice with a negative ${part}`;
  }
  return `a ${s.kind} selector`;
}

/**
 * Why the query's RFC 9535 nodelist may differ from its matches in arrival order, or null when it cannot. Only
 * child segments keep the orders equal: every node selected is then at the same depth, so none is inside another
 * and the document's order is the RFC's, each node once. A union keeps them equal only when it is of indices in
 * strictly increasing order; any other can put a later node first (`['b','a']`) or select one twice (`[*, 0]`).
 * One such union and no `..` is streamed by holding matches back (heldUnionAt), so the problem named is a `..`,
 * else the second union.
 */
function rfcOrderProblem(segments: readonly Segment[]): { at: number; why: string } | null {
  const descendant = segments.find((segment) => segment.descendant);
  if (descendant !== undefined) {
    return {
      at: descendant.at,
      why:
        'RFC 9535 order of the descendant segment puts matches of a node before those inside its descendants, ' +
        'so a match could wait for the end of the document',
    };
  }
  const unions = segments.filter((s) => s.selectors.length > 1 && !increasingIndices(s.selectors));
  if (unions.length === 0) return null;
  return {
    at: unions[unions.length > 1 ? 1 : 0]!.at,
    why:
      'RFC 9535 order of a union is its selectors in the order written, duplicates kept: a second such union would ' +
      'hold matches for a whole container of the first',
  };
}

/**
 * Whether two of the expanded selectors may select the same node. Two expansions differ in the choices of some
 * union segments; they select different nodes when one of those choices is of two disjoint selectors at a segment
 * whose depth is fixed (no `..` at or before it: the nodes have different ancestors there) or that is the last
 * (the nodes are different children). So they may coincide when a union sits after a `..` (but not last), or
 * holds two selectors that may select the same child.
 */
function mayRepeat(segments: readonly Segment[]): boolean {
  let afterDescendant = false;
  for (let k = 0; k < segments.length; k++) {
    const { descendant, selectors } = segments[k]!;
    afterDescendant ||= descendant;
    if (selectors.length < 2) continue;
    if (afterDescendant && k < segments.length - 1) return true;
    for (let i = 0; i < selectors.length; i++) {
      for (let j = i + 1; j < selectors.length; j++) if (!disjoint(selectors[i]!, selectors[j]!)) return true;
    }
  }
  return false;
}

/** Whether two (streamable) selectors can never select the same child of a node. */
function disjoint(a: Selector, b: Selector): boolean {
  // A filter may select any child, as a wildcard does.
  if (a.kind === 'filter') return disjoint({ kind: 'wildcard', at: a.at }, b);
  if (b.kind === 'filter') return disjoint(a, { kind: 'wildcard', at: b.at });
  if (a.kind === 'name' || b.kind === 'name') {
    // A name selects a member, an index or a slice an element: only two names or a wildcard may meet.
    if (a.kind === 'name' && b.kind === 'name') return a.name !== b.name;
    return a.kind !== 'wildcard' && b.kind !== 'wildcard';
  }
  if (a.kind === 'index' && b.kind === 'slice') return !inSlice(a.index, b);
  if (b.kind === 'index' && a.kind === 'slice') return !inSlice(b.index, a);
  const [lo1, hi1] = span(a);
  const [lo2, hi2] = span(b);
  return lo1 === hi1 || lo2 === hi2 || hi1 <= lo2 || hi2 <= lo1;
}

/** The indices [lo, hi) a selector may select within (a wildcard: all; an empty slice: none). */
function span(s: Selector): [number, number] {
  if (s.kind === 'index') return [s.index, s.index + 1];
  if (s.kind === 'slice') {
    const lo = s.start ?? 0;
    const hi = s.step === 0 ? lo : (s.end ?? Infinity);
    return [lo, Math.max(lo, hi)];
  }
  return [0, Infinity];
}

function inSlice(index: number, s: Selector & { kind: 'slice' }): boolean {
  const [lo, hi] = span(s);
  return index >= lo && index < hi && (index - lo) % (s.step ?? 1) === 0;
}
