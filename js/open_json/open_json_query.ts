// What openJson answers of an RFC 9535 query (js/query/parser.ts reads it), and how: doc.get() and `sluice get` take
// singular queries (names and indices, negative ones too: one value); doc.iterate() takes a query split into a
// linear head that streams the elements of one container ([*], .*, a slice or a filter after names and indices
// >= 0) and a tail evaluated on each element (js/query/evaluate.ts). What would need the whole document (a `..` or
// a union before the container, a filter that reads `$`) or an array's length before its end (a negative index
// before the container, a slice counted from the end) is refused with the reason (docs/open_json.md).
import type { Query, SliceSelector } from '../query/ast.js';
import { filterProgram } from '../query/filter_program.js';
import { parseQuery } from '../query/parser.js';
import { readsRoot, rootFilterAt } from '../query/reads_root.js';
import { misuse, type ApiName } from '../validate.js';

/** @internal One step of a singular query: a member name or an array index (negative: from the end). */
export type SingularStep = string | number;

/** What a singular query is made of, as error messages list it. */
const SINGULAR = `$, .name, ['name'], ["name"], [N]`;

/** What doc.iterate() streams, as error messages say it. */
const ITERATED =
  'openJson iterates one array or object (names and indices >= 0 to it, then [*], .*, a slice or a filter, then ' +
  'any segments)';

/**
 * @internal The steps of the singular query `path` (named `subject` in messages), which `taker` (`openJson`,
 * `sluice get`) reads; `several` is what to use instead for several values.
 * @throws {TypeError} for an invalid query (parseQuery's positioned message) and for one that is not singular:
 * `doc.get(): path "$..a" at 1: openJson takes singular queries (...), not a descendant segment; use ...`.
 */
export function singularSteps(api: ApiName, subject: string, path: string, taker: string, several: string) {
  const query = parseQuery(path, api, subject);
  const steps: SingularStep[] = [];
  for (const segment of query.segments) {
    const s = segment.selectors[0]!;
    let what: string | null = null;
    if (segment.descendant) what = 'a descendant segment';
    else if (segment.selectors.length > 1) what = 'a union';
    else if (s.kind === 'name') steps.push(s.name);
    else if (s.kind === 'index') steps.push(s.index);
    else what = `a ${s.kind} selector`;
    if (what !== null) {
      const at = segment.descendant || segment.selectors.length > 1 ? segment.at : s.at;
      throw misuse(
        api,
        `${subject} ${JSON.stringify(path)} at ${at}: ${taker} takes singular queries (${SINGULAR}), not ${what}; ` +
          `use ${several} for several values`,
      );
    }
  }
  return steps;
}

/** @internal Which elements of the iterated container the head keeps. */
export type Pick =
  | { readonly kind: 'all' }
  /** A slice with bounds >= 0 and a step >= 0, counted from the start: known before the array's end. */
  | { readonly kind: 'slice'; readonly start: number; readonly end: number; readonly step: number }
  /**
   * A filter, as a query over a one-element array holding the candidate (`@`; `$` is refused), and as the native
   * parser's program when it takes it (js/query/filter_program.ts; null: evaluated in JS on each element).
   */
  | { readonly kind: 'filter'; readonly test: Query; readonly program: string | null };

/** @internal doc.iterate()'s query: the container streamed, the elements picked, the tail run on each. */
export interface IterateQuery {
  readonly container: (string | number)[];
  readonly pick: Pick;
  /** The segments after the head, as a query from the element (`$` is the element); null when there are none. */
  readonly tail: Query | null;
}

/**
 * @internal doc.iterate()'s reading of `path`.
 * @throws {TypeError} naming the position and the reason for a query openJson cannot stream honestly.
 */
export function iterateQuery(api: ApiName, path: string): IterateQuery {
  const query = parseQuery(path, api, 'path');
  const segments = query.segments;
  const refuse = (at: number, what: string, instead: string) =>
    misuse(api, `path ${JSON.stringify(path)} at ${at}: ${what}; ${ITERATED}${instead}`);
  const container: (string | number)[] = [];
  let k = 0;
  for (; k < segments.length; k++) {
    const segment = segments[k]!;
    const s = segment.selectors[0]!;
    if (segment.descendant || segment.selectors.length > 1) break;
    if (s.kind === 'name') container.push(s.name);
    else if (s.kind === 'index' && s.index >= 0) container.push(s.index);
    else break;
  }
  if (k === segments.length) {
    throw misuse(
      api,
      `path ${JSON.stringify(path)} selects one value, not the elements of a container; ${ITERATED}; ` +
        'use doc.get() for one value',
    );
  }
  const segment = segments[k]!;
  const s = segment.selectors[0]!;
  const anywhere = "; use parseJsonArray(source, { path, order: 'arrival' }), which reads the whole document";
  if (segment.descendant) {
    throw refuse(segment.at, 'a descendant segment before the iterated container: its nodes may be anywhere', anywhere);
  }
  if (segment.selectors.length > 1) {
    throw refuse(segment.at, 'a union in place of the iterated container: its nodes may come in any order', anywhere);
  }
  let pick: Pick;
  if (s.kind === 'wildcard') pick = { kind: 'all' };
  else if (s.kind === 'slice') pick = forwardSlice(s) ?? refusedSlice(refuse, s.at);
  else if (s.kind === 'filter') {
    if (readsRoot(s.expression)) throw refuse(s.at, 'a filter that reads $, the whole document', anywhere);
    const test: Query = { kind: 'query', root: '$', segments: [segment], singular: false };
    pick = { kind: 'filter', test, program: filterProgram(s.expression) };
  } else {
    throw refuse(
      s.at,
      "a negative index before the iterated container: an array's length is known only at its end",
      '',
    );
  }
  const rest = segments.slice(k + 1);
  const at = rootFilterAt(rest);
  if (at !== null) throw refuse(at, 'a filter that reads $, the whole document', anywhere);
  const tail: Query | null = rest.length === 0 ? null : { kind: 'query', root: '$', segments: rest, singular: false };
  return { container, pick, tail };
}

/** @internal What the native parser runs for a slice: its element selector and where the iteration stops. */
export interface NativeSlice {
  /** The element selector, as js/query/lower.ts writes a forward slice. */
  readonly selector: string;
  /**
   * The index of the slice's last element, whose end ends the iteration (its end marker's record follows the
   * element's); absent: the slice runs to the array's end.
   */
  readonly stop?: number;
}

/** @internal `pick` as the native parser selects it (an empty slice stops at the end of element 0). */
export function nativeSlice(pick: Pick & { readonly kind: 'slice' }): NativeSlice {
  const { start, end, step } = pick;
  const selector = `[${start}:${end === Infinity ? '' : end}:${step}]`;
  if (step === 0 || start >= end) return { selector, stop: 0 };
  if (end === Infinity) return { selector };
  return { selector, stop: start + step * Math.floor((end - 1 - start) / step) };
}

/** The slice as a forward pick, or null when which elements it picks depends on the array's length. */
function forwardSlice(s: SliceSelector): Pick | null {
  const step = s.step ?? 1;
  if (step < 0 || (s.start ?? 0) < 0 || (s.end ?? 0) < 0) return null;
  return { kind: 'slice', start: s.start ?? 0, end: s.end ?? Infinity, step };
}

function refusedSlice(refuse: (at: number, what: string, instead: string) => TypeError, at: number): never {
  throw refuse(
    at,
    "a slice counted from the end or backwards: which elements it picks depends on the array's length",
    '; iterate [*] and keep the elements wanted',
  );
}
