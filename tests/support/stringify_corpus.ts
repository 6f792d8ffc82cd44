// Seeded random values for the encoder's differential tests, in two views of one structure:
//
// - `plain`: what JSON.stringify sees. Everything its spec covers: strings with escapes, control characters,
//   lone and reversed surrogates, U+2028/2029 and astral characters; numbers incl. -0, NaN, ±Infinity, 1e21 and
//   subnormals; undefined, functions and symbols (omitted in objects, null in arrays); sparse arrays; boxed
//   primitives; Dates; objects with a key-dependent toJSON; integer-like, empty and `__proto__` keys.
// - `withSources(rng)`: the same structure with sources mixed in at random places: arrays turned into sync
//   generators, async generators, ReadableStreams, custom (async) iterables or Sets, any value wrapped in a
//   promise, settled now or in a later task. Built fresh each call (sources are single-use).
//
// rawJson leaves appear in `plain` as a marker string; `expectedText` puts the raw text in its place, so the
// expected output is JSON.stringify of the plain view with the raw text verbatim.
import { rawJson } from '../../dist/encode/index.js';
import { createRng } from './random_json.mjs';

export type Rng = ReturnType<typeof createRng>;

const MARKER = '\u0000raw:';

/** A structure, the raw texts its markers stand for, and how to build it with sources. */
export interface CorpusValue {
  plain: unknown;
  raws: string[];
  withSources(rng: Rng): unknown;
}

const STRING_PIECES = ['a', 'hello', ' ', '"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f',
  'é', '中文', '\u2028', '\u2029', '\ufeff', '\ufffd', '😀', '\u{10ffff}', '\ud800', '\udfff', '\udc00\ud800',
  '\ud83d', 'x\ud83dy', '</script>', '\u0085', '\uffff'];
const NUMBERS = [0, -0, 1, -1, 0.1, 0.1 + 0.2, 1e21, 1e-7, 123456789.125, 5e-324, Number.MAX_VALUE,
  Number.MIN_SAFE_INTEGER, NaN, Infinity, -Infinity, 2 ** 53 + 2];
const KEYS = ['a', 'b', 'c', '', '0', '1', '10', '-1', '01', '4294967295', '__proto__', 'constructor', 'toJSON_',
  'é', '"q"', 'line\nbreak', '\ud800', 'drop', 'x.y'];
const FUNCTION_VALUE = () => 1;
const SYMBOL_VALUE = Symbol('s');

function randomString(rng: Rng): string {
  if (rng.chance(0.02)) return 'long:' + 'abcdefghé😀'.repeat(rng.range(50, 400));
  let out = '';
  for (let n = rng.int(5); n > 0; n--) out += rng.pick(STRING_PIECES);
  return out;
}

/** An object whose toJSON depends on its key, as JSON.stringify passes it. */
function keyedToJSON(rng: Rng): object {
  const tag = rng.int(3);
  return {
    hidden: 'never written',
    toJSON(key: string) {
      if (tag === 0) return `key:${key}`;
      if (tag === 1) return { key, nested: [key, 1] };
      return undefined;
    },
  };
}

function leaf(rng: Rng, raws: string[]): unknown {
  switch (rng.int(16)) {
    case 0:
    case 1:
    case 2:
      return randomString(rng);
    case 3:
    case 4:
      return rng.pick(NUMBERS);
    case 5:
      return rng.int(1_000_000) - 500_000;
    case 6:
      return rng.chance(0.5);
    case 7:
      return null;
    case 8:
      return rng.pick([undefined, FUNCTION_VALUE, SYMBOL_VALUE]);
    case 9:
      switch (rng.int(3)) {
        case 0:
          return new Number(rng.pick(NUMBERS));
        case 1:
          return new String(randomString(rng));
        default:
          return new Boolean(rng.chance(0.5));
      }
    case 10:
      return new Date(rng.int(2_000_000_000) * 1000);
    case 11:
      return keyedToJSON(rng);
    case 12: {
      // Raw JSON: compact, padded with whitespace, or pretty (written verbatim whatever `space` is).
      const inner = rng.chance(0.5) ? { n: rng.int(100), s: randomString(rng) } : [rng.int(9), 'é', null];
      const texts = [JSON.stringify(inner), ` ${JSON.stringify(inner)}\n`, JSON.stringify(inner, null, 3),
        JSON.stringify(randomString(rng)), '-0.5e-3', 'true', 'null'];
      raws.push(rng.pick(texts));
      return `${MARKER}${raws.length - 1}\u0000`;
    }
    default:
      return randomString(rng);
  }
}

/** `budget.nodes`: values left to make; containers stop growing when it runs out (outputs stay ~100 KB). */
function randomValue(rng: Rng, depth: number, raws: string[], budget: { nodes: number }): unknown {
  budget.nodes--;
  if (depth <= 0 || budget.nodes <= 0 || rng.chance(0.35)) return leaf(rng, raws);
  if (rng.chance(0.5)) {
    // Sometimes a long array (the encoder writes plain elements in batches): of leaves mostly.
    const long = rng.chance(0.05);
    const length = long ? Math.min(rng.range(100, 400), budget.nodes) : rng.int(6);
    const array: unknown[] = [];
    for (let i = 0; i < length; i++) {
      if (rng.chance(0.05)) array.length = i + 1; // a hole
      else array.push(randomValue(rng, long ? Math.min(depth - 1, 1) : depth - 1, raws, budget));
    }
    return array;
  }
  const object: Record<string, unknown> = {};
  for (let n = rng.int(6); n > 0; n--) {
    // defineProperty: `__proto__` must be an own member, not the prototype.
    Object.defineProperty(object, rng.pick(KEYS), {
      value: randomValue(rng, depth - 1, raws, budget), enumerable: true, writable: true, configurable: true,
    });
  }
  return object;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

function later<T>(value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), 0));
}

/** `items` as one of the sources, each element possibly wrapped in a promise. */
function arraySource(rng: Rng, items: unknown[]): unknown {
  switch (rng.int(7)) {
    case 0:
      return (function* generate() {
        for (const item of items) yield item;
      })();
    case 1: {
      const slow = rng.chance(0.2);
      return (async function* generate() {
        for (const item of items) {
          if (slow) await later(null);
          else await null;
          yield item;
        }
      })();
    }
    case 2: {
      let i = 0;
      return new ReadableStream({
        pull(controller) {
          if (i < items.length) controller.enqueue(items[i++]);
          else controller.close();
        },
      }, { highWaterMark: 0 });
    }
    case 3:
      return {
        [Symbol.asyncIterator]() {
          let i = 0;
          return {
            next: () => Promise.resolve(i < items.length ? { done: false, value: items[i++] } : { done: true, value: undefined }),
          };
        },
      };
    case 4:
      return {
        [Symbol.iterator]() {
          let i = 0;
          return { next: () => (i < items.length ? { done: false, value: items[i++] } : { done: true, value: undefined }) };
        },
      };
    case 5:
      // A Set keeps distinct items only; markers and primitives may repeat, so only when all are distinct.
      return new Set(items).size === items.length ? new Set(items) : items;
    default:
      return items;
  }
}

function sourced(rng: Rng, value: unknown, raws: string[], density: number): unknown {
  let out: unknown = value;
  if (typeof value === 'string' && value.startsWith(MARKER)) {
    const text = raws[Number(value.slice(MARKER.length, -1))]!;
    const bytes = new TextEncoder().encode(text);
    switch (rng.int(3)) {
      case 0:
        out = rawJson(text);
        break;
      case 1:
        out = rawJson(bytes);
        break;
      default: {
        const pieces: Uint8Array[] = [];
        for (let at = 0; at < bytes.length;) {
          const n = rng.range(1, 8);
          pieces.push(bytes.subarray(at, at + n));
          at += n;
        }
        let i = 0;
        out = rawJson(new ReadableStream<Uint8Array>({
          pull(controller) {
            if (i < pieces.length) controller.enqueue(pieces[i++]!);
            else controller.close();
          },
        }));
      }
    }
  } else if (Array.isArray(value)) {
    // Array.from turns holes into undefined, which every source yields as such: written null, as holes are.
    const items = Array.from(value, (item) => sourced(rng, item, raws, density));
    out = rng.chance(density) ? arraySource(rng, items) : items;
  } else if (isPlainRecord(value)) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      Object.defineProperty(copy, key, {
        value: sourced(rng, value[key], raws, density), enumerable: true, writable: true, configurable: true,
      });
    }
    out = copy;
  }
  if (rng.chance(density / 3)) out = rng.chance(0.8) ? Promise.resolve(out) : later(out);
  return out;
}

/** A random structure; `density` is the chance that an array becomes a source. */
export function randomCorpusValue(rng: Rng, maxDepth: number, density = 0.4): CorpusValue {
  const raws: string[] = [];
  const plain = randomValue(rng, maxDepth, raws, { nodes: 800 });
  return { plain, raws, withSources: (sourceRng) => sourced(sourceRng, plain, raws, density) };
}

/**
 * JSON.stringify(plain, replacer, space) with each raw marker replaced by its raw text; undefined when
 * JSON.stringify returns undefined.
 */
export function expectedText(value: CorpusValue, replacer: unknown, space: unknown): string | undefined {
  const text = JSON.stringify(value.plain, replacer as never, space as never);
  if (text === undefined) return undefined;
  // JSON.stringify writes the marker's U+0000 as \u0000.
  return text.replace(/"\\u0000raw:(\d+)\\u0000"/g, (_, index: string) => value.raws[Number(index)]!);
}

/** The replacer function of the differential tests: it changes numbers, drops a key, rewrites some strings. */
export function testReplacer(this: unknown, key: string, value: unknown): unknown {
  if (key === 'drop') return undefined;
  if (typeof value === 'number') return value * 2;
  if (typeof value === 'string' && value.startsWith('hello')) return ['replaced', key];
  return value;
}

export { createRng };
