// Seeded random values for the encoder's differential tests, in two views of one structure:
//
// - `plain`: what JSON.stringify sees. Everything its spec covers: strings with escapes, control characters,
//   lone and reversed surrogates, U+2028/2029 and astral characters; numbers incl. -0, NaN, ±Infinity, 1e21 and
//   subnormals; undefined, functions and symbols (omitted in objects, null in arrays); sparse arrays; boxed
//   primitives; Dates; integer-like, empty and `__proto__` keys; toJSON at every level, on objects and arrays,
//   depending on its key and returning what JSON.stringify must not call toJSON on again: the object itself, an
//   array or object with a toJSON of its own, a Date, a boxed primitive.
// - `withSources(rng)`: the same structure with sources mixed in at random places: arrays turned into sync
//   generators, async generators, ReadableStreams, custom (async) iterables or Sets, any value wrapped in a
//   promise, settled now or in a later task, and what toJSON returns given sources too (a promise of it when
//   `promisedToJSON`). Built fresh each call (sources are single-use).
//
// rawJson leaves appear in `plain` as a marker string; `expectedText` puts the raw text in its place, so the
// expected output is JSON.stringify of the plain view with the raw text verbatim.
import { rawJson } from '../../dist/encode/index.js';
import { createRng } from './random_json.mjs';

export type Rng = ReturnType<typeof createRng>;

const MARKER = '\u0000raw:';

/** How the sourced view is built. */
export interface SourceOptions {
  /** toJSON may return a promise (its value is written as it is, a replacer function sees the promise). */
  readonly promisedToJSON?: boolean;
}

/** A structure, the raw texts its markers stand for, and how to build it with sources. */
export interface CorpusValue {
  plain: unknown;
  raws: string[];
  withSources(rng: Rng, options?: SourceOptions): unknown;
}

const STRING_PIECES = [
  'a',
  'hello',
  ' ',
  '"',
  '\\',
  '/',
  '\b',
  '\f',
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u001f',
  '\u007f',
  'é',
  '中文',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffd',
  '😀',
  '\u{10ffff}',
  '\ud800',
  '\udfff',
  '\udc00\ud800',
  '\ud83d',
  'x\ud83dy',
  '</script>',
  '\u0085',
  '\uffff',
];
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.1,
  0.1 + 0.2,
  1e21,
  1e-7,
  123456789.125,
  5e-324,
  Number.MAX_VALUE,
  Number.MIN_SAFE_INTEGER,
  NaN,
  Infinity,
  -Infinity,
  2 ** 53 + 2,
];
const KEYS = [
  'a',
  'b',
  'c',
  '',
  '0',
  '1',
  '10',
  '-1',
  '01',
  '4294967295',
  '__proto__',
  'constructor',
  'toJSON_',
  'é',
  '"q"',
  'line\nbreak',
  '\ud800',
  'drop',
  'x.y',
];
const FUNCTION_VALUE = () => 1;
const SYMBOL_VALUE = Symbol('s');

function randomString(rng: Rng): string {
  if (rng.chance(0.02)) return 'long:' + 'abcdefghé😀'.repeat(rng.range(50, 400));
  let out = '';
  for (let n = rng.int(5); n > 0; n--) out += rng.pick(STRING_PIECES);
  return out;
}

// A toJSON, as the corpus writes it: a pure function of its key and of the object it is called on.
const TO_JSON = Symbol('corpus toJSON');
// Marks the sourced twin of an object with a toJSON, which sourced() leaves as it is.
const TWIN = Symbol('corpus twin');

/** What toJSON returns for `key`, called on `self`. */
type KeyedToJSON = (self: object, key: string) => unknown;

function called(): string {
  return 'toJSON called again';
}

/** A key-dependent toJSON returning `payload` in one of the forms JSON.stringify must not call toJSON on again. */
function keyedToJSON(rng: Rng, payload: unknown): KeyedToJSON {
  switch (rng.int(9)) {
    case 0:
      return (_self, key) => `key:${key}`;
    case 1:
      return (_self, key) => ({ key, nested: [key, payload] });
    case 2:
      return () => undefined;
    case 3:
      // An array with a toJSON of its own: written as an array.
      return (_self, key) => Object.assign([key, payload], { toJSON: called });
    case 4:
      // An object with a toJSON of its own: written member by member (the function member omitted).
      return (_self, key) => ({ key, payload, toJSON: called });
    case 5:
      // A Date is an object without members once its toJSON is not called.
      return () => new Date(0);
    case 6:
      return (_self, key) => (key.length % 2 === 0 ? new String(key) : new Number(key.length));
    case 7:
      // The object itself, written member by member, or in an array where its toJSON runs once more, with key
      // "1" (odd length: the object itself then).
      return (self, key) => (key.length % 2 === 1 ? self : [key, self]);
    default:
      // "own" has an odd length: the object itself the second time.
      return (self, key) => (key.length % 2 === 1 ? self : { key, own: self });
  }
}

/** Gives `target` (an object or array) the toJSON `make`, as an own member (enumerable on objects). */
function withToJSON<T extends object>(target: T, make: KeyedToJSON, enumerable: boolean): T {
  Object.defineProperty(target, TO_JSON, { value: make });
  return Object.defineProperty(target, 'toJSON', {
    value(this: object, key: string) {
      return make(this, key);
    },
    enumerable,
    writable: true,
    configurable: true,
  });
}

// WebKitGTK 2.50's JSON.stringify skips a non-enumerable own toJSON of a plain object (arrays are fine), against
// the spec's Get: there the oracle cannot judge that case, so such objects get an enumerable one.
const HIDDEN_TO_JSON_SKIPPED = JSON.stringify(Object.defineProperty({}, 'toJSON', { value: () => 1 })) !== '1';

/** An object whose toJSON depends on its key, holding a member it is written with when toJSON returns it. */
function keyedObject(rng: Rng, payload: unknown): object {
  const toJSON = keyedToJSON(rng, payload);
  return withToJSON({ hidden: payload }, toJSON, rng.chance(0.5) || HIDDEN_TO_JSON_SKIPPED);
}

function leaf(rng: Rng, raws: string[], depth = 0, budget = { nodes: 0 }): unknown {
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
      // toJSON at every level: what it returns may hold more of them.
      return keyedObject(rng, depth > 0 && budget.nodes > 0 ? randomValue(rng, depth - 1, raws, budget) : rng.int(9));
    case 12: {
      // Raw JSON: compact, padded with whitespace, or pretty (written verbatim whatever `space` is).
      const inner = rng.chance(0.5) ? { n: rng.int(100), s: randomString(rng) } : [rng.int(9), 'é', null];
      const texts = [
        JSON.stringify(inner),
        ` ${JSON.stringify(inner)}\n`,
        JSON.stringify(inner, null, 3),
        JSON.stringify(randomString(rng)),
        '-0.5e-3',
        'true',
        'null',
      ];
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
  if (depth <= 0 || budget.nodes <= 0 || rng.chance(0.35)) return leaf(rng, raws, depth, budget);
  if (rng.chance(0.5)) {
    // Sometimes a long array (the encoder writes plain elements in batches): of leaves mostly.
    const long = rng.chance(0.05);
    const length = long ? Math.min(rng.range(100, 400), budget.nodes) : rng.int(6);
    const array: unknown[] = [];
    for (let i = 0; i < length; i++) {
      if (rng.chance(0.05))
        array.length = i + 1; // a hole
      else array.push(randomValue(rng, long ? Math.min(depth - 1, 1) : depth - 1, raws, budget));
    }
    // An array's own toJSON, called with the array's key (an index in a batch or in a source included).
    if (rng.chance(0.06)) withToJSON(array, keyedToJSON(rng, array.length), false);
    return array;
  }
  const object: Record<string, unknown> = {};
  for (let n = rng.int(6); n > 0; n--) {
    // defineProperty: `__proto__` must be an own member, not the prototype.
    Object.defineProperty(object, rng.pick(KEYS), {
      value: randomValue(rng, depth - 1, raws, budget),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** The corpus toJSON of `value`, if it has one. */
function corpusToJSON(value: unknown): KeyedToJSON | undefined {
  return typeof value === 'object' && value !== null ? (value as { [TO_JSON]?: KeyedToJSON })[TO_JSON] : undefined;
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
      // Slow: a timer per element; not for long arrays (thousands of timer ticks).
      const slow = rng.chance(0.2) && items.length <= 100;
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
      return new ReadableStream(
        {
          pull(controller) {
            if (i < items.length) controller.enqueue(items[i++]);
            else controller.close();
          },
        },
        { highWaterMark: 0 },
      );
    }
    case 3:
      return {
        [Symbol.asyncIterator]() {
          let i = 0;
          return {
            next: () =>
              Promise.resolve(i < items.length ? { done: false, value: items[i++] } : { done: true, value: undefined }),
          };
        },
      };
    case 4:
      return {
        [Symbol.iterator]() {
          let i = 0;
          return {
            next: () => (i < items.length ? { done: false, value: items[i++] } : { done: true, value: undefined }),
          };
        },
      };
    case 5:
      // A Set keeps distinct items only; markers and primitives may repeat, so only when all are distinct.
      return new Set(items).size === items.length ? new Set(items) : items;
    default:
      return items;
  }
}

interface SourcingContext {
  readonly raws: string[];
  readonly density: number;
  readonly options: SourceOptions;
}

/**
 * The twin of an object or array with a corpus toJSON: its members sourced, its toJSON the same function of the
 * key, whose result is sourced (with a generator of its own: toJSON runs when the encoder gets there).
 */
function sourcedToJSON(rng: Rng, value: object, make: KeyedToJSON, context: SourcingContext): object {
  const twin: object = Array.isArray(value) ? Array.from(value, (item) => sourced(rng, item, context)) : {};
  if (!Array.isArray(value)) {
    for (const key of Object.keys(value)) {
      if (key === 'toJSON') continue;
      Object.defineProperty(twin, key, {
        value: sourced(rng, (value as Record<string, unknown>)[key], context),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  const own = createRng(rng.next());
  const promised = context.options.promisedToJSON === true && rng.chance(0.3);
  const enumerable = Object.getOwnPropertyDescriptor(value, 'toJSON')?.enumerable === true;
  Object.defineProperty(twin, TWIN, { value: true });
  return withToJSON(
    twin,
    (self, key) => {
      // What it returns is sourced (the twin itself left as it is), never a promise unless asked for: a replacer
      // function would see the promise, not its value.
      const out = sourced(own, make(self, key), context, false);
      return promised ? Promise.resolve(out) : out;
    },
    enumerable,
  );
}

function sourced(rng: Rng, value: unknown, context: SourcingContext, promise = true): unknown {
  const { raws, density } = context;
  if (typeof value === 'object' && value !== null && TWIN in value) return value;
  const make = corpusToJSON(value);
  if (make !== undefined) return sourcedToJSON(rng, value as object, make, context);
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
        for (let at = 0; at < bytes.length; ) {
          const n = rng.range(1, 8);
          pieces.push(bytes.subarray(at, at + n));
          at += n;
        }
        let i = 0;
        out = rawJson(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (i < pieces.length) controller.enqueue(pieces[i++]!);
              else controller.close();
            },
          }),
        );
      }
    }
  } else if (Array.isArray(value)) {
    // Array.from turns holes into undefined, which every source yields as such: written null, as holes are.
    const items = Array.from(value, (item) => sourced(rng, item, context));
    out = rng.chance(density) ? arraySource(rng, items) : items;
  } else if (isPlainRecord(value)) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      Object.defineProperty(copy, key, {
        value: sourced(rng, value[key], context),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    out = copy;
  }
  if (promise && rng.chance(density / 3)) out = rng.chance(0.8) ? Promise.resolve(out) : later(out);
  return out;
}

/** A random structure; `density` is the chance that an array becomes a source. */
export function randomCorpusValue(rng: Rng, maxDepth: number, density = 0.4): CorpusValue {
  const raws: string[] = [];
  const plain = randomValue(rng, maxDepth, raws, { nodes: 800 });
  return {
    plain,
    raws,
    withSources: (sourceRng, options = {}) => sourced(sourceRng, plain, { raws, density, options }),
  };
}

/**
 * An array longer than one of the encoder's batches (about 12,000 characters): 1,500 to 4,000 elements, mostly
 * small leaves, with arrays whose toJSON depends on their index and the corpus's other leaves spread all over,
 * nested 0 to 2 levels deep in objects or arrays.
 */
export function randomLongArray(rng: Rng, density = 0.5): CorpusValue {
  const raws: string[] = [];
  const budget = { nodes: 300 };
  const array: unknown[] = [];
  for (let i = rng.range(1500, 4000); i > 0; i--) {
    const r = rng.float();
    if (r < 0.55) array.push(rng.int(100_000));
    else if (r < 0.75) array.push(randomString(rng));
    else if (r < 0.9) array.push(leaf(rng, raws));
    else if (r < 0.97) array.push(randomValue(rng, 2, raws, budget));
    else array.push(withToJSON([rng.int(9)], keyedToJSON(rng, i), false));
  }
  let plain: unknown = array;
  for (let d = rng.int(3); d > 0; d--) plain = rng.chance(0.5) ? { rows: plain, n: d } : [d, plain];
  return {
    plain,
    raws,
    withSources: (sourceRng, options = {}) => sourced(sourceRng, plain, { raws, density, options }),
  };
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
