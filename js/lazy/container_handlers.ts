// The proxies of lazyParse(): an object or array of the document that reads like the JSON.parse result and
// materialises members only when they are touched.
//
// A container's members are enumerated natively on first use (one call; the table stays in wasm memory). Each
// member is materialised once and cached, so identity holds (`doc.a === doc.a`). How:
// - a small container, a string or a number: JSON.parse of its bytes; a long container (proxyMinBytes and up):
//   another proxy, enumerated when it is touched in turn;
// - runs of members in one batch (one decode, one JSON.parse for many) once reading looks dense: an array read in
//   order gets read-ahead runs that grow 4x at each step (whole records too, up to BULK_MAX_BYTES, once the latest
//   record that stayed lazy was read at least half); an object gets all its members at once after
//   max(3, count/8) distinct misses. Sparse reading never pays for its neighbours.
// - a long member of an object with few members, one long, and little other text: a frozen plain object or array
//   (spineOf).
// Proxies are read-only: every write traps with a TypeError, in sloppy mode too; spines are frozen.
import { JsonLimitError, JsonSyntaxError } from '../errors.js';
import {
  CHILD_CONTAINER, CHILD_FIRST_BYTE, CHILD_VALUE_END, CHILD_VALUE_START, CHILD_WORDS, NO_CONTAINER,
} from './native_lazy.js';
import type { LazyDocument } from './lazy_document.js';

/**
 * The thresholds that decide between a proxy and a parse, and between native lookups and a key
 * map. Mutable for the tests only: tiny values make small random documents take the proxy, batching and map
 * paths that real documents take.
 */
export const lazyTuning = {
  /** Containers this long and longer become proxies when read one by one; shorter ones are parsed at once. */
  proxyMinBytes: 1024,
  /**
   * The same for the elements of an array whose elements are all objects or arrays (rows, records, polygon
   * rings): listing such an array costs little (its members come from the container table), and a reader that
   * touches one member of each row pays for a row parsed whole far more than for a proxy. Reading rows densely in
   * order parses them whole anyway (ArrayHandler.materialise).
   */
  rowProxyMinBytes: 256,
  /** Native key lookups before an object decodes all its keys into a Map instead. */
  findLimit: 16,
  /**
   * A member of an object that would become a proxy but has at most this many members, at most one of them long
   * (a proxy), and at most proxyMinBytes / 8 bytes of text in the others, is handed out as a frozen plain object or
   * array instead: a "spine" (see spineOf). 0 turns spines off.
   */
  spineMaxMembers: 8,
};
/**
 * When an object is read densely, its member containers up to this long are parsed with their neighbours
 * instead. (An array read in order keeps long elements lazy: reading records one after the other says nothing
 * about how much of each record is read.)
 */
const BULK_MAX_BYTES = 32 * 1024;
/**
 * Text per batch. Bounds what a read-ahead may waste, and keeps the decoded string out of V8's large-object space
 * (over 128 KiB, or 64 Ki two-byte characters), whose fresh pages cost far more than the decoding.
 */
const RUN_MAX_BYTES = 48 * 1024;
/** Array read-ahead stops growing here (members per batch). */
const MAX_GROUP = 4096;

const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

function readOnly(key: string | symbol): TypeError {
  return new TypeError(`sluice: a lazyParse() document is read-only (cannot change ${String(key)})`);
}

/** A canonical array index ("0", "17", never "017" or "-1"), or -1. */
export function arrayIndex(key: string): number {
  const n = key.length;
  if (n === 0 || n > 10) return -1;
  let c = key.charCodeAt(0) - 48;
  if (c < 0 || c > 9 || (c === 0 && n > 1)) return -1;
  let value = c;
  for (let i = 1; i < n; i++) {
    c = key.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value < 4294967295 ? value : -1;
}

/**
 * One object proxy and one array proxy (their handlers and targets) that no document uses, kept for the life of the
 * module. V8's optimised code for the proxies refers to the hidden classes of these objects, and of the documents,
 * weakly: once a document and everything taken from it is collected, the classes can be too, and every function
 * optimised with them is then thrown away at that garbage collection ("weak objects") and optimised again during
 * the next document. A program reading one document after another (a server, the bench's warm reads) paid for it
 * on every document: canada.json 1 % took 10-15 ms per document instead of about 3.3 ms. Objects of the same
 * classes that stay alive keep the classes, and so the optimised code.
 */
let shapeKeepers: object[] | null = null;

/** @internal Creates the shape keepers, once, around the document `make` returns (one without native memory). */
export function keepShapes(make: () => LazyDocument): void {
  if (shapeKeepers !== null) return;
  const doc = make();
  shapeKeepers = [proxyOf(new ObjectHandler(doc, 0)), proxyOf(new ArrayHandler(doc, 0))];
}

/** @internal The proxy for container `id` of `doc` whose first byte is `first`. */
export function lazyContainer(doc: LazyDocument, id: number, first: number): object {
  return proxyOf(newHandler(doc, id, first));
}

function newHandler(doc: LazyDocument, id: number, first: number): ObjectHandler | ArrayHandler {
  return first === OPEN_BRACE ? new ObjectHandler(doc, id) : new ArrayHandler(doc, id);
}

/**
 * Node's util.inspect (console.log) formats a proxy's target without running any trap, which would print `{}` or
 * `[]`. The target inherits Node's custom-inspect hook instead, which Node calls with the proxy as `this`: a
 * snapshot of the members, lazy ones still proxies (inspected the same way, to inspect's depth). It lives on a
 * prototype of the target that the proxy never reports (getPrototypeOf answers Object.prototype or
 * Array.prototype, which the invariants allow for an extensible target), so no JSON.parse-like read sees it, and
 * making a proxy costs no property definition.
 */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

function inspectMembers(this: object): unknown {
  return Array.isArray(this) ? Array.from(this as unknown[]) : Object.fromEntries(Object.entries(this));
}

const hook = { [INSPECT]: { value: inspectMembers, configurable: true } };
const OBJECT_TARGET = Object.create(Object.prototype, hook) as object;
const ARRAY_TARGET = Object.create(Array.prototype, hook) as object;

function proxyOf(handler: ObjectHandler | ArrayHandler): object {
  let target: object;
  if (handler instanceof ObjectHandler) {
    target = Object.create(OBJECT_TARGET) as object;
  } else {
    target = [];
    Object.setPrototypeOf(target, ARRAY_TARGET);
  }
  return new Proxy(target, handler as ProxyHandler<object>);
}

/**
 * The container of `handler` as a frozen plain object or array when it has at most spineMaxMembers members, one
 * long one at most (a proxy), and little other text: the spine of a document that every read from the root
 * passes, such as canada.json's `features` and `features[0].geometry`. Reading a property of a plain
 * object costs the engine an inline-cached load; reading it through a proxy costs a trap, a handler call and the
 * proxy invariant checks, several times more, at every level of every path. Undefined when the container does not
 * qualify, or cannot be listed or materialised (broken text): it is then a proxy, and reading it says what is wrong.
 * A container that passes the container-table filter is listed here rather than by its first read: a container
 * handed out is read next, in practice, so the listing is not wasted.
 */
function spineOf(handler: ObjectHandler | ArrayHandler): object | undefined {
  const max = lazyTuning.spineMaxMembers;
  if (max <= 0) return undefined;
  // Most containers are no spine, and the container table tells most of them apart without listing them (a
  // listing that moves to hand-out costs two native calls where a proxy's first read makes one; citm_catalog.json
  // 1 % took 0.1 to 0.3 ms longer). Keys, separators and whitespace count in the text here: up to 64 bytes a member.
  if (!handler.spineShape(max, (lazyTuning.proxyMinBytes >> 3) + max * 64)) return undefined;
  try {
    handler.enumerate();
    if (handler.count > max) return undefined;
    return handler.spine();
  } catch (error) {
    if (error instanceof JsonSyntaxError || error instanceof JsonLimitError) return undefined;
    throw error;
  }
}

abstract class ContainerHandler {
  protected readonly doc: LazyDocument;
  protected readonly id: number;
  /** Address of the member table; valid once count >= 0. */
  protected table = 0;
  /** Members; -1 until enumerated. */
  count = -1;
  /** Materialised members (undefined: not yet; JSON has no undefined). */
  protected cache: unknown[] = [];
  /** How many members are materialised: tells a parent array how densely its elements get read. */
  touched = 0;
  /** Whether the latest runEnd() run has a member that is parsed with it (one that does not stay lazy). */
  protected runPlain = false;
  /**
   * The member the latest get() returned, by its key: reads from the root pass the same key at a level again and
   * again (`doc.features[0].geometry.coordinates[i]` for every i), and comparing a property key with the last one
   * is far cheaper than a Map lookup or parsing an index (keys are internalised strings). Values never change once
   * materialised, so the pair stays right.
   */
  protected lastKey: string | null = null;
  protected lastValue: unknown = undefined;

  constructor(doc: LazyDocument, id: number) {
    this.doc = doc;
    this.id = id;
  }

  enumerate(): void {
    if (this.count >= 0) return;
    const count: [number] = [0];
    this.listed(this.doc.children(this.id, count), count[0]);
  }

  /** The member table is known (enumerate(), or a lookup that listed the object). */
  protected listed(table: number, count: number): void {
    this.table = table;
    this.count = count;
    this.cache = new Array<unknown>(count);
  }

  protected remember(key: string, value: unknown): unknown {
    this.lastKey = key;
    this.lastValue = value;
    return value;
  }

  protected child(i: number): unknown {
    const value = this.cache[i];
    if (value !== undefined) return value;
    // The member table lives in the document's native memory: gone after releaseLazy().
    this.doc.assertLive();
    return this.materialise(i);
  }

  protected abstract materialise(i: number): unknown;

  /** Whether the container table allows a spine (LazyDocument.spineShape), before listing it. */
  spineShape(max: number, restMax: number): boolean {
    const longMin = Math.min(lazyTuning.proxyMinBytes, lazyTuning.rowProxyMinBytes);
    return this.doc.spineShape(this.id, max, longMin, restMax);
  }

  /** The frozen plain object or array of spineOf (the container is listed), or undefined (too much own text). */
  abstract spine(): object | undefined;

  /**
   * Every member materialised for a spine, its long container as a proxy (not a spine: building a chain of them
   * would list containers nobody reads); undefined when the others hold more than proxyMinBytes / 8 bytes of text,
   * or when more than one member is long: a container that branches is where sparse reads part ways, and a spine
   * there would make a proxy for every branch where a read takes one (citm_catalog.json read at 1 % took three
   * times as long).
   */
  protected spineMembers(): unknown[] | undefined {
    const runtime = this.doc.binding.runtime;
    runtime.sync();
    const u32 = runtime.u32;
    const count = this.count;
    let text = 0;
    let long = 0;
    for (let i = 0; i < count; i++) {
      const record = (this.table >>> 2) + i * CHILD_WORDS;
      const size = u32[record + CHILD_VALUE_END]! - u32[record + CHILD_VALUE_START]!;
      if (u32[record + CHILD_CONTAINER] === NO_CONTAINER || size < this.proxyMin(size)) text += size;
      else long++;
    }
    if (text > lazyTuning.proxyMinBytes >> 3 || long > 1) return undefined;
    const values: unknown[] = [];
    for (let i = 0; i < count; i++) values.push(this.cache[i] ?? this.single(i, false));
    return values;
  }

  /**
   * The size from which a member container becomes a proxy: proxyMinBytes, or rowProxyMinBytes for the
   * elements of an array of containers (asked only about a member at least that long).
   */
  protected proxyMin(size: number): number {
    const min = lazyTuning.proxyMinBytes;
    const row = lazyTuning.rowProxyMinBytes;
    return size >= min || size < row ? min : this.rows() ? row : min;
  }

  /** Whether every member is an object or an array (false for objects). */
  protected rows(): boolean {
    return false;
  }

  /** A member just became a proxy with this handler. */
  protected adopt(_handler: ContainerHandler): void {}

  /**
   * Member i on its own; a long container as a spine where it qualifies and `spines` allows. Arrays never ask for
   * spines: their elements are records, mostly of one shape and read a member or two each, and trying each one
   * (listing it at once, then finding that it does not qualify) cost articles' 10 % reads about 15 %.
   */
  protected single(i: number, spines = true): unknown {
    const doc = this.doc;
    const runtime = doc.binding.runtime;
    runtime.sync();
    const u32 = runtime.u32;
    const record = (this.table >>> 2) + i * CHILD_WORDS;
    const start = u32[record + CHILD_VALUE_START]!;
    const end = u32[record + CHILD_VALUE_END]!;
    const container = u32[record + CHILD_CONTAINER]!;
    const first = u32[record + CHILD_FIRST_BYTE]!;
    let value: unknown;
    if (container !== NO_CONTAINER) {
      if (end - start >= this.proxyMin(end - start)) {
        const handler = newHandler(doc, container, first);
        this.adopt(handler);
        value = (spines ? spineOf(handler) : undefined) ?? proxyOf(handler);
      } else {
        value = doc.parse(start, end);
      }
    } else if (first === QUOTE) {
      value = doc.parseString(start, end);
    } else if (first === 0x74) {
      value = true;
    } else if (first === 0x66) {
      value = false;
    } else if (first === 0x6e) {
      value = null;
    } else {
      value = doc.parseNumber(start, end);
    }
    this.cache[i] = value;
    this.touched++;
    return value;
  }

  /**
   * The end of a batch starting at `from`: at most `limit`, and about RUN_MAX_BYTES of text (containers longer
   * than `maxPlain` stay out of it).
   */
  protected runEnd(from: number, limit: number, maxPlain: number): number {
    const runtime = this.doc.binding.runtime;
    runtime.sync();
    const u32 = runtime.u32;
    let bytes = 0;
    let plain = false;
    let i = from;
    while (i < limit) {
      const record = (this.table >>> 2) + i * CHILD_WORDS;
      const size = u32[record + CHILD_VALUE_END]! - u32[record + CHILD_VALUE_START]!;
      if (u32[record + CHILD_CONTAINER] === NO_CONTAINER || size <= maxPlain) {
        bytes += size;
        plain = true;
      }
      if (bytes > RUN_MAX_BYTES && i > from) break;
      i++;
    }
    this.runPlain = plain;
    return i;
  }

  /** Members [from, to) in one batch; those already cached and containers over `maxPlain` are left as they are. */
  protected batch(from: number, to: number, maxPlain: number): void {
    const values = this.valuesOrBroken(from, to, maxPlain);
    if (values === undefined) return;
    const runtime = this.doc.binding.runtime;
    const u32 = runtime.u32;
    const cache = this.cache;
    for (let i = from; i < to; i++) {
      if (cache[i] !== undefined) continue;
      const record = (this.table >>> 2) + i * CHILD_WORDS;
      if (u32[record + CHILD_CONTAINER] !== NO_CONTAINER &&
          u32[record + CHILD_VALUE_END]! - u32[record + CHILD_VALUE_START]! > maxPlain) continue;
      cache[i] = values[i - from];
      this.touched++;
    }
  }

  /**
   * The values of members [from, to) in one parse (LazyDocument.values), or undefined when one of them is broken:
   * the members are then read one by one, so that only reading the broken one throws and its neighbours stay
   * readable. Out of memory still throws.
   */
  protected valuesOrBroken(from: number, to: number, maxPlain: number): unknown[] | undefined {
    try {
      return this.doc.values(this.table, from, to, maxPlain);
    } catch (error) {
      if (error instanceof JsonSyntaxError || error instanceof JsonLimitError) return undefined;
      throw error;
    }
  }

  // MARK: writes trap

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

  /** What the target's prototype stands for (see INSPECT). */
  abstract getPrototypeOf(): object;

  preventExtensions(): boolean {
    throw readOnly('extensibility');
  }
}

class ObjectHandler extends ContainerHandler implements ProxyHandler<object> {
  /** key -> index of its last member, -1 when absent. Complete once `ordered` is set. */
  private lookup = new Map<string, number>();
  /** The own keys in JSON.parse's order: array indices ascending, then the rest by first appearance. */
  private ordered: string[] | null = null;
  private finds = 0;
  private misses = 0;
  private bulked = false;
  /** Members hidden by a later duplicate key, not checked yet (see ownKeys). */
  private shadowed: number[] | null = null;

  private indexOf(key: string): number {
    const known = this.lookup.get(key);
    if (known !== undefined) return known;
    if (this.ordered !== null) return -1;
    const limit = lazyTuning.findLimit;
    if (++this.finds > limit && this.count > limit) {
      this.decodeKeys();
      return this.lookup.get(key) ?? -1;
    }
    // One native call: the object is listed by its first lookup.
    const doc = this.doc;
    const listed = this.count >= 0;
    const i = doc.lookup(this.id, listed ? this.table : 0, listed ? this.count : 0, key);
    if (!listed) this.listed(doc.listedTable, doc.listedCount);
    this.lookup.set(key, i);
    return i;
  }

  private decodeKeys(): string[] {
    if (this.ordered !== null) return this.ordered;
    this.enumerate();
    const keys = this.count === 0 ? [] : this.doc.keys(this.table, this.count);
    const lookup = new Map<string, number>();
    const indices: string[] = [];
    const names: string[] = [];
    let shadowed: number[] | null = null;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const earlier = lookup.get(key);
      if (earlier === undefined) (arrayIndex(key) >= 0 ? indices : names).push(key);
      else (shadowed ??= []).push(earlier);
      lookup.set(key, i);
    }
    if (indices.length > 1) indices.sort((a, b) => Number(a) - Number(b));
    this.shadowed = shadowed;
    this.lookup = lookup;
    this.ordered = indices.length === 0 ? names : indices.concat(names);
    return this.ordered;
  }

  spine(): object | undefined {
    const values = this.spineMembers();
    if (values === undefined) return undefined;
    // ownKeys checks the members a later duplicate key hides, as JSON.parse does (those that are proxies above
    // were not read). A broken one throws here: spineOf then hands out a proxy, whose own reads say what is wrong.
    const keys = this.ownKeys() as string[];
    const lookup = this.lookup;
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

  protected materialise(i: number): unknown {
    if (!this.bulked && ++this.misses >= Math.max(3, this.count >> 3)) {
      this.bulked = true;
      for (let from = 0; from < this.count;) {
        const to = this.runEnd(from, this.count, BULK_MAX_BYTES);
        this.batch(from, to, BULK_MAX_BYTES);
        from = to;
      }
      const value = this.cache[i];
      if (value !== undefined) return value;
    }
    return this.single(i);
  }

  get(target: object, key: string | symbol, receiver: unknown): unknown {
    if (key === this.lastKey) return this.lastValue;
    if (typeof key === 'string') {
      // A member read before: two lookups, no call (every read from the root passes here for each level).
      const known = this.lookup.get(key);
      if (known !== undefined && known >= 0) {
        const value = this.cache[known];
        if (value !== undefined) return this.remember(key, value);
      }
      const i = this.indexOf(key);
      if (i >= 0) return this.remember(key, this.child(i));
    }
    return Reflect.get(target, key, receiver);
  }

  has(target: object, key: string | symbol): boolean {
    if (typeof key === 'string' && this.indexOf(key) >= 0) return true;
    return Reflect.has(target, key);
  }

  getPrototypeOf(): object {
    return Object.prototype;
  }

  ownKeys(): ArrayLike<string | symbol> {
    const keys = this.decodeKeys();
    const shadowed = this.shadowed;
    if (shadowed !== null) {
      // No read reaches a member a later duplicate key hides, but JSON.parse checks it: listing the keys does, so
      // that reading a document whole (JSON.stringify, a deep copy) still rejects every invalid one.
      const runtime = this.doc.binding.runtime;
      for (const i of shadowed) {
        runtime.sync();
        const record = (this.table >>> 2) + i * CHILD_WORDS;
        this.doc.validate(runtime.u32[record + CHILD_VALUE_START]!, runtime.u32[record + CHILD_VALUE_END]!);
      }
      this.shadowed = null;
    }
    return keys;
  }

  getOwnPropertyDescriptor(_target: object, key: string | symbol): PropertyDescriptor | undefined {
    if (typeof key !== 'string') return undefined;
    const i = this.indexOf(key);
    if (i < 0) return undefined;
    return { value: this.child(i), writable: true, enumerable: true, configurable: true };
  }
}

class ArrayHandler extends ContainerHandler implements ProxyHandler<unknown[]> {
  /** rows(): 1 yes, 0 no, -1 not known yet. */
  private allContainers = -1;
  /** The latest element materialised here (not counting cache hits). */
  private last = -1;
  /** Where the current read-ahead run ends (elements before it were batched or left lazy), and its size. */
  private nextInOrder = -1;
  private group = 1;
  /** The handler of the latest element that became a proxy. */
  private recent: ContainerHandler | null = null;

  protected override adopt(handler: ContainerHandler): void {
    this.recent = handler;
  }

  protected override rows(): boolean {
    if (this.allContainers < 0) {
      const runtime = this.doc.binding.runtime;
      runtime.sync();
      const u32 = runtime.u32;
      let all = 1;
      for (let i = 0; i < this.count; i++) {
        if (u32[(this.table >>> 2) + i * CHILD_WORDS + CHILD_CONTAINER] === NO_CONTAINER) {
          all = 0;
          break;
        }
      }
      this.allContainers = all;
    }
    return this.allContainers === 1;
  }

  /** Containers up to this long are parsed with a read-ahead run that is not dense. */
  private plainMax(): number {
    const min = lazyTuning.proxyMinBytes;
    const row = lazyTuning.rowProxyMinBytes;
    return (row < min && this.rows() ? row : min) - 1;
  }

  spine(): object | undefined {
    const values = this.spineMembers();
    return values === undefined ? undefined : Object.freeze(values);
  }

  protected materialise(i: number): unknown {
    // In order: the element after the latest one read here, or within or just after the latest read-ahead run
    // (the elements of the run that were batched are cache hits that never come here).
    const inOrder = i > this.last && i <= this.nextInOrder;
    this.last = i;
    if (!inOrder) {
      this.group = 1;
      this.nextInOrder = i + 1;
      return this.single(i, false);
    }
    // Elements read in order are records; how much of each gets read is told by the latest one that stayed lazy:
    // if at least half of its members were read, the next ones are parsed whole with their neighbours (a proxy
    // costs every later access far more than parsing a record that is read anyway).
    const recent = this.recent;
    const dense = recent !== null && recent.touched * 2 >= recent.count && recent.count > 0;
    if (i >= this.nextInOrder) {
      this.group = Math.min(this.group * 4, MAX_GROUP);
      const maxPlain = dense ? BULK_MAX_BYTES : this.plainMax();
      const to = this.runEnd(i, Math.min(this.count, i + this.group), maxPlain);
      // A run of elements that all stay lazy (records over maxPlain) has nothing to batch: no native call for it.
      if (this.runPlain) this.batch(i, to, maxPlain);
      this.nextInOrder = to;
    }
    const value = this.cache[i];
    if (value !== undefined) return value;
    if (dense) {
      const whole = this.wholeArray(i);
      if (whole !== undefined) return whole;
    }
    return this.single(i, false);
  }

  /**
   * Element i, an array too long for a batch, parsed whole in runs when it is read densely (see materialise) and
   * none of its own elements would become a proxy: then reading it through a proxy would only add a trap per
   * access to the same parsing. Undefined when it is not such an array (it then becomes a proxy, enumerated once).
   */
  private wholeArray(i: number): unknown {
    const runtime = this.doc.binding.runtime;
    runtime.sync();
    const record = (this.table >>> 2) + i * CHILD_WORDS;
    const container = runtime.u32[record + CHILD_CONTAINER]!;
    if (container === NO_CONTAINER || runtime.u32[record + CHILD_FIRST_BYTE] !== OPEN_BRACKET) return undefined;
    const handler = new ArrayHandler(this.doc, container);
    const whole = handler.plainElements();
    if (whole === undefined) {
      // Enumerated already: the proxy reuses the table.
      this.adopt(handler);
      const proxy = proxyOf(handler);
      this.cache[i] = proxy;
      this.touched++;
      return proxy;
    }
    this.cache[i] = whole;
    this.touched++;
    return whole;
  }

  /** Every element as a plain array, parsed in runs; undefined when one of them would be a proxy, or is broken. */
  private plainElements(): unknown[] | undefined {
    this.enumerate();
    const count = this.count;
    const maxPlain = this.plainMax();
    const runtime = this.doc.binding.runtime;
    runtime.sync();
    const u32 = runtime.u32;
    for (let i = 0; i < count; i++) {
      const record = (this.table >>> 2) + i * CHILD_WORDS;
      if (u32[record + CHILD_CONTAINER] !== NO_CONTAINER &&
          u32[record + CHILD_VALUE_END]! - u32[record + CHILD_VALUE_START]! > maxPlain) return undefined;
    }
    const runs: unknown[][] = [];
    for (let from = 0; from < count;) {
      const to = this.runEnd(from, count, maxPlain);
      // A broken element: the array becomes a proxy instead, where only reading that element throws.
      const run = this.valuesOrBroken(from, to, maxPlain);
      if (run === undefined) return undefined;
      runs.push(run);
      from = to;
    }
    if (runs.length <= 1) return runs[0] ?? [];
    // One concat of every run: the engine copies packed element stores in bulk.
    return runs[0]!.concat(...runs.slice(1));
  }

  get(target: unknown[], key: string | symbol, receiver: unknown): unknown {
    if (key === this.lastKey) return this.lastValue;
    if (typeof key === 'string') {
      const i = arrayIndex(key);
      if (i >= 0) {
        // An element read before (the cache is empty until enumerated, and as long as the array).
        const value = this.cache[i];
        if (value !== undefined) return this.remember(key, value);
        this.enumerate();
        if (i < this.count) return this.remember(key, this.child(i));
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
