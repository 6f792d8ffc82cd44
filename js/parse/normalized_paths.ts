// Normalized paths (RFC 9535 §2.7) of streamed matches, options.withNormalizedPath. The native parser reports a
// match's own key only (its ancestors' keys have left the window when it ends), so marker selectors report the
// ancestors' keys as they start: a start marker on each prefix of a selector that ends in a step of no fixed key
// (`$.a[*]` of `$.a[*].b`), whose latest record at that depth is the ancestor's (records come in document order);
// and beneath the part before a `..`, a start and an end marker on every descendant (`$.a..[*]`), which keep the
// stack of open values exactly. Markers are dropped before the elements are delivered (docs/paths.md). Records
// never tie in a way that matters: a value starts after a `[`, `,` or `:` past any earlier value's end, and at a
// value's end its matches come before its end markers (the native parser reports selectors in index order, markers
// last), so a match finds itself on top of its descendant stack.
import { MAX_SELECTORS } from '../native/contract.js';
import type { NativeStep } from '../query/lower.js';
import { normalizedStep as stepText } from '../query/normalized_path.js';
import { misuse, type ApiName } from '../validate.js';

/** @internal What the tracker reads of a call's records (CallResults; the command line's stream). */
export interface MatchRecords {
  readonly count_: number;
  /** Record i's selector: a native one, or a marker after them. */
  path_(i: number): number;
  /** Record i's key: a member name, an index, or null. */
  key_(i: number): string | number | null;
}

/** @internal The markers a parser adds for normalized paths, and the tracker that reads their records. */
export interface NormalizedPlan {
  /** End markers (addMarkerPath), after the native selectors. */
  readonly ends_: readonly string[];
  /** Start markers (addStartMarkerPath), after the end markers. */
  readonly starts_: readonly string[];
  /** A new parser's tracker. */
  readonly make_: () => PathTracker;
}

type Key = string | number | null;

/** How a selector's match finds its path: its fixed part, then a descendant stack, then its own key. */
interface Template {
  /** Per depth 1..: the step's text when its key is fixed, else the depth whose start marker holds the key. */
  readonly fixed_: readonly (string | number)[];
  /** The descendant stack holding the rest (the match on top), or -1: none. */
  readonly stack_: number;
  /** The match's own key ends the path (a selector without `..` of at least one step). */
  readonly own_: boolean;
  /** Its step's text when that key is fixed (a name, an index): not decoded from each record. */
  readonly last_: string | null;
}

/**
 * @internal The markers that give the normalized paths of selectors of `steps` (the first `count` selectors of a
 * parser), within MAX_SELECTORS and, with the selectors' `descendantSteps`, `maxDescendantSteps`. `foreign` end
 * markers of another use (held unions' containers) follow its end markers: their records are only skipped.
 * @throws {TypeError} naming `subject` (options.withNormalizedPath, --with-normalized-path) when the markers exceed
 * a limit.
 */
export function planNormalizedPaths(
  api: ApiName,
  subject: string,
  steps: readonly (readonly NativeStep[])[],
  descendantSteps: number,
  maxDescendantSteps: number,
  foreign = 0,
): NormalizedPlan {
  const count = steps.length;
  const levelStarts = new Map<string, number>();
  const descendants = new Map<string, number>();
  const templates: Template[] = [];
  let markerSteps = 0;
  for (const list of steps) {
    const first = list.findIndex((step) => step.text.startsWith('..'));
    // The ancestors whose keys come from the fixed part: all but the match without `..`, up to the `..` with it.
    const fixedDepth = first < 0 ? Math.max(list.length - 1, 0) : first;
    const fixed: (string | number)[] = [];
    let prefix = '$';
    for (let j = 0; j < fixedDepth; j++) {
      const step = list[j]!;
      prefix += step.text;
      if (step.key !== null) {
        fixed.push(stepText(step.key));
      } else {
        if (!levelStarts.has(prefix)) levelStarts.set(prefix, j + 1);
        fixed.push(j + 1);
      }
    }
    let stack = -1;
    if (first >= 0) {
      const marker = `${prefix}..[*]`;
      stack = descendants.get(marker) ?? descendants.size;
      if (stack === descendants.size) {
        descendants.set(marker, stack);
        // A start and an end marker, each of the prefix's steps and `..[*]`.
        markerSteps += 2 * (first + 1);
      }
    }
    const own = first < 0 && list.length > 0;
    const key = own ? list[list.length - 1]!.key : null;
    templates.push({ fixed_: fixed, stack_: stack, own_: own, last_: key === null ? null : stepText(key) });
  }
  const ends = [...descendants.keys()];
  const starts = [...levelStarts.keys(), ...ends];
  const total = count + foreign + ends.length + starts.length;
  if (total > MAX_SELECTORS) {
    throw misuse(
      api,
      `${subject} needs ${total - count - foreign} marker selectors besides the paths' ${count + foreign}; at most ` +
        `${MAX_SELECTORS} in all`,
    );
  }
  if (descendantSteps + markerSteps > maxDescendantSteps) {
    throw misuse(
      api,
      `${subject} needs ${markerSteps} steps of markers with .. besides the paths' ${descendantSteps}; at most ` +
        `${maxDescendantSteps} in all`,
    );
  }
  // Selector indices: the native selectors, the end markers, the foreign end markers, the start markers.
  const levels = [...levelStarts.values()];
  const marker = { count, ends: ends.length, foreign, levels };
  return { ends_: ends, starts_: starts, make_: () => new PathTracker(templates, marker) };
}

/** @internal One parser's keys along the path, fed by the marker records of each call in order. */
export class PathTracker {
  /** Per depth, the key of the latest value a level start marker reported there. */
  private readonly keys_: Key[] = [];
  /** Per descendant marker, the values open beneath its prefix, outermost first. */
  private readonly stacks_: OpenValues[];
  private readonly templates_: readonly Template[];
  private readonly count_: number;
  private readonly ends_: number;
  private readonly foreign_: number;
  private readonly levels_: readonly number[];

  constructor(
    templates: readonly Template[],
    marker: {
      readonly count: number;
      readonly ends: number;
      readonly foreign: number;
      readonly levels: readonly number[];
    },
  ) {
    this.templates_ = templates;
    this.count_ = marker.count;
    this.ends_ = marker.ends;
    this.foreign_ = marker.foreign;
    this.levels_ = marker.levels;
    this.stacks_ = Array.from({ length: marker.ends }, () => new OpenValues());
  }

  /**
   * Reads the call's records in order: each match's normalized path at its index, null for a marker, which is
   * marked in `skip` (drop it before delivery).
   */
  read_(call: MatchRecords, skip: Uint8Array): (string | null)[] {
    const names: (string | null)[] = [];
    const count = this.count_;
    const ends = this.ends_;
    const levels = this.levels_.length;
    for (let i = 0; i < call.count_; i++) {
      const selector = call.path_(i);
      if (selector < count) {
        names.push(this.pathOf_(selector, call, i));
        continue;
      }
      skip[i] = 1;
      names.push(null);
      const m = selector - count;
      const start = m - ends - this.foreign_;
      if (m < ends) {
        this.stacks_[m]!.depth_--;
      } else if (start < 0) {
        // A held union's container end: match_order.ts reads it.
      } else if (start < levels) {
        this.keys_[this.levels_[start]!] = call.key_(i);
      } else {
        this.stacks_[start - levels]!.push_(i);
      }
    }
    // The records are valid until the next call: the keys of the values still open are read now.
    for (const stack of this.stacks_) stack.resolve_(call);
    return names;
  }

  private pathOf_(selector: number, call: MatchRecords, i: number): string {
    const template = this.templates_[selector]!;
    let path = '$';
    for (const step of template.fixed_) path += typeof step === 'string' ? step : stepText(this.keys_[step]!);
    if (template.own_) return path + (template.last_ ?? stepText(call.key_(i)!));
    // The root ($, or a value of NDJSON, whose key is its number) has no step.
    if (template.stack_ < 0) return path;
    const stack = this.stacks_[template.stack_]!;
    stack.resolve_(call);
    for (let d = 0; d < stack.depth_; d++) path += stepText(stack.keys_[d]!);
    return path;
  }
}

/**
 * The values open beneath a descendant marker's prefix. A key is read from its record only when a match needs it
 * or the call ends with its value open: most values (scalars) close in the call that opened them, unread.
 */
class OpenValues {
  readonly keys_: Key[] = [];
  /** Per open value, its record in this call whose key is not read yet, or -1. */
  private readonly records_: number[] = [];
  /** How many values are open; the arrays beyond hold stale entries. */
  depth_ = 0;
  /** The first entry whose key may be unread. */
  private unread_ = 0;

  push_(record: number): void {
    const d = this.depth_++;
    this.records_[d] = record;
    if (d < this.unread_) this.unread_ = d;
  }

  resolve_(call: MatchRecords): void {
    for (let d = this.unread_; d < this.depth_; d++) {
      if (this.records_[d]! >= 0) {
        this.keys_[d] = call.key_(this.records_[d]!);
        this.records_[d] = -1;
      }
    }
    this.unread_ = this.depth_;
  }
}
