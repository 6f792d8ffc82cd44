// One lazyParse() document and the few operations the proxies need from it: list a container, find a key, parse a
// range of values. What a document is made of lives in the JS heap, where the garbage collector sees its size: its
// bytes and each listed container's member table (copied out of the native index). The native index scans, and
// holds the container table: it is resident while the document needs it, within a budget (residency.ts).
import type { ParserLimits } from '../errors.js';
import { misuse } from '../validate.js';
import {
  CHILD_CONTAINER,
  CHILD_KEY_END,
  CHILD_KEY_START,
  CHILD_VALUE_END,
  CHILD_VALUE_START,
  CHILD_WORDS,
  CONTAINER_END,
  CONTAINER_NEXT,
  CONTAINER_START,
  CONTAINER_WORDS,
  NO_CONTAINER,
  OUT_COUNT,
  OUT_STATUS,
} from './lazy_contract.js';
import { lazyError, type LazyBinding } from './native_lazy.js';
import { evict, load, touch, type Residency } from './residency.js';
import { keyBytes } from '../native/wtf8.js';
import { INTEGERS_NUMBER, mayHoldBigInteger, parseLossless, type IntegersMode } from '../parse/integers.js';

// Fatal: JSON.parse would otherwise accept the U+FFFD a lenient decoder puts for invalid UTF-8, which the parser
// rejects. ignoreBOM: a string member may start with U+FEFF.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const ZERO = 0x30;

/**
 * Makes the proxy handler of a member container (handlers.ts: passed in, since the handler classes import us; `H`
 * is their ContainerHandler, a parameter so that this module imports none of them).
 */
export type NewHandler<H> = (doc: LazyDocument<H>, id: number, first: number) => H;

// Frees the native index of a document nobody references any more (no proxy left), if it is still resident.
const registry = new FinalizationRegistry<{ binding: LazyBinding; residency_: Residency }>(
  ({ binding, residency_: residency }) => {
    try {
      evict(binding, residency);
    } catch {
      // The module aborted: nothing left to free.
    }
  },
);

/** Member tables are allocated in chunks of up to this many u32 (64 KiB). */
const TABLE_CHUNK_WORDS = 16384;
const NO_CHUNK = new Uint32Array(0);

/** Scratch for the text of a batch, grown up to SCRATCH_MAX. */
let scratch = new Uint8Array(1024);
const SCRATCH_MAX = 1 << 20;

/** @internal */
export class LazyDocument<H> {
  readonly binding: LazyBinding;
  readonly limits: ParserLimits;
  readonly newHandler_: NewHandler<H>;
  /** The document's bytes; null once released. */
  private bytes_: Uint8Array | null;
  /** The input text when it is ASCII: then byte offsets are string offsets, and slicing it skips decoding. */
  private readonly text_: string | null;
  /** u32 index of the resident index's container table (3 x u32 per container), and the index it is of. */
  private containerTable_ = 0;
  private containerHandle_ = 0;
  private readonly residency_: Residency;
  /** Where small member tables go (children()), and how much of it is used. */
  private chunk_: Uint32Array = NO_CHUNK;
  private chunkUsed_ = 0;

  constructor(
    binding: LazyBinding,
    bytes: Uint8Array,
    text: string | null,
    residency: Residency,
    limits: ParserLimits,
    newHandler: NewHandler<H>,
    /** lazyParse's options.integers. */
    readonly integers: IntegersMode = INTEGERS_NUMBER,
  ) {
    this.binding = binding;
    this.bytes_ = bytes;
    this.text_ = text;
    this.residency_ = residency;
    this.limits = limits;
    this.newHandler_ = newHandler;
    registry.register(this, { binding, residency_: residency }, this);
  }

  get released_(): boolean {
    return this.bytes_ === null;
  }

  release(): void {
    if (this.bytes_ === null) return;
    registry.unregister(this);
    evict(this.binding, this.residency_);
    this.bytes_ = null;
  }

  /** Throws the TypeError of a released document. */
  assertLive_(): void {
    this.live_();
  }

  private live_(): Uint8Array {
    if (this.bytes_ === null) throw misuse('lazyParse()', 'the document was released by releaseLazy()');
    return this.bytes_;
  }

  /** The native index, loaded again if it was evicted. */
  private index_(): number {
    const bytes = this.live_();
    const binding = this.binding;
    const r = this.residency_;
    if (r.handle !== 0) {
      touch(binding, r);
      return r.handle;
    }
    // The same bytes built before: a failure now can only be out of memory.
    const status = load(binding, r, bytes, this.limits.maxDepth);
    if (status !== 0) throw lazyError(binding, status, this.limits);
    return r.handle;
  }

  /**
   * Whether container `id` has the shape of a spine, judged from the container table alone (nothing is listed): at
   * most `max` containers directly in it, at most one of them `longMin` bytes or longer, and at most `restMax`
   * bytes outside that one. A cheap filter: listing the container then decides.
   */
  spineShape_(id: number, max: number, longMin: number, restMax: number): boolean {
    // The container table is the index's (copying it out cost canada.json 1.3 MB per document).
    const handle = this.index_();
    const binding = this.binding;
    if (this.containerHandle_ !== handle) {
      this.containerTable_ = binding.m.lazy_index_containers(handle) >>> 2;
      this.containerHandle_ = handle;
    }
    const heap = binding.heap;
    heap.sync_();
    const u32 = heap.u32_;
    const base = this.containerTable_;
    const at = id * CONTAINER_WORDS;
    const next = u32[base + at + CONTAINER_NEXT]!;
    let rest = u32[base + at + CONTAINER_END]! + 1 - u32[base + at + CONTAINER_START]!;
    let long = 0;
    let n = 0;
    // Containers directly inside: the next one after each is the first after its whole subtree.
    for (let k = id + 1; k < next; k = u32[base + k * CONTAINER_WORDS + CONTAINER_NEXT]!) {
      if (++n > max) return false;
      const record = k * CONTAINER_WORDS;
      const size = u32[base + record + CONTAINER_END]! + 1 - u32[base + record + CONTAINER_START]!;
      if (size >= longMin) {
        if (++long > 1) return false;
        rest -= size;
      }
    }
    return rest <= restMax;
  }

  /** The member table of container `id` (CHILD_WORDS u32 per member). Throws on invalid text. */
  children(id: number): Uint32Array {
    const binding = this.binding;
    const at = binding.m.lazy_index_children(this.index_(), id);
    const heap = binding.heap;
    heap.sync_();
    if (at === 0) throw lazyError(binding, heap.u32_[binding.out32 + OUT_STATUS]!, this.limits);
    const words = heap.u32_[binding.out32 + OUT_COUNT]! * CHILD_WORDS;
    const u32 = heap.u32_;
    const from = at >>> 2;
    // Small tables share chunks: a typed array of its own costs an ArrayBuffer each (about 1 µs in Node 20,
    // twitter.json lists 224 containers to read 1 % of its leaves); a view of a chunk costs an object.
    if (words > TABLE_CHUNK_WORDS >> 2) return u32.slice(from, from + words);
    if (this.chunkUsed_ + words > this.chunk_.length) {
      this.chunk_ = new Uint32Array(Math.min(TABLE_CHUNK_WORDS, Math.max(4 * this.chunk_.length, 4 * words)));
      this.chunkUsed_ = 0;
    }
    const chunk = this.chunk_;
    const to = this.chunkUsed_;
    if (words <= 64) for (let i = 0; i < words; i++) chunk[to + i] = u32[from + i]!;
    else chunk.set(u32.subarray(from, from + words), to);
    this.chunkUsed_ = to + words;
    return chunk.subarray(to, to + words);
  }

  /**
   * Index of the member of an object's table with this key: the last one, as JSON.parse keeps it; -1 when absent.
   * Keys compare as WTF-8 bytes; a raw key with escapes is decoded first, and only when it could match.
   */
  find(table: Uint32Array, key: string): number {
    const d = this.live_();
    const length: [number] = [0];
    const k = keyBytes(key, length);
    const n = length[0];
    // A raw key as long as `key` has no escape if it matches (an escape would make it decode shorter), so equal
    // bytes are a match unless they hold a backslash, which then is an escape in the raw key: no match.
    let keyHasBackslash = false;
    for (let i = 0; i < n; i++) if (k[i] === BACKSLASH) keyHasBackslash = true;
    const first = k[0];
    for (let r = table.length - CHILD_WORDS; r >= 0; r -= CHILD_WORDS) {
      const raw = table[r + CHILD_KEY_START]! + 1;
      const rawN = table[r + CHILD_KEY_END]! - 1 - raw;
      // Escapes only shorten a key, so a raw key shorter than `key` cannot match.
      if (rawN < n) continue;
      if (rawN === n) {
        if (keyHasBackslash) continue;
        let i = 0;
        while (i < n && d[raw + i] === k[i]) i++;
        if (i === n) return r / CHILD_WORDS;
        continue;
      }
      // Longer: only an escaped key can match, and the bytes before its first escape are the key's own.
      if (n === 0 || (d[raw] !== BACKSLASH && d[raw] !== first)) continue;
      let escaped = false;
      for (let i = raw; i < raw + rawN && !escaped; i++) escaped = d[i] === BACKSLASH;
      if (escaped && JSON.parse(decoder.decode(d.subarray(raw - 1, raw + rawN + 1))) === key) return r / CHILD_WORDS;
    }
    return -1;
  }

  /** Every key of an object table, in order, duplicates included. */
  keys(table: Uint32Array): string[] {
    // Keys were validated when the object was listed: decoding and parsing cannot fail.
    return JSON.parse(this.join_(table, 0, table.length / CHILD_WORDS, CHILD_KEY_START, CHILD_KEY_END, Infinity));
  }

  /**
   * The values of members [from, to) as JSON.parse gives them; containers over `maxBytes` come back as 0 (the
   * caller makes them lazy instead).
   */
  values(table: Uint32Array, from: number, to: number, maxBytes: number): unknown[] {
    try {
      return this.parseText_(this.join_(table, from, to, CHILD_VALUE_START, CHILD_VALUE_END, maxBytes)) as unknown[];
    } catch (error) {
      // Which value is broken, and where exactly: the parser says, value by value.
      for (let i = from; i < to; i++) {
        this.check_(table[i * CHILD_WORDS + CHILD_VALUE_START]!, table[i * CHILD_WORDS + CHILD_VALUE_END]!, error);
      }
      throw error;
    }
  }

  /**
   * `[s_from,...,s_to-1]`: the spans [startField, endField) of table[from, to) as one JSON array text, a container
   * over `maxBytes` written as `0`. The elements of an array run with no such container are one span of the text,
   * commas and whitespace included: no copy.
   */
  private join_(
    table: Uint32Array,
    from: number,
    to: number,
    startField: number,
    endField: number,
    maxBytes: number,
  ): string {
    const d = this.live_();
    if (to <= from) return '[]';
    const first = from * CHILD_WORDS;
    const last = (to - 1) * CHILD_WORDS;
    let whole = startField === CHILD_VALUE_START && table[first + CHILD_KEY_END] === 0;
    for (let r = first; whole && r <= last; r += CHILD_WORDS) {
      whole =
        table[r + CHILD_CONTAINER] === NO_CONTAINER ||
        table[r + CHILD_VALUE_END]! - table[r + CHILD_VALUE_START]! <= maxBytes;
    }
    if (whole) {
      const start = table[first + startField]!;
      const end = table[last + endField]!;
      return '[' + (this.text_ !== null ? this.text_.slice(start, end) : decoder.decode(d.subarray(start, end))) + ']';
    }
    let size = 2;
    for (let r = first; r <= last; r += CHILD_WORDS) size += table[r + endField]! - table[r + startField]! + 1;
    // Batches are small (RUN_MAX_BYTES of text, mostly); the keys of a huge object get a buffer of their own.
    if (scratch.length < size && size <= SCRATCH_MAX) scratch = new Uint8Array(Math.max(size, 2 * scratch.length));
    const out = size <= scratch.length ? scratch : new Uint8Array(size);
    out[0] = 0x5b;
    let at = 1;
    for (let r = first; r <= last; r += CHILD_WORDS) {
      if (r !== first) out[at++] = COMMA;
      const start = table[r + startField]!;
      const end = table[r + endField]!;
      if (table[r + CHILD_CONTAINER] !== NO_CONTAINER && end - start > maxBytes) {
        out[at++] = ZERO;
      } else {
        out.set(d.subarray(start, end), at);
        at += end - start;
      }
    }
    out[at++] = 0x5d;
    return decoder.decode(out.subarray(0, at));
  }

  /** One value, bytes [start, end), as JSON.parse gives it. */
  parse(start: number, end: number): unknown {
    try {
      return this.parseText_(this.text_ !== null ? this.text_.slice(start, end) : this.decode_(start, end));
    } catch (error) {
      this.check_(start, end, error);
      throw error;
    }
  }

  /**
   * JSON.parse(text), which also validates it; with options.integers, a text that may hold an integer past
   * 2^53 - 1 is then read again by parseLossless (valid JSON only).
   */
  private parseText_(text: string): unknown {
    const value: unknown = JSON.parse(text);
    const integers = this.integers;
    return integers !== INTEGERS_NUMBER && mayHoldBigInteger(text) ? parseLossless(text, integers) : value;
  }

  /** A number member, bytes [start, end): digits alone are summed here, anything else goes to JSON.parse. */
  parseNumber_(start: number, end: number): unknown {
    if (end - start < 16) {
      const u8 = this.live_();
      let value = 0;
      let i = start;
      const negative = u8[i] === 0x2d;
      if (negative) i++;
      // A leading zero is only valid alone ("0"), and listing the container already validated the token.
      for (; i < end; i++) {
        const digit = u8[i]! - 0x30;
        if (digit < 0 || digit > 9) return this.parse(start, end);
        value = value * 10 + digit;
      }
      return negative ? -value : value;
    }
    return this.parse(start, end);
  }

  /**
   * A string member, bytes [start, end) with its quotes. Listing its container validated it (escapes, control
   * characters, UTF-8), so without a backslash its value is the text between the quotes: no JSON.parse.
   */
  parseString_(start: number, end: number): string {
    if (this.text_ !== null) {
      const inner = this.text_.slice(start + 1, end - 1);
      return inner.indexOf('\\') === -1 ? inner : (this.parse(start, end) as string);
    }
    const inner = this.live_().subarray(start + 1, end - 1);
    return inner.indexOf(BACKSLASH) === -1 ? decoder.decode(inner) : (this.parse(start, end) as string);
  }

  private decode_(start: number, end: number): string {
    return decoder.decode(this.live_().subarray(start, end));
  }

  /** Checks bytes [start, end) as one value: throws the parser's error for it, positioned, if it is invalid. */
  validate(start: number, end: number): void {
    this.check_(start, end, undefined);
  }

  /** Throws the parser's error for bytes [start, end) if it finds one (else returns: the caller rethrows). */
  private check_(start: number, end: number, cause: unknown): void {
    const binding = this.binding;
    const status = binding.m.lazy_index_locate(this.index_(), start, end);
    if (status !== 0) {
      const error = lazyError(binding, status, this.limits);
      if (cause !== undefined) (error as { cause?: unknown }).cause = cause;
      throw error;
    }
  }

  /** Byte `offset` of the document. */
  byteAt_(offset: number): number {
    return this.live_()[offset]!;
  }
}
