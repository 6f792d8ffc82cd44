// The order and multiplicity of a call's matches beyond the native parser's. In arrival order, a node two
// selectors of one query select is delivered once (repeatsOf). In RFC 9535's order, a union whose selectors'
// matches arrive out of it (`$[*, 0]`, `$['b','a']`, `$.a[*]['id','name']`: lower.ts, HeldUnion): without `..`
// the matches in one container of the union arrive in document order and before the next container's, and the
// RFC's order is the union's selectors in turn, each in document order. So the first selector's matches are
// delivered as they arrive, the later ones' held until the container's end marker, then delivered selector by
// selector (UnionOrder). What is held is the later selectors' matches of one container, each within
// maxElementBytes (docs/paths.md, "Order").

/** @internal The queries' held unions (lower.ts, HeldUnion), as one parser holds them. */
export interface HeldUnions {
  /** The unions' containers: end markers, after options.withNormalizedPath's. */
  readonly containers: readonly string[];
  /** Per container, the union whose matches its end releases (the index of its query among the held). */
  readonly releases: readonly number[];
  /** Per native selector, the union it belongs to, or -1. */
  readonly unions: readonly number[];
  /** Per native selector, its stage in its union (0: delivered as it arrives). */
  readonly stages: readonly number[];
  /** Per union, its stages' last indices (lower.ts, HeldUnion), or null. */
  readonly lasts: readonly (readonly number[] | null)[];
}

/** @internal What repeatsOf reads of a call's records (CallResults; the command line's stream). */
interface RepeatRecords {
  readonly count_: number;
  path_(i: number): number;
  /** Where record i's node ends: the same for the records of one node. */
  end_(i: number): number;
}

/** @internal What UnionOrder reads of a call's records (CallResults; the command line's stream). */
interface UnionRecords {
  readonly count_: number;
  path_(i: number): number;
  key_(i: number): string | number | null;
}

/** @internal One parser's held matches. */
export class UnionOrder {
  private readonly unions_: HeldUnions;
  /** The first container marker's selector index: after the native selectors and normalized paths' end markers. */
  private readonly markers_: number;
  /** Per union, per stage, the matches held (stage 0 is never held). */
  private readonly held_: unknown[][][];
  /** Per union, in its current container: the stage delivered as it arrives; the stages before it are complete. */
  private readonly stage_: number[];
  /** Per union, the highest array index its current container has reported, or -1. */
  private readonly passed_: number[];

  constructor(unions: HeldUnions, markers: number) {
    this.unions_ = unions;
    this.markers_ = markers;
    const count = unions.lasts.length;
    this.held_ = Array.from({ length: count }, () => []);
    this.stage_ = new Array<number>(count).fill(0);
    this.passed_ = new Array<number>(count).fill(-1);
  }

  /**
   * Puts the call's items, `out[before..]` (one per record, markers included), in RFC order: a held stage's items
   * leave, a container's end marker brings back what its union holds; the records `skip` marks (other markers)
   * and the container markers are dropped.
   */
  order_<T>(call: UnionRecords, out: T[], before: number, skip: Uint8Array | null): T[] {
    const items = out.slice(before);
    out.length = before;
    const { releases, unions, stages } = this.unions_;
    const markers = this.markers_;
    for (let i = 0; i < items.length; i++) {
      const selector = call.path_(i);
      const container = selector - markers;
      if (container >= 0 && container < releases.length) {
        this.release_(releases[container]!, out);
      } else if (skip === null || skip[i] === 0) {
        const union = selector < unions.length ? unions[selector]! : -1;
        if (union < 0) {
          out.push(items[i]!);
          continue;
        }
        const stage = stages[selector]!;
        if (stage <= this.stage_[union]!) out.push(items[i]!);
        else ((this.held_[union]![stage] ??= []) as T[]).push(items[i]!);
        const lasts = this.unions_.lasts[union]!;
        if (lasts !== null) this.advance_(union, lasts, call.key_(i), out);
      }
    }
    return out;
  }

  /**
   * After a match of `union` at array index `key`: the stages whose last index it has passed are complete, and the
   * next one's held matches are delivered, now in order.
   */
  private advance_(union: number, lasts: readonly number[], key: string | number | null, out: unknown[]): void {
    if (typeof key !== 'number' || key <= this.passed_[union]!) return;
    this.passed_[union] = key;
    const held = this.held_[union]!;
    let stage = this.stage_[union]!;
    while (stage < lasts.length - 1 && lasts[stage]! <= key) {
      stage++;
      for (const item of held[stage] ?? []) out.push(item);
      held[stage] = [];
    }
    this.stage_[union] = stage;
  }

  /** The container of `union` ended: appends what it holds, stage by stage, and starts the next one. */
  private release_(union: number, out: unknown[]): void {
    const held = this.held_[union]!;
    for (const stage of held) if (stage !== undefined) for (const item of stage) out.push(item);
    held.length = 0;
    this.stage_[union] = 0;
    this.passed_[union] = -1;
  }
}

/**
 * @internal Which of the call's elements repeat the element before them: the same node (the same last byte: no two
 * nodes end at the same byte) selected by another native selector of the same query, which arrival order delivers
 * once. The native parser reports one node's selectors together, markers after them. Null when none does.
 */
export function repeatsOf(call: RepeatRecords, queries: readonly number[]): Uint8Array | null {
  let repeats: Uint8Array | null = null;
  for (let i = 1; i < call.count_; i++) {
    const query = queries[call.path_(i)];
    // A marker (a selector past `queries`) repeats nothing.
    if (query !== undefined && call.end_(i) === call.end_(i - 1) && query === queries[call.path_(i - 1)]) {
      repeats ??= new Uint8Array(call.count_);
      repeats[i] = 1;
    }
  }
  return repeats;
}

/** @internal `out` without the elements `repeats` marks (repeats, markers) among the call's, from `out[before]`. */
export function dropRepeats<T>(out: T[] | undefined, before: number, repeats: Uint8Array): T[] | undefined {
  if (out === undefined) return out;
  let kept = before;
  for (let i = before; i < out.length; i++) if (repeats[i - before] === 0) out[kept++] = out[i]!;
  out.length = kept;
  return out;
}
