// The elements of one native call as the push parser delivers them: parsed values, bytes or text, bare or in
// `{ path, key, value }`, `{ value, offset, length }` or `{ path, key, value, offset, length }`. Everything is read out of wasm memory before any user code runs (a reviver may call
// sluice, which may grow the memory or run another parser in the same window): the reviver gets strings.
//
// A batch covers the call's elements in the window (one decode and one JSON.parse, or one copy); an element that
// began in an earlier window is read from the parser's carry (js/native/session.ts) on its own.
import { KEY_INDEX, KEY_NAME } from '../native/contract.js';
import {
  batchElementCount,
  batchFirst,
  batchLength,
  batchPtr,
  batchRecord,
  elementEnd,
  elementIndex,
  elementKeyGap,
  elementKeyKind,
  elementKeyLength,
  elementLength,
  elementPath,
  elementRecord,
} from '../native/records.js';
import type { ParserSession } from '../native/session.js';
import type { Reviver } from './option_types.js';
import {
  INTEGERS_NUMBER,
  mayHoldBigInteger,
  parseIntegers,
  parseLossless,
  revive,
  type IntegersMode,
} from './integers.js';

// Strings in the value and text paths are decoded from validated UTF-8. ignoreBOM: a member key or a string
// element may legitimately start with U+FEFF, which the default decoder would strip.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const BACKSLASH = 0x5c;

/** @internal The elements of the last call, read from the module's tables. */
export class CallResults {
  readonly u32_: Uint32Array;
  readonly u8_: Uint8Array;
  /** u32 index of the first element record. */
  readonly elements_: number;
  readonly count_: number;

  constructor(readonly session_: ParserSession) {
    const runtime = session_.runtime_;
    runtime.sync_();
    this.u32_ = runtime.u32_;
    this.u8_ = runtime.u8_;
    this.elements_ = session_.elements_;
    this.count_ = session_.elementCount_;
  }

  /** Stream offset of element i's first byte. */
  start_(i: number): number {
    const r = elementRecord(this.elements_, i);
    const session = this.session_;
    return session.windowOffset_ + (elementEnd(this.u32_, r) - session.windowPtr_) - elementLength(this.u32_, r);
  }

  /** Stream offset just past element i's last byte: the node's identity among the call's elements. */
  end_(i: number): number {
    return this.start_(i) + this.length_(i);
  }

  /** Element i's length in bytes. */
  length_(i: number): number {
    return elementLength(this.u32_, elementRecord(this.elements_, i));
  }

  /** Element i's bytes (a view of the window or of the carry, valid until the next call). */
  bytes_(i: number): Uint8Array {
    const start = this.start_(i);
    return this.session_.bytes_(start, start + this.length_(i));
  }

  /** A copy of element i's bytes. */
  copy_(i: number): Uint8Array {
    const start = this.start_(i);
    return this.session_.copy_(start, start + this.length_(i));
  }

  /** Element i's text. */
  text_(i: number): string {
    return decoder.decode(this.bytes_(i));
  }

  /** Element i began before the window: its bytes are in the carry. */
  carried_(i: number): boolean {
    return this.start_(i) < this.session_.windowOffset_;
  }

  /** Element i's key: its name, its index, or null. */
  key_(i: number): string | number | null {
    const u32 = this.u32_;
    const r = elementRecord(this.elements_, i);
    const kind = elementKeyKind(u32, r);
    if (kind === KEY_INDEX) return elementIndex(u32, r);
    const len = elementKeyLength(u32, r);
    if (kind !== KEY_NAME || len === 0) return null;
    const start = this.start_(i) - elementKeyGap(u32, r);
    return decodeKey(this.session_.bytes_(start, start + len));
  }

  /** Element i's selector. */
  path_(i: number): number {
    return elementPath(this.u32_, elementRecord(this.elements_, i));
  }
}

/** A member key from its raw JSON text (quotes included): escapes need JSON.parse, the rest is plain UTF-8. */
export function decodeKey(raw: Uint8Array): string {
  const inner = raw.subarray(1, raw.length - 1);
  if (inner.indexOf(BACKSLASH) === -1) return decoder.decode(inner);
  return JSON.parse(decoder.decode(raw)) as string;
}

/** Each batch's JSON array text through one decode and one JSON.parse; carried elements parsed on their own. */
export function valueBatches(
  call: CallResults,
  paths: readonly string[] | null,
  offsets: boolean,
  out: unknown[] | undefined,
  integers: IntegersMode,
  names: Names = null,
): unknown[] {
  const { u32_: u32, u8_: u8, session_: session } = call;
  const batches = session.batches_;
  const count = session.batchCount_;
  let all = out;
  for (let b = 0; b < count; b++) {
    const record = batchRecord(batches, b);
    const ptr = batchPtr(u32, record);
    const first = batchFirst(u32, record);
    const text = decoder.decode(u8.subarray(ptr, ptr + batchLength(u32, record)));
    // options.integers: one compare per batch when unset (integers.ts).
    const values = (integers === INTEGERS_NUMBER ? JSON.parse(text) : parseIntegers(text, integers)) as unknown[];
    // Elements that began in an earlier window are `0` in the batch text: their bytes are in the carry, never
    // ASCII-escaped (a long non-ASCII string would triple in length), decoded as UTF-8. Usually the first.
    for (let i = 0, left = session.carried_; left !== 0 && i < values.length; i++) {
      if (call.carried_(first + i)) {
        values[i] = parseIntegers(call.text_(first + i), integers);
        left--;
      }
    }
    if (paths !== null || offsets || names !== null) wrapInPlace(call, paths, offsets, names, values, first);
    if (all === undefined) all = values;
    else for (let i = 0; i < values.length; i++) all.push(values[i]);
  }
  return all ?? [];
}

/**
 * With a reviver, each element is parsed on its own, as JSON.parse(elementText, reviver) would. The texts and keys
 * are read first; then the reviver runs. When it throws, the elements before are returned and `failed` receives
 * the error.
 */
export function valueElements(
  call: CallResults,
  paths: readonly string[] | null,
  offsets: boolean,
  reviver: Reviver,
  failed: (error: unknown) => void,
  integers: IntegersMode,
  names: Names = null,
): unknown[] {
  const count = call.count_;
  const texts: string[] = [];
  for (let i = 0; i < count; i++) texts.push(call.text_(i));
  const wrapped = paths !== null || offsets || names !== null ? wrappers(call, paths, offsets, names) : null;
  const values: unknown[] = [];
  for (let i = 0; i < count; i++) {
    let value: unknown;
    // A marker (names[i] null; a held union's container, of no bytes): no text of its own, dropped by the caller.
    if ((names !== null && names[i] === null) || texts[i] === '') {
      values.push(undefined);
      continue;
    }
    try {
      const text = texts[i]!;
      // The reviver sees the BigInt (or digits) options.integers asks for: JSON.parse's walk over our parse.
      value =
        integers !== INTEGERS_NUMBER && mayHoldBigInteger(text)
          ? revive(parseLossless(text, integers), reviver)
          : JSON.parse(text, reviver);
    } catch (error) {
      failed(error);
      break;
    }
    if (wrapped === null) {
      values.push(value);
    } else {
      wrapped[i]!.value = value;
      values.push(wrapped[i]);
    }
  }
  return values;
}

/** One copy per batch; each element is a view of it. A carried element is a copy of its own. */
export function bytesBatches(
  call: CallResults,
  paths: readonly string[] | null,
  offsets: boolean,
  names: Names = null,
): unknown[] {
  const { u32_: u32, u8_: u8, session_: session } = call;
  const batches = session.batches_;
  const batchCount = session.batchCount_;
  const elements = call.elements_;
  // Batches cover the elements in order, so pushing keeps the array packed (new Array(n) would be holey).
  const values: unknown[] = [];
  for (let b = 0; b < batchCount; b++) {
    const record = batchRecord(batches, b);
    const base = batchPtr(u32, record);
    const first = batchFirst(u32, record);
    if (base === 0) {
      values.push(call.copy_(first));
      continue;
    }
    const copy = u8.slice(base, base + batchLength(u32, record)).buffer;
    const last = first + batchElementCount(u32, record);
    for (let i = first; i < last; i++) {
      const element = elementRecord(elements, i);
      const len = elementLength(u32, element);
      // The constructor, not a subarray of the copy: subarray looks up the species constructor on every call,
      // and a bytes-mode parse of 5,000,000 numbers took 17 to 20 % longer with it.
      values.push(new Uint8Array(copy, elementEnd(u32, element) - len - base, len));
    }
  }
  if (paths !== null || offsets || names !== null) wrapInPlace(call, paths, offsets, names, values, 0);
  return values;
}

/** One decode per batch, sliced per element when the batch is ASCII (then chars and bytes line up). */
export function textBatches(
  call: CallResults,
  paths: readonly string[] | null,
  offsets: boolean,
  names: Names = null,
): unknown[] {
  const { u32_: u32, u8_: u8, session_: session } = call;
  const batches = session.batches_;
  const batchCount = session.batchCount_;
  const elements = call.elements_;
  const values: unknown[] = [];
  for (let b = 0; b < batchCount; b++) {
    const record = batchRecord(batches, b);
    const base = batchPtr(u32, record);
    const first = batchFirst(u32, record);
    if (base === 0) {
      values.push(call.text_(first));
      continue;
    }
    const length = batchLength(u32, record);
    const text = decoder.decode(u8.subarray(base, base + length));
    const ascii = text.length === length;
    const last = first + batchElementCount(u32, record);
    for (let i = first; i < last; i++) {
      const element = elementRecord(elements, i);
      const len = elementLength(u32, element);
      const ptr = elementEnd(u32, element) - len;
      values.push(ascii ? text.slice(ptr - base, ptr - base + len) : decoder.decode(u8.subarray(ptr, ptr + len)));
    }
  }
  if (paths !== null || offsets || names !== null) wrapInPlace(call, paths, offsets, names, values, 0);
  return values;
}

/**
 * @internal options.withNormalizedPath: each element's normalized path, by element index (null: a marker, dropped);
 * null without the option.
 */
export type Names = readonly (string | null)[] | null;

/** An element's record: `{ path, key, value }`, `{ value, offset, length }` or all five, each maybe with its name. */
interface ElementRecord {
  path?: string;
  key?: string | number | null;
  value: unknown;
  offset?: number;
  length?: number;
  normalizedPath?: string;
}

/** Element i's record around `value`; `paths` null: no path and key. One literal per shape, always in one order. */
function record(
  call: CallResults,
  paths: readonly string[] | null,
  offsets: boolean,
  names: Names,
  i: number,
  value: unknown,
): ElementRecord {
  if (names !== null) return named(call, paths, offsets, names[i]!, i, value);
  if (!offsets) return { path: paths![call.path_(i)]!, key: call.key_(i), value };
  // start() is exact for an element that began in an earlier window too: its end is in this one.
  const offset = call.start_(i);
  const length = call.length_(i);
  if (paths === null) return { value, offset, length };
  return { path: paths[call.path_(i)]!, key: call.key_(i), value, offset, length };
}

/** What a marker's element becomes: dropped before delivery, so one shared record. */
const MARKER: ElementRecord = Object.freeze({ value: undefined });

/** record() with the element's normalized path `name` last (null: a marker, whose record is dropped). */
function named(
  call: CallResults,
  paths: readonly string[] | null,
  offsets: boolean,
  name: string | null,
  i: number,
  value: unknown,
): ElementRecord {
  if (name === null) return MARKER;
  if (!offsets) {
    if (paths === null) return { value, normalizedPath: name };
    return { path: paths[call.path_(i)]!, key: call.key_(i), value, normalizedPath: name };
  }
  const offset = call.start_(i);
  const length = call.length_(i);
  if (paths === null) return { value, offset, length, normalizedPath: name };
  return { path: paths[call.path_(i)]!, key: call.key_(i), value, offset, length, normalizedPath: name };
}

/** Replaces values[i] with element `first + i`'s record. */
function wrapInPlace(
  call: CallResults,
  paths: readonly string[] | null,
  offsets: boolean,
  names: Names,
  values: unknown[],
  first: number,
): void {
  for (let i = 0; i < values.length; i++) values[i] = record(call, paths, offsets, names, first + i, values[i]);
}

/** Every element's record with `value: undefined`, to be filled. */
function wrappers(call: CallResults, paths: readonly string[] | null, offsets: boolean, names: Names): ElementRecord[] {
  const out: ElementRecord[] = [];
  for (let i = 0; i < call.count_; i++) out.push(record(call, paths, offsets, names, i, undefined));
  return out;
}
