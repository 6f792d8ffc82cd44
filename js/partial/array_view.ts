// Read-only views of long arrays that are still growing. A plain array snapshot costs a copy of every element each
// time the array changes, so a long array that grows one element per push would cost O(length) per token and
// O(length²) in all. A view costs O(1): it shares the parser's append-only store and keeps its own length and its
// own last element (the only slot a later push may replace). docs/partial.md measures the trade-off: reading an
// element through a view costs a proxy trap, many times a plain read.
//
// Elements below a view's last one are final when the view is made (an element only starts after the previous one
// ended) and the store is only appended to or has its last slot replaced, so they never change under the view.

/**
 * @internal Reading this key of a view gives its handler (a ViewState): isComplete() asks it whether the container
 * closed. Module-private, so no reader of a snapshot sees it (ownKeys lists strings only).
 */
export const PARTIAL_VIEW_STATE: unique symbol = Symbol('sluice.partial.view');

/** @internal What a view's handler says of its container. */
export interface ViewState {
  /** The container closed: the view is its final value (set by tree.ts, whose close() may keep an open view). */
  final_: boolean;
  /** Objects: the key of the member being written when the view was made, or null (arrays: the last element). */
  pendingKey_(): string | null;
}

/** @internal The error of every write into a view. */
export function readOnly(key: string | symbol): TypeError {
  return new TypeError(`sluice: a partial JSON snapshot is read-only (cannot change ${String(key)})`);
}

/** A canonical array index ("0", "17", never "017" or "-1") below `length`, or -1. */
function indexBelow(key: string, length: number): number {
  const n = key.length;
  if (n === 0 || n > 10) return -1;
  let value = key.charCodeAt(0) - 48;
  if (value < 0 || value > 9 || (value === 0 && n > 1)) return -1;
  for (let i = 1; i < n; i++) {
    const digit = key.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value < length ? value : -1;
}

/**
 * Node's util.inspect (console.log) formats a proxy's target without running any trap, which would print `[]`. The
 * shared target inherits Node's custom-inspect hook, which Node calls with the proxy as `this`; the proxy reports
 * Array.prototype as its prototype, so nothing JSON-like sees the hook.
 */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');
const INSPECTABLE = Object.create(Array.prototype, {
  [INSPECT]: {
    value: function inspectView(this: unknown[]) {
      return Array.from(this);
    },
    configurable: true,
  },
}) as object;
// Every view shares this target: the traps never let anything change it, and Array.isArray() sees an array.
const TARGET: unknown[] = [];
Object.setPrototypeOf(TARGET, INSPECTABLE);

class ViewHandler implements ProxyHandler<unknown[]>, ViewState {
  private readonly store_: readonly unknown[];
  private readonly length_: number;
  private readonly last_: unknown;
  final_ = false;

  constructor(store: readonly unknown[], length: number, last: unknown) {
    this.store_ = store;
    this.length_ = length;
    this.last_ = last;
  }

  private at_(index: number): unknown {
    return index === this.length_ - 1 ? resolved(this.last_) : this.store_[index];
  }

  pendingKey_(): string | null {
    return null;
  }

  get(target: unknown[], key: string | symbol, receiver: unknown): unknown {
    if (typeof key === 'string') {
      if (key === 'length') return this.length_;
      const index = indexBelow(key, this.length_);
      if (index >= 0) return this.at_(index);
    } else if (key === PARTIAL_VIEW_STATE) return this;
    return Reflect.get(target, key, receiver);
  }

  has(target: unknown[], key: string | symbol): boolean {
    if (typeof key === 'string' && indexBelow(key, this.length_) >= 0) return true;
    return Reflect.has(target, key);
  }

  ownKeys(): (string | symbol)[] {
    const keys: string[] = [];
    for (let i = 0; i < this.length_; i++) keys.push(String(i));
    keys.push('length');
    return keys;
  }

  getOwnPropertyDescriptor(_target: unknown[], key: string | symbol): PropertyDescriptor | undefined {
    if (typeof key !== 'string') return undefined;
    // The target's own `length` is non-configurable and writable: the invariants let a proxy report it with another
    // value only in that form.
    if (key === 'length') return { value: this.length_, writable: true, enumerable: false, configurable: false };
    const index = indexBelow(key, this.length_);
    if (index < 0) return undefined;
    return { value: this.at_(index), writable: false, enumerable: true, configurable: true };
  }

  getPrototypeOf(): object {
    return Array.prototype;
  }

  set(_target: unknown[], key: string | symbol): boolean {
    throw readOnly(key);
  }

  defineProperty(_target: unknown[], key: string | symbol): boolean {
    throw readOnly(key);
  }

  deleteProperty(_target: unknown[], key: string | symbol): boolean {
    throw readOnly(key);
  }

  setPrototypeOf(): boolean {
    throw readOnly('the prototype');
  }

  preventExtensions(): boolean {
    throw readOnly('the extensibility');
  }
}

/** @internal A read-only array of `store[0 .. length - 2]` followed by `last`, sharing `store`. O(1). */
export function arrayView(store: readonly unknown[], length: number, last: unknown): unknown[] {
  return new Proxy(TARGET, new ViewHandler(store, length, last));
}

/**
 * @internal A container's snapshot made when first read, then kept: that of a container nested deeper than
 * treeTuning.lazyDepth (js/partial/deep.ts), so that a push deep down does not copy every level above it.
 */
export abstract class Lazy {
  /** The view, made once (the snapshot it is part of keeps it). */
  abstract get(): unknown;
}

/** A slot's value as a view shows it. */
export function resolved(value: unknown): unknown {
  return value instanceof Lazy ? value.get() : value;
}
