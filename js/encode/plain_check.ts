// The fast path's gate: is a value "plain", so that JSON.stringify(value, propertyList, gap) writes exactly the
// text the encoder must write, and is it small enough to be written in one piece? Plain means: no source
// (thenable, iterable other than arrays, typed arrays and strings, async iterable, ReadableStream), no rawJson, no
// toJSON (an array's included) other than Date's below the top: the general path calls it once, with its key, where
// JSON.stringify would call the top one again and give an element of a slice its index in the slice. No BigInt
// when options.bigint asks for it or BigInt.prototype has a toJSON, no reference back to an object the encoder is
// inside of (a cycle through a source).
//
// Cost: O(size of the value), bounded by `limit`; one Set lookup and a few property reads per object. A cycle
// inside the value exhausts the depth bound, so it is never handed to JSON.stringify: the structural path finds it.
import { RAW_ELEMENTS, rawJsonPayload } from './raw_json.js';
import { isStringObject } from './value_kinds.js';

/** @internal The value holds something JSON.stringify cannot write as the encoder must. */
export const NOT_PLAIN = -1;
/**
 * @internal The value is plain as far as checked, but larger than the limit, or deeper than MAX_DEPTH or than what
 * options.maxDepth allows where it is written (the general path then reports exactly where).
 */
export const TOO_BIG = -2;

// Deeper values take the structural path, which keeps its own stack: JSON.stringify and this check recurse.
const MAX_DEPTH = 200;
const DATE_TO_JSON = Date.prototype.toJSON;
const BIGINT_PROTOTYPE = BigInt.prototype;

/** @internal */
export function circularError(): TypeError {
  return new TypeError('Converting circular structure to JSON');
}

/** @internal */
export class PlainCheck {
  /** The objects the encoder is writing right now (open containers and sources). */
  private readonly ancestors_: Set<object>;
  /** options.bigint is unset. */
  private readonly bigintUnset_: boolean;
  /** options.maxDepth. */
  private readonly maxDepth_: number;
  /** The deepest nesting, below the measured value, that this measure() accepts. */
  private deepest_ = 0;
  /** Estimated characters left before the value counts as too big. */
  private left_ = 0;

  constructor(ancestors: Set<object>, bigintUnset: boolean, maxDepth: number) {
    this.ancestors_ = ancestors;
    this.bigintUnset_ = bigintUnset;
    this.maxDepth_ = maxDepth;
  }

  /**
   * The estimated length of the JSON text of `value` (an object that is not null), or NOT_PLAIN or TOO_BIG.
   * `nested`: JSON.stringify will call the value's toJSON itself (it is an element of a batch), so Date's is
   * fine. `depth`: the nesting the value is written at; an object of it at nesting maxDepth or deeper is TOO_BIG.
   * @throws {TypeError} when the value refers to an object the encoder is inside of.
   */
  measure(value: object, limit: number, nested: boolean, depth: number): number {
    this.left_ = limit;
    // An object at nesting d opens nesting d + 1, which must be at most maxDepth.
    this.deepest_ = Math.min(MAX_DEPTH, this.maxDepth_ - 1 - depth);
    const result = this.object_(value, 0, nested);
    return result < 0 ? result : limit - this.left_;
  }

  private object_(value: object, depth: number, nested: boolean): number {
    if (this.ancestors_.has(value)) throw circularError();
    if (depth > this.deepest_) return TOO_BIG;
    if (Array.isArray(value)) {
      // An array's toJSON (its own, or one on Array.prototype) is the general path's to call, with the right key:
      // JSON.stringify would call it again at the top, and with the index in a slice below.
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
      const length = value.length;
      if ((this.left_ -= length + 2) < 0) return TOO_BIG;
      for (let i = 0; i < length; i++) {
        const item: unknown = value[i];
        const result =
          typeof item === 'object' && item !== null ? this.object_(item, depth + 1, true) : this.primitive_(item);
        if (result < 0) return result;
      }
      return 0;
    }
    const record = value as Record<string | symbol, unknown>;
    if (typeof record.then === 'function') return NOT_PLAIN;
    const toJSON = record.toJSON;
    if (typeof toJSON === 'function') {
      if (!nested || toJSON !== DATE_TO_JSON) return NOT_PLAIN;
      return (this.left_ -= 26) < 0 ? TOO_BIG : 0;
    }
    // Objects of other prototypes may be streams, rawJson values, parser iterators or String objects. An object
    // literal could only hold those marks as own properties, which no one sets on one.
    if (Object.getPrototypeOf(value) !== Object.prototype) {
      if (
        rawJsonPayload(value) !== undefined ||
        record[RAW_ELEMENTS] !== undefined ||
        typeof record.getReader === 'function'
      ) {
        return NOT_PLAIN;
      }
      if (typeof record[Symbol.iterator] === 'function') {
        // Typed arrays are objects to JSON.stringify ({"0":...}), String objects strings: neither is a source.
        if (!ArrayBuffer.isView(value) && !isStringObject(value)) return NOT_PLAIN;
      }
      if (!this.bigintUnset_ && Object.getPrototypeOf(value) === BIGINT_PROTOTYPE) return NOT_PLAIN;
    } else if (typeof record[Symbol.iterator] === 'function') {
      return NOT_PLAIN;
    }
    if (typeof record[Symbol.asyncIterator] === 'function') return NOT_PLAIN;
    // for-in runs from V8's enum cache, without allocating Object.keys(). It also visits inherited enumerable
    // properties, which JSON.stringify does not write: that can only make the check stricter.
    // The keys are all charged before any value is read: for-in lists every key of a large object (dictionary
    // mode) when it starts, so entering the first member's object first would let a chain of wide objects cost
    // keys x MAX_DEPTH before the limit is reached (1000 levels of 1000 members: 400 ms per level). Values are then
    // read in order, and the check stops at the first one that is not plain, as JSON.stringify would get to it:
    // a getter after a source is never called.
    for (const key in record) this.left_ -= key.length + 4;
    if (this.left_ < 0) return TOO_BIG;
    for (const key in record) {
      const item = record[key];
      const result =
        typeof item === 'object' && item !== null ? this.object_(item, depth + 1, true) : this.primitive_(item);
      if (result < 0) return result;
    }
    return 0;
  }

  /**
   * JSON.stringify writes a BigInt as the encoder must: options.bigint is unset (it throws the TypeError) and no
   * BigInt.prototype.toJSON would be called (with a slice's index for a key).
   */
  bigintIsPlain_(): boolean {
    return this.bigintUnset_ && typeof (BIGINT_PROTOTYPE as { toJSON?: unknown }).toJSON !== 'function';
  }

  private primitive_(value: unknown): number {
    switch (typeof value) {
      case 'string':
        this.left_ -= value.length + 2;
        break;
      case 'bigint':
        if (!this.bigintIsPlain_()) return NOT_PLAIN;
        this.left_ -= 20;
        break;
      default:
        this.left_ -= 6;
    }
    return this.left_ < 0 ? TOO_BIG : 0;
  }
}
