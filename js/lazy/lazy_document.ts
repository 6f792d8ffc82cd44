// One lazyParse() document: the native lazy_index holding the bytes and the container table, and the few
// operations the proxies need from it (enumerate a container, look a key up, parse a range of values). Every native
// call may grow wasm memory, so views are re-synced after each.
import type { ParserLimits } from '../errors.js';
import type { ContainerHandler } from './container_handler.js';
import {
  CHILD_VALUE_END, CHILD_VALUE_START, CHILD_WORDS, CONTAINER_END, CONTAINER_NEXT, CONTAINER_START, CONTAINER_WORDS,
  OUT_COUNT, OUT_PTR, lazyError, type LazyBinding,
} from './native_lazy.js';
import { writeKey } from './wtf8.js';

// Fatal: JSON.parse would otherwise accept the U+FFFD a lenient decoder puts for invalid UTF-8, which the parser
// rejects. ignoreBOM: a string member may start with U+FEFF.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BACKSLASH = 0x5c;

// Frees the native index of a document nobody references any more (no proxy left).
const registry = new FinalizationRegistry<{ binding: LazyBinding; handle: number }>(({ binding, handle }) => {
  try {
    binding.m._lazy_index_delete(handle);
  } catch {
    // The module aborted: nothing left to free.
  }
});

/** @internal */
export class LazyDocument {
  readonly binding: LazyBinding;
  readonly limits: ParserLimits;
  private handle: number;
  /** Address of the document's first byte in wasm memory: member offsets are relative to it. */
  private readonly base: number;
  /** The input text when it is ASCII: then byte offsets are string offsets, and slicing it skips decoding. */
  private readonly text: string | null;
  /** The member table and count of the object the latest lookup() listed. */
  listedTable = 0;
  listedCount = 0;
  /** u32 index of the container table in wasm memory; -1 until first asked for. */
  private containerTable = -1;

  /**
   * Makes the proxy handler of a member container (handlers.ts: passed in, since the handler classes import this
   * module).
   */
  readonly newHandler: (doc: LazyDocument, id: number, first: number) => ContainerHandler;

  constructor(binding: LazyBinding, handle: number, base: number, limits: ParserLimits, text: string | null,
    newHandler: (doc: LazyDocument, id: number, first: number) => ContainerHandler) {
    this.binding = binding;
    this.newHandler = newHandler;
    this.handle = handle;
    this.base = base;
    this.limits = limits;
    this.text = text;
    registry.register(this, { binding, handle }, this);
  }

  get released(): boolean {
    return this.handle === 0;
  }

  release(): void {
    if (this.handle === 0) return;
    registry.unregister(this);
    this.binding.m._lazy_index_delete(this.handle);
    this.handle = 0;
  }

  /** Throws the TypeError of a released document. */
  assertLive(): void {
    this.live();
  }

  private live(): number {
    if (this.handle === 0) throw new TypeError('sluice: this lazyParse() document was released (releaseLazy)');
    return this.handle;
  }

  /**
   * Whether container `id` has the shape of a spine, judged from the container table alone (nothing is listed): at
   * most `max` containers directly in it, at most one of them `longMin` bytes or longer, and at most `restMax`
   * bytes outside that one. A cheap filter: listing the container then decides.
   */
  spineShape(id: number, max: number, longMin: number, restMax: number): boolean {
    const binding = this.binding;
    if (this.containerTable < 0) this.containerTable = binding.m._lazy_index_containers(this.live()) >>> 2;
    const runtime = binding.runtime;
    runtime.sync();
    const u32 = runtime.u32;
    const table = this.containerTable;
    const at = table + id * CONTAINER_WORDS;
    const next = u32[at + CONTAINER_NEXT]!;
    let rest = u32[at + CONTAINER_END]! + 1 - u32[at + CONTAINER_START]!;
    let long = 0;
    let n = 0;
    // Containers directly inside: the next one after each is the first after its whole subtree.
    for (let k = id + 1; k < next; k = u32[table + k * CONTAINER_WORDS + CONTAINER_NEXT]!) {
      if (++n > max) return false;
      const record = table + k * CONTAINER_WORDS;
      const size = u32[record + CONTAINER_END]! + 1 - u32[record + CONTAINER_START]!;
      if (size >= longMin) {
        if (++long > 1) return false;
        rest -= size;
      }
    }
    return rest <= restMax;
  }

  /** The member table of container `id` (address), and its member count in `countOut[0]`. Throws on invalid text. */
  children(id: number, countOut: [number]): number {
    const binding = this.binding;
    const table = binding.m._lazy_index_children(this.live(), id);
    const runtime = binding.runtime;
    runtime.sync();
    if (table === 0) throw lazyError(binding, runtime.u32[binding.out32]!, this.limits);
    countOut[0] = runtime.u32[binding.out32 + OUT_COUNT]!;
    return table;
  }

  /**
   * Index of the member of object `id` with this key (the last one), -1 when absent. `table` 0 (not listed yet):
   * the object is listed by the same call, and its table and count are left in `listedTable`/`listedCount`.
   * Throws on invalid text.
   */
  lookup(id: number, table: number, count: number, key: string): number {
    const binding = this.binding;
    const handle = this.live();
    const length = writeKey(binding, key);
    const i = binding.m._lazy_index_lookup(handle, id, table, count, length);
    if (table === 0) {
      const runtime = binding.runtime;
      runtime.sync();
      if (i === -2) throw lazyError(binding, runtime.u32[binding.out32]!, this.limits);
      this.listedTable = runtime.u32[binding.out32 + OUT_PTR]!;
      this.listedCount = runtime.u32[binding.out32 + OUT_COUNT]!;
    }
    return i;
  }

  /** Every key of an object table, in order, duplicates included. */
  keys(table: number, count: number): string[] {
    const binding = this.binding;
    const at = binding.m._lazy_index_keys_text(this.live(), table, count);
    const runtime = binding.runtime;
    runtime.sync();
    if (at === 0) throw new RangeError('sluice: out of memory listing the keys of a lazyParse() object');
    // Keys were validated when the object was enumerated: decoding and parsing cannot fail.
    return JSON.parse(decoder.decode(runtime.u8.subarray(at, at + runtime.u32[binding.out32 + OUT_COUNT]!)));
  }

  /**
   * The values of members [from, to) as JSON.parse gives them; containers over `maxBytes` come back as 0 (the
   * caller makes them lazy instead).
   */
  values(table: number, from: number, to: number, maxBytes: number): unknown[] {
    const binding = this.binding;
    const at = binding.m._lazy_index_values_text(this.live(), table, from, to, maxBytes);
    const runtime = binding.runtime;
    runtime.sync();
    if (at === 0) throw new RangeError('sluice: out of memory reading a lazyParse() document');
    try {
      return JSON.parse(decoder.decode(runtime.u8.subarray(at, at + runtime.u32[binding.out32 + OUT_COUNT]!)));
    } catch (error) {
      // Which value is broken, and where exactly: the parser says, value by value.
      const u32 = runtime.u32;
      for (let i = from; i < to; i++) {
        const record = (table >>> 2) + i * CHILD_WORDS;
        this.check(u32[record + CHILD_VALUE_START]!, u32[record + CHILD_VALUE_END]!, error);
        runtime.sync();
      }
      throw error;
    }
  }

  /** One value, bytes [start, end), as JSON.parse gives it. */
  parse(start: number, end: number): unknown {
    let text: string;
    try {
      text = this.text !== null ? this.text.slice(start, end) : this.decode(start, end);
      return JSON.parse(text);
    } catch (error) {
      this.check(start, end, error);
      throw error;
    }
  }

  /** A number member, bytes [start, end): digits alone are summed here, anything else goes to JSON.parse. */
  parseNumber(start: number, end: number): unknown {
    if (end - start < 16) {
      const runtime = this.binding.runtime;
      runtime.sync();
      const u8 = runtime.u8;
      let value = 0;
      let i = this.base + start;
      const last = this.base + end;
      const negative = u8[i] === 0x2d;
      if (negative) i++;
      // A leading zero is only valid alone ("0"), and enumeration already validated the token.
      for (; i < last; i++) {
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
  parseString(start: number, end: number): string {
    if (this.text !== null) {
      const inner = this.text.slice(start + 1, end - 1);
      return inner.indexOf('\\') === -1 ? inner : (this.parse(start, end) as string);
    }
    const runtime = this.binding.runtime;
    runtime.sync();
    const inner = runtime.u8.subarray(this.base + start + 1, this.base + end - 1);
    return inner.indexOf(BACKSLASH) === -1 ? decoder.decode(inner) : (this.parse(start, end) as string);
  }

  private decode(start: number, end: number): string {
    const runtime = this.binding.runtime;
    runtime.sync();
    return decoder.decode(runtime.u8.subarray(this.base + start, this.base + end));
  }

  /** Throws the parser's error for bytes [start, end) if it finds one (else returns: the caller rethrows). */
  /** Checks bytes [start, end) as one value: throws the parser's error for it, positioned, if it is invalid. */
  validate(start: number, end: number): void {
    this.check(start, end, undefined);
  }

  private check(start: number, end: number, cause: unknown): void {
    const binding = this.binding;
    const status = binding.m._lazy_index_locate(this.live(), start, end);
    if (status !== 0) {
      const error = lazyError(binding, status, this.limits);
      if (cause !== undefined) (error as { cause?: unknown }).cause = cause;
      throw error;
    }
  }

  /** Byte `offset` of the document. */
  byteAt(offset: number): number {
    const runtime = this.binding.runtime;
    runtime.sync();
    return runtime.u8[this.base + offset]!;
  }

  /** Native bytes held by this document. */
  memoryBytes(): number {
    return this.handle === 0 ? 0 : this.binding.m._lazy_index_memory(this.handle);
  }
}
