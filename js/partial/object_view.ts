// Read-only views of wide objects that are still open. A plain snapshot of an object copies every member each time
// the object changes, so an object that grows one member per push would cost O(members) per push and O(members²)
// in all (issue 29). A view costs O(1): it shares the parser's member store (keys and values in the order they came)
// and keeps its own member count and its own value of the member being written (the only slot a later push may
// replace). Like the array views (array_view.ts), a view reads like the plain object JSON.parse makes of the same
// members: Object.keys, Object.entries, JSON.stringify, `in`, spread, for...in, Object.getPrototypeOf; writes throw.
//
// The members before a view's count are final when it is made, but for the one being written: a member ends before
// the next key starts, and a key written again (a duplicate, which replaces the earlier value as in JSON.parse) that
// is not the member just written gets a new store (MemberStore.rewrite()), so an old store is never written again.
import { readOnly, resolved, PARTIAL_VIEW_STATE, type ViewState } from './array_view.js';

/** An open object's members, in the order their keys came; appended to, and only the member being written changes. */
export class MemberStore {
  readonly keys: string[];
  readonly values: unknown[];
  /**
   * Where each key is in keys and values, made once the store has more than LINEAR_KEYS keys: a deep object (deep.ts)
   * has a store from its first member, and most have a few, which a scan finds as fast as a Map would, without one.
   */
  private slots_: Map<string, number> | null = null;

  constructor(keys: string[], values: unknown[]) {
    this.keys = keys;
    this.values = values;
    if (keys.length > LINEAR_KEYS) this.index_();
  }

  /** From an object's own members (a plain state turning into a store). O(members), once per object. */
  static of(members: Record<string, unknown>): MemberStore {
    const keys = Object.keys(members);
    return new MemberStore(
      keys,
      keys.map((key) => members[key]),
    );
  }

  /** The slot of `key`, or -1. */
  find(key: string): number {
    const slots = this.slots_;
    if (slots !== null) return slots.get(key) ?? -1;
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) if (keys[i] === key) return i;
    return -1;
  }

  /** Appends a member whose key is not in the store yet; returns its slot. */
  add(key: string, value: unknown): number {
    const slot = this.keys.length;
    this.keys.push(key);
    this.values.push(value);
    if (this.slots_ !== null) this.slots_.set(key, slot);
    else if (slot >= LINEAR_KEYS) this.index_();
    return slot;
  }

  /** A copy to write into, when a key comes again: the views of this one keep showing what they showed. */
  rewrite_(): MemberStore {
    return new MemberStore(this.keys.slice(), this.values.slice());
  }

  private index_(): void {
    const slots = new Map<string, number>();
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) slots.set(keys[i]!, i);
    this.slots_ = slots;
  }
}

/** Stores of at most this many keys find a key by a scan (MemberStore.find). */
const LINEAR_KEYS = 8;

/** Whether a key is an array index ("0", "17"), which plain objects list first, in numeric order. */
function isIndex(key: string): boolean {
  const n = key.length;
  if (n === 0 || n > 10) return false;
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57 || (first === 48 && n > 1)) return false;
  for (let i = 1; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return +key < 4294967295;
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');
// Node's util.inspect formats a proxy's target without running a trap: the shared target inherits a hook that
// Node calls with the proxy as `this` (the proxy reports Object.prototype as its prototype: nothing else sees it).
const INSPECTABLE = Object.create(Object.prototype, {
  [INSPECT]: {
    value: function inspectView(this: object) {
      return Object.fromEntries(Object.entries(this));
    },
    configurable: true,
  },
}) as object;
const TARGET: object = Object.create(INSPECTABLE) as object;

class ObjectViewHandler implements ProxyHandler<object>, ViewState {
  private readonly store_: MemberStore;
  private readonly count_: number;
  /** The slot of the member being written (its value may change in the store later), or -1. */
  private readonly current_: number;
  private readonly value_: unknown;
  final_ = false;

  constructor(store: MemberStore, count: number, current: number, value: unknown) {
    this.store_ = store;
    this.count_ = count;
    this.current_ = current;
    this.value_ = value;
  }

  /** The member's slot, or -1. */
  private slot_(key: string | symbol): number {
    if (typeof key !== 'string') return -1;
    const slot = this.store_.find(key);
    return slot < this.count_ ? slot : -1;
  }

  private at_(slot: number): unknown {
    return slot === this.current_ ? resolved(this.value_) : this.store_.values[slot];
  }

  pendingKey_(): string | null {
    return this.current_ >= 0 ? this.store_.keys[this.current_]! : null;
  }

  get(target: object, key: string | symbol, receiver: unknown): unknown {
    if (key === PARTIAL_VIEW_STATE) return this;
    const slot = this.slot_(key);
    return slot >= 0 ? this.at_(slot) : Reflect.get(target, key, receiver);
  }

  has(target: object, key: string | symbol): boolean {
    return this.slot_(key) >= 0 || (key !== INSPECT && Reflect.has(target, key));
  }

  ownKeys(): string[] {
    // A plain object's order: array indices first, ascending, then the other keys in the order they came.
    const keys = this.store_.keys;
    const indices: string[] = [];
    const others: string[] = [];
    for (let i = 0; i < this.count_; i++) (isIndex(keys[i]!) ? indices : others).push(keys[i]!);
    if (indices.length === 0) return others;
    indices.sort((a, b) => +a - +b);
    return indices.concat(others);
  }

  getOwnPropertyDescriptor(_target: object, key: string | symbol): PropertyDescriptor | undefined {
    const slot = this.slot_(key);
    if (slot < 0) return undefined;
    return { value: this.at_(slot), writable: false, enumerable: true, configurable: true };
  }

  getPrototypeOf(): object {
    return Object.prototype;
  }

  set(_target: object, key: string | symbol): boolean {
    throw readOnly(key);
  }

  defineProperty(_target: object, key: string | symbol): boolean {
    throw readOnly(key);
  }

  deleteProperty(_target: object, key: string | symbol): boolean {
    throw readOnly(key);
  }

  setPrototypeOf(): boolean {
    throw readOnly('the prototype');
  }

  preventExtensions(): boolean {
    throw readOnly('the extensibility');
  }
}

/**
 * @internal A read-only object of the first `count` members of `store`, the one at slot `current` (or none: -1)
 * showing `value`, sharing `store`. O(1).
 */
export function objectView(store: MemberStore, count: number, current: number, value: unknown): object {
  return new Proxy(TARGET, new ObjectViewHandler(store, count, current, value));
}

/** Sets an own data property, also for `__proto__` (which assignment would take as the prototype). */
export function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}
