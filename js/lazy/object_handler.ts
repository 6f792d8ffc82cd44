// The proxy handler of a lazyParse() object: key lookups (natively while they are few, then in a Map of every
// decoded key), JSON.parse's key order, and the read-ahead of objects: all members in batches once max(3, count/8)
// distinct members were read one by one.
import { ContainerHandler, arrayIndex } from './container_handler.js';
import { BULK_MAX_BYTES, lazyTuning } from './lazy_tuning.js';
import { CHILD_VALUE_END, CHILD_VALUE_START, CHILD_WORDS } from './lazy_contract.js';

/** @internal */
export class ObjectHandler extends ContainerHandler implements ProxyHandler<object> {
  readonly isArray = false;
  /** key -> index of its last member, -1 when absent. Complete once `ordered` is set. */
  private lookup_ = new Map<string, number>();
  /** The own keys in JSON.parse's order: array indices ascending, then the rest by first appearance. */
  private ordered_: string[] | null = null;
  private finds_ = 0;
  private misses_ = 0;
  private bulked_ = false;
  /** Members hidden by a later duplicate key, not checked yet (see ownKeys). */
  private shadowed_: number[] | null = null;

  private indexOf_(key: string): number {
    const known = this.lookup_.get(key);
    if (known !== undefined) return known;
    if (this.ordered_ !== null) return -1;
    const limit = lazyTuning.findLimit;
    if (++this.finds_ > limit && this.count > limit) {
      this.decodeKeys_();
      return this.lookup_.get(key) ?? -1;
    }
    // The object is listed by its first lookup (one native call), then searched in its member table.
    this.enumerate();
    const i = this.doc_.find(this.table, key);
    this.lookup_.set(key, i);
    return i;
  }

  private decodeKeys_(): string[] {
    if (this.ordered_ !== null) return this.ordered_;
    this.enumerate();
    const keys = this.count === 0 ? [] : this.doc_.keys(this.table);
    const lookup = new Map<string, number>();
    const indices: string[] = [];
    const names: string[] = [];
    let shadowed: number[] | null = null;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const earlier = lookup.get(key);
      if (earlier === undefined) {
        (arrayIndex(key) >= 0 ? indices : names).push(key);
      } else {
        shadowed ??= [];
        shadowed.push(earlier);
      }
      lookup.set(key, i);
    }
    if (indices.length > 1) indices.sort((a, b) => Number(a) - Number(b));
    this.shadowed_ = shadowed;
    this.lookup_ = lookup;
    this.ordered_ = indices.length === 0 ? names : indices.concat(names);
    return this.ordered_;
  }

  spine_(): object | undefined {
    const values = this.spineMembers_();
    if (values === undefined) return undefined;
    // ownKeys checks the members a later duplicate key hides, as JSON.parse does (those that are proxies above
    // were not read). A broken one throws here: spineOf then hands out a proxy, whose own reads say what is wrong.
    const keys = this.ownKeys() as string[];
    const lookup = this.lookup_;
    const out: Record<string, unknown> = {};
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      const value = values[lookup.get(key)!];
      if (key === '__proto__') {
        Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
      } else {
        out[key] = value;
      }
    }
    return Object.freeze(out);
  }

  protected materialise_(i: number): unknown {
    if (!this.bulked_ && ++this.misses_ >= Math.max(3, this.count >> 3)) {
      this.bulked_ = true;
      for (let from = 0; from < this.count; ) {
        const to = this.runEnd_(from, this.count, BULK_MAX_BYTES);
        this.batch(from, to, BULK_MAX_BYTES);
        from = to;
      }
      const value = this.cache[i];
      if (value !== undefined) return value;
    }
    return this.single(i);
  }

  get(target: object, key: string | symbol, receiver: unknown): unknown {
    if (key === this.lastKey_) return this.lastValue_;
    if (typeof key === 'string') {
      // A member read before: two lookups, no call (every read from the root passes here for each level).
      const known = this.lookup_.get(key);
      if (known !== undefined && known >= 0) {
        const value = this.cache[known];
        if (value !== undefined) return this.remember_(key, value);
      }
      const i = this.indexOf_(key);
      if (i >= 0) return this.remember_(key, this.child(i));
    }
    return Reflect.get(target, key, receiver);
  }

  has(target: object, key: string | symbol): boolean {
    if (typeof key === 'string' && this.indexOf_(key) >= 0) return true;
    return Reflect.has(target, key);
  }

  getPrototypeOf(): object {
    return Object.prototype;
  }

  ownKeys(): ArrayLike<string | symbol> {
    const keys = this.decodeKeys_();
    const shadowed = this.shadowed_;
    if (shadowed !== null) {
      // No read reaches a member a later duplicate key hides, but JSON.parse checks it: listing the keys does, so
      // that reading a document whole (JSON.stringify, a deep copy) still rejects every invalid one.
      const table = this.table;
      for (const i of shadowed) {
        const record = i * CHILD_WORDS;
        this.doc_.validate(table[record + CHILD_VALUE_START]!, table[record + CHILD_VALUE_END]!);
      }
      this.shadowed_ = null;
    }
    return keys;
  }

  getOwnPropertyDescriptor(_target: object, key: string | symbol): PropertyDescriptor | undefined {
    if (typeof key !== 'string') return undefined;
    const i = this.indexOf_(key);
    if (i < 0) return undefined;
    return { value: this.child(i), writable: true, enumerable: true, configurable: true };
  }
}
