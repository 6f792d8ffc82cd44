// What a value is to the encoder: a promise, a source (and which kind), a boxed primitive, or an ordinary object.
// Shared by the encoder, which opens sources as it reaches them, and the closer, which finds the ones it did not.
import {
  ASYNC_ITERATOR,
  ITERATOR,
  RAW_ELEMENTS_ITERATOR,
  READER,
  sourceFrame,
  type AsyncIteratorFrame,
  type IteratorFrame,
  type ReaderFrame,
} from './frames.js';
import { RAW_ELEMENTS } from './raw_json.js';

/** The properties by which a source is recognised. */
export interface SourceMarks {
  readonly [RAW_ELEMENTS]?: unknown;
  readonly getReader?: unknown;
  readonly [Symbol.asyncIterator]?: unknown;
  readonly [Symbol.iterator]?: unknown;
}

export const NOT_A_SOURCE = 0;
export type SourceKind = typeof RAW_ELEMENTS_ITERATOR | typeof READER | typeof ASYNC_ITERATOR | typeof ITERATOR;

export const NOT_BOXED: unique symbol = Symbol('not boxed') as never;
const objectToString = Object.prototype.toString;

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

/** Which source `value` (an object that is not an array, a thenable or a rawJson) is, or NOT_A_SOURCE. */
export function sourceKind(value: object): SourceKind | typeof NOT_A_SOURCE {
  const marks = value as SourceMarks;
  if (marks[RAW_ELEMENTS] === true) return RAW_ELEMENTS_ITERATOR;
  if (typeof marks.getReader === 'function') return READER;
  if (typeof marks[Symbol.asyncIterator] === 'function') return ASYNC_ITERATOR;
  const iterable = typeof marks[Symbol.iterator] === 'function';
  if (iterable && !ArrayBuffer.isView(value) && !isStringObject(value)) return ITERATOR;
  return NOT_A_SOURCE;
}

/** Opens the source `value` of `kind` (its iterator or reader) in a frame at nesting `depth`. */
export function openSource(
  kind: SourceKind,
  value: object,
  depth: number,
): IteratorFrame | AsyncIteratorFrame | ReaderFrame {
  switch (kind) {
    case READER:
      return sourceFrame(READER, value, depth, (value as ReadableStream<unknown>).getReader());
    case ITERATOR:
      return sourceFrame(ITERATOR, value, depth, (value as Iterable<unknown>)[Symbol.iterator]());
    default:
      return sourceFrame(kind, value, depth, (value as AsyncIterable<unknown>)[Symbol.asyncIterator]());
  }
}

/**
 * Whether `value` is a String object (JSON.stringify writes its string; it is not a source), by its internal slot:
 * String.prototype.valueOf throws for anything else, whatever its methods or Symbol.toStringTag say.
 */
export function isStringObject(value: object): boolean {
  // Without a Symbol.toStringTag the tag names the slot: only "[object String]" needs the check.
  if ((value as TagMark)[Symbol.toStringTag] === undefined && objectToString.call(value) !== '[object String]')
    return false;
  return hasSlot(String.prototype.valueOf, value);
}

interface TagMark {
  readonly [Symbol.toStringTag]?: unknown;
}

function hasSlot(unbox: (this: unknown) => unknown, value: object): boolean {
  try {
    unbox.call(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The primitive of a Number, String, Boolean or BigInt object (JSON.stringify writes that), else NOT_BOXED. By
 * internal slot, as JSON.stringify: the tag is only a shortcut for objects without a Symbol.toStringTag (which
 * can forge one, or hide a real one).
 */
export function unbox(value: object): unknown {
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) return NOT_BOXED;
  const tagged = (value as TagMark)[Symbol.toStringTag] !== undefined;
  const tag = tagged ? '' : objectToString.call(value);
  // ToNumber and ToString, as JSON.stringify: a user valueOf or toString is honoured.
  if ((tagged || tag === '[object Number]') && hasSlot(Number.prototype.valueOf, value)) return Number(value);
  if ((tagged || tag === '[object String]') && hasSlot(String.prototype.valueOf, value)) return String(value);
  if ((tagged || tag === '[object Boolean]') && hasSlot(Boolean.prototype.valueOf, value)) {
    return Boolean.prototype.valueOf.call(value);
  }
  // A BigInt object's tag comes from BigInt.prototype's Symbol.toStringTag: always `tagged`.
  if (tagged && hasSlot(BigInt.prototype.valueOf, value)) return BigInt.prototype.valueOf.call(value);
  return NOT_BOXED;
}

/** Names a chunk or iterator result of the wrong type in an error message. */
export function describeChunk(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
}

export function describeOmitted(value: unknown): string {
  return typeof value === 'function' ? 'a function' : typeof value === 'symbol' ? 'a symbol' : 'undefined';
}

export function resultError(result: unknown): TypeError {
  return new TypeError(`sluice: an iterator returned ${describeChunk(result)} instead of a result object`);
}
