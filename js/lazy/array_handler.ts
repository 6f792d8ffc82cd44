// The proxy handler of a lazyParse() array: index reads, and the read-ahead of arrays: elements read in order come
// in batches that grow 4x at each step, whole records too once the latest one that stayed lazy was read at least
// half, and an inner array read densely is parsed whole in runs (wholeArray).
import { ContainerHandler, arrayIndex } from './container_handler.js';
import { BULK_MAX_BYTES, MAX_GROUP, lazyTuning } from './lazy_tuning.js';
import {
  CHILD_CONTAINER,
  CHILD_FIRST_BYTE,
  CHILD_VALUE_END,
  CHILD_VALUE_START,
  CHILD_WORDS,
  NO_CONTAINER,
} from './lazy_contract.js';
import { proxyOf } from './proxy_target.js';

const OPEN_BRACKET = 0x5b;

/** @internal */
export class ArrayHandler extends ContainerHandler implements ProxyHandler<unknown[]> {
  readonly isArray = true;
  /** rows(): 1 yes, 0 no, -1 not known yet. */
  private allContainers_ = -1;
  /** The latest element materialised here (not counting cache hits). */
  private last_ = -1;
  /** Where the current read-ahead run ends (elements before it were batched or left lazy), and its size. */
  private nextInOrder_ = -1;
  private group_ = 1;
  /** The handler of the latest element that became a proxy. */
  private recent_: ContainerHandler | null = null;

  protected override adopt_(handler: ContainerHandler): void {
    this.recent_ = handler;
  }

  protected override rows(): boolean {
    if (this.allContainers_ < 0) {
      const u32 = this.table;
      let all = 1;
      for (let i = 0; i < this.count; i++) {
        if (u32[i * CHILD_WORDS + CHILD_CONTAINER] === NO_CONTAINER) {
          all = 0;
          break;
        }
      }
      this.allContainers_ = all;
    }
    return this.allContainers_ === 1;
  }

  /** Containers up to this long are parsed with a read-ahead run that is not dense. */
  private plainMax_(): number {
    const min = lazyTuning.proxyMinBytes;
    const row = lazyTuning.rowProxyMinBytes;
    return (row < min && this.rows() ? row : min) - 1;
  }

  spine_(): object | undefined {
    const values = this.spineMembers_();
    return values === undefined ? undefined : Object.freeze(values);
  }

  protected materialise_(i: number): unknown {
    // In order: the element after the latest one read here, or within or just after the latest read-ahead run
    // (the elements of the run that were batched are cache hits that never come here).
    const inOrder = i > this.last_ && i <= this.nextInOrder_;
    this.last_ = i;
    if (!inOrder) {
      this.group_ = 1;
      this.nextInOrder_ = i + 1;
      return this.single(i, false);
    }
    // Elements read in order are records; how much of each gets read is told by the latest one that stayed lazy:
    // if at least half of its members were read, the next ones are parsed whole with their neighbours (a proxy
    // costs every later access far more than parsing a record that is read anyway).
    const recent = this.recent_;
    const dense = recent !== null && recent.touched_ * 2 >= recent.count && recent.count > 0;
    if (i >= this.nextInOrder_) {
      this.group_ = Math.min(this.group_ * 4, MAX_GROUP);
      const maxPlain = dense ? BULK_MAX_BYTES : this.plainMax_();
      const to = this.runEnd_(i, Math.min(this.count, i + this.group_), maxPlain);
      // A run of elements that all stay lazy (records over maxPlain) has nothing to batch: no native call for it.
      if (this.runPlain_) this.batch(i, to, maxPlain);
      this.nextInOrder_ = to;
    }
    const value = this.cache[i];
    if (value !== undefined) return value;
    if (dense) {
      const whole = this.wholeArray_(i);
      if (whole !== undefined) return whole;
    }
    return this.single(i, false);
  }

  /**
   * Element i, an array too long for a batch, parsed whole in runs when it is read densely (see materialise) and
   * none of its own elements would become a proxy: then reading it through a proxy would only add a trap per
   * access to the same parsing. Undefined when it is not such an array (it then becomes a proxy, enumerated once).
   */
  private wholeArray_(i: number): unknown {
    const u32 = this.table;
    const record = i * CHILD_WORDS;
    const container = u32[record + CHILD_CONTAINER]!;
    if (container === NO_CONTAINER || u32[record + CHILD_FIRST_BYTE] !== OPEN_BRACKET) return undefined;
    const handler = new ArrayHandler(this.doc_, container);
    const whole = handler.plainElements_();
    if (whole === undefined) {
      // Enumerated already: the proxy reuses the table.
      this.adopt_(handler);
      const proxy = proxyOf(handler);
      this.cache[i] = proxy;
      this.touched_++;
      return proxy;
    }
    this.cache[i] = whole;
    this.touched_++;
    return whole;
  }

  /** Every element as a plain array, parsed in runs; undefined when one of them would be a proxy, or is broken. */
  private plainElements_(): unknown[] | undefined {
    this.enumerate();
    const count = this.count;
    const maxPlain = this.plainMax_();
    const u32 = this.table;
    for (let i = 0; i < count; i++) {
      const record = i * CHILD_WORDS;
      if (
        u32[record + CHILD_CONTAINER] !== NO_CONTAINER &&
        u32[record + CHILD_VALUE_END]! - u32[record + CHILD_VALUE_START]! > maxPlain
      )
        return undefined;
    }
    const runs: unknown[][] = [];
    for (let from = 0; from < count; ) {
      const to = this.runEnd_(from, count, maxPlain);
      // A broken element: the array becomes a proxy instead, where only reading that element throws.
      const run = this.valuesOrBroken_(from, to, maxPlain);
      if (run === undefined) return undefined;
      runs.push(run);
      from = to;
    }
    if (runs.length <= 1) return runs[0] ?? [];
    // One concat of every run: the engine copies packed element stores in bulk.
    return runs[0]!.concat(...runs.slice(1));
  }

  get(target: unknown[], key: string | symbol, receiver: unknown): unknown {
    if (key === this.lastKey_) return this.lastValue_;
    if (typeof key === 'string') {
      const i = arrayIndex(key);
      if (i >= 0) {
        // An element read before (the cache is empty until enumerated, and as long as the array).
        const value = this.cache[i];
        if (value !== undefined) return this.remember_(key, value);
        this.enumerate();
        if (i < this.count) return this.remember_(key, this.child(i));
      } else if (key === 'length') {
        this.enumerate();
        return this.count;
      }
    }
    return Reflect.get(target, key, receiver);
  }

  has(target: unknown[], key: string | symbol): boolean {
    if (typeof key === 'string') {
      const i = arrayIndex(key);
      if (i >= 0) {
        this.enumerate();
        if (i < this.count) return true;
      }
    }
    return Reflect.has(target, key);
  }

  getPrototypeOf(): object {
    return Array.prototype;
  }

  ownKeys(): ArrayLike<string | symbol> {
    this.enumerate();
    const keys = new Array<string>(this.count + 1);
    for (let i = 0; i < this.count; i++) keys[i] = String(i);
    keys[this.count] = 'length';
    return keys;
  }

  getOwnPropertyDescriptor(_target: unknown[], key: string | symbol): PropertyDescriptor | undefined {
    if (typeof key !== 'string') return undefined;
    this.enumerate();
    if (key === 'length') {
      // The target's own `length` is non-configurable, so this one must say so too (a proxy invariant).
      return { value: this.count, writable: true, enumerable: false, configurable: false };
    }
    const i = arrayIndex(key);
    if (i < 0 || i >= this.count) return undefined;
    return { value: this.child(i), writable: true, enumerable: true, configurable: true };
  }
}
