// What both kinds of lazyParse() proxy handler share: the member table of one container (listed natively on first
// use, then held in the JS heap), the cache of materialised members (`doc.a === doc.a`), runs of members
// parsed in one batch (one decode, one JSON.parse for many), and the write traps (every write throws a TypeError,
// in sloppy mode too). The kinds (object_handler.ts, array_handler.ts) add the read traps and decide when reading
// looks dense enough to read ahead; handlers.ts makes them.
import { JsonLimitError, JsonSyntaxError } from '../errors.js';
import { misuse } from '../validate.js';
import type { LazyDocument } from './lazy_document.js';
import { RUN_MAX_BYTES, lazyTuning } from './lazy_tuning.js';
import {
  CHILD_CONTAINER,
  CHILD_FIRST_BYTE,
  CHILD_VALUE_END,
  CHILD_VALUE_START,
  CHILD_WORDS,
  NO_CONTAINER,
} from './lazy_contract.js';
import { proxyOf } from './proxy_target.js';
import { spineOf } from './spine.js';

const QUOTE = 0x22;
const NO_MEMBERS = new Uint32Array(0);

/** The TypeError of every write: `change` says which (`set "a"`, `delete "a"`, `change its prototype`). */
function readOnly(change: string): TypeError {
  return misuse('lazyParse()', `the document is read-only (cannot ${change})`);
}

/** A member key as a message shows it: a string quoted, a symbol as `Symbol(description)`. */
function keyText(key: string | symbol): string {
  return typeof key === 'string' ? JSON.stringify(key) : String(key);
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

export abstract class ContainerHandler {
  /** Whether the container is an array (the kind of proxy target). */
  abstract readonly isArray: boolean;
  protected readonly doc_: LazyDocument<ContainerHandler>;
  protected readonly id: number;
  /** The member table (CHILD_WORDS u32 per member, in the JS heap); valid once count >= 0. */
  protected table: Uint32Array = NO_MEMBERS;
  /** Members; -1 until enumerated. */
  count = -1;
  /** Materialised members (undefined: not yet; JSON has no undefined). */
  protected cache: unknown[] = [];
  /** How many members are materialised: tells a parent array how densely its elements get read. */
  touched_ = 0;
  /** Whether the latest runEnd() run has a member that is parsed with it (one that does not stay lazy). */
  protected runPlain_ = false;
  /**
   * The member the latest get() returned, by its key: reads from the root pass the same key at a level again and
   * again (`doc.features[0].geometry.coordinates[i]` for every i), and comparing a property key with the last one
   * is far cheaper than a Map lookup or parsing an index (keys are internalised strings). Values never change once
   * materialised, so the pair stays right.
   */
  protected lastKey_: string | null = null;
  protected lastValue_: unknown = undefined;

  constructor(doc: LazyDocument<ContainerHandler>, id: number) {
    this.doc_ = doc;
    this.id = id;
  }

  enumerate(): void {
    if (this.count >= 0) return;
    this.listed(this.doc_.children(this.id));
  }

  /** The member table is known. */
  protected listed(table: Uint32Array): void {
    this.table = table;
    this.count = table.length / CHILD_WORDS;
    this.cache = new Array<unknown>(this.count);
  }

  protected remember_(key: string, value: unknown): unknown {
    this.lastKey_ = key;
    this.lastValue_ = value;
    return value;
  }

  protected child(i: number): unknown {
    const value = this.cache[i];
    if (value !== undefined) return value;
    // The document's bytes are gone after releaseLazy().
    this.doc_.assertLive_();
    return this.materialise_(i);
  }

  protected abstract materialise_(i: number): unknown;

  /** Whether the container table allows a spine (LazyDocument.spineShape), before listing it. */
  spineShape_(max: number, restMax: number): boolean {
    const longMin = Math.min(lazyTuning.proxyMinBytes, lazyTuning.rowProxyMinBytes);
    return this.doc_.spineShape_(this.id, max, longMin, restMax);
  }

  /** The frozen plain object or array of spineOf (the container is listed), or undefined (too much own text). */
  abstract spine_(): object | undefined;

  /**
   * Every member materialised for a spine, its long container as a proxy (not a spine: building a chain of them
   * would list containers nobody reads); undefined when the others hold more than proxyMinBytes / 8 bytes of text,
   * or when more than one member is long: a container that branches is where sparse reads part ways, and a spine
   * there would make a proxy for every branch where a read takes one (citm_catalog.json read at 1 % took three
   * times as long).
   */
  protected spineMembers_(): unknown[] | undefined {
    const u32 = this.table;
    const count = this.count;
    let text = 0;
    let long = 0;
    for (let i = 0; i < count; i++) {
      const record = i * CHILD_WORDS;
      const size = u32[record + CHILD_VALUE_END]! - u32[record + CHILD_VALUE_START]!;
      if (u32[record + CHILD_CONTAINER] === NO_CONTAINER || size < this.proxyMin_(size)) text += size;
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
  protected proxyMin_(size: number): number {
    const min = lazyTuning.proxyMinBytes;
    const row = lazyTuning.rowProxyMinBytes;
    return size >= min || size < row ? min : this.rows() ? row : min;
  }

  /** Whether every member is an object or an array (false for objects). */
  protected rows(): boolean {
    return false;
  }

  /** A member just became a proxy with this handler. */
  protected adopt_(_handler: ContainerHandler): void {}

  /**
   * Member i on its own; a long container as a spine where it qualifies and `spines` allows. Arrays never ask for
   * spines: their elements are records, mostly of one shape and read a member or two each, and trying each one
   * (listing it at once, then finding that it does not qualify) cost articles' 10 % reads about 15 %.
   */
  protected single(i: number, spines = true): unknown {
    const doc = this.doc_;
    const u32 = this.table;
    const record = i * CHILD_WORDS;
    const start = u32[record + CHILD_VALUE_START]!;
    const end = u32[record + CHILD_VALUE_END]!;
    const container = u32[record + CHILD_CONTAINER]!;
    const first = u32[record + CHILD_FIRST_BYTE]!;
    let value: unknown;
    if (container !== NO_CONTAINER) {
      if (end - start >= this.proxyMin_(end - start)) {
        const handler = doc.newHandler_(doc, container, first);
        this.adopt_(handler);
        value = (spines ? spineOf(handler) : undefined) ?? proxyOf(handler);
      } else {
        value = doc.parse(start, end);
      }
    } else if (first === QUOTE) {
      value = doc.parseString_(start, end);
    } else if (first === 0x74) {
      value = true;
    } else if (first === 0x66) {
      value = false;
    } else if (first === 0x6e) {
      value = null;
    } else {
      value = doc.parseNumber_(start, end);
    }
    this.cache[i] = value;
    this.touched_++;
    return value;
  }

  /**
   * The end of a batch starting at `from`: at most `limit`, and about RUN_MAX_BYTES of text (containers longer
   * than `maxPlain` stay out of it).
   */
  protected runEnd_(from: number, limit: number, maxPlain: number): number {
    const u32 = this.table;
    let bytes = 0;
    let plain = false;
    let i = from;
    while (i < limit) {
      const record = i * CHILD_WORDS;
      const size = u32[record + CHILD_VALUE_END]! - u32[record + CHILD_VALUE_START]!;
      if (u32[record + CHILD_CONTAINER] === NO_CONTAINER || size <= maxPlain) {
        bytes += size;
        plain = true;
      }
      if (bytes > RUN_MAX_BYTES && i > from) break;
      i++;
    }
    this.runPlain_ = plain;
    return i;
  }

  /** Members [from, to) in one batch; those already cached and containers over `maxPlain` are left as they are. */
  protected batch(from: number, to: number, maxPlain: number): void {
    const values = this.valuesOrBroken_(from, to, maxPlain);
    if (values === undefined) return;
    const u32 = this.table;
    const cache = this.cache;
    for (let i = from; i < to; i++) {
      if (cache[i] !== undefined) continue;
      const record = i * CHILD_WORDS;
      if (
        u32[record + CHILD_CONTAINER] !== NO_CONTAINER &&
        u32[record + CHILD_VALUE_END]! - u32[record + CHILD_VALUE_START]! > maxPlain
      )
        continue;
      cache[i] = values[i - from];
      this.touched_++;
    }
  }

  /**
   * The values of members [from, to) in one parse (LazyDocument.values), or undefined when one of them is broken:
   * the members are then read one by one, so that only reading the broken one throws and its neighbours stay
   * readable. Out of memory still throws.
   */
  protected valuesOrBroken_(from: number, to: number, maxPlain: number): unknown[] | undefined {
    try {
      return this.doc_.values(this.table, from, to, maxPlain);
    } catch (error) {
      if (error instanceof JsonSyntaxError || error instanceof JsonLimitError) return undefined;
      throw error;
    }
  }

  // MARK: writes trap

  set(_target: object, key: string | symbol): boolean {
    throw readOnly(`set ${keyText(key)}`);
  }

  defineProperty(_target: object, key: string | symbol): boolean {
    throw readOnly(`define ${keyText(key)}`);
  }

  deleteProperty(_target: object, key: string | symbol): boolean {
    throw readOnly(`delete ${keyText(key)}`);
  }

  setPrototypeOf(): boolean {
    throw readOnly('change its prototype');
  }

  /** What the target's prototype stands for (see INSPECT). */
  abstract getPrototypeOf(): object;

  preventExtensions(): boolean {
    throw readOnly('prevent extensions');
  }
}
