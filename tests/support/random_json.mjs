// Seeded generators of JSON texts and of their one-byte mutations, for the differential tests against JSON.parse.
//
// The generator writes text directly (never through JSON.stringify) so that it can produce what JSON.stringify
// never does: every escape including `\/` and upper-case `\u` digits, lone-surrogate escapes, raw astral
// characters, all four whitespace bytes anywhere they are allowed, duplicate and `__proto__` keys, and numbers of
// every shape (`-0`, `0e0`, `1E+2`, exponents past the double range, long digit runs). Every text it returns is
// valid JSON and well-formed UTF-16 (no raw lone surrogates), so TextEncoder encodes it without replacement.

// sfc32: small, fast, and its whole state derives from one 32-bit seed, so a failure names a reproducible seed.
export function createRng(seed) {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 16; i++) next();
  const float = () => next() / 4294967296;
  const int = (n) => Math.floor(float() * n);
  return {
    next,
    float,
    /** An integer in [0, n). */
    int,
    /** An integer in [lo, hi]. */
    range: (lo, hi) => lo + int(hi - lo + 1),
    chance: (p) => float() < p,
    pick: (items) => items[int(items.length)],
  };
}

const WHITESPACE = [' ', '\t', '\n', '\r'];

/** Zero or more of JSON's four whitespace characters (usually none, so that tight texts are common too). */
export function randomWhitespace(rng) {
  if (rng.chance(0.6)) return '';
  let out = '';
  for (let n = rng.range(1, 4); n > 0; n--) out += rng.pick(WHITESPACE);
  return out;
}

const SIMPLE_ESCAPES = ['\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t'];
// Raw characters at the UTF-8 length boundaries (1/2/3/4 bytes) and some that other parsers mishandle:
// DEL, U+2028/U+2029 (line separators JSON allows raw), U+FEFF (a BOM inside a string is content), noncharacters.
const EDGE_CHARACTERS = [
  '\x7f',
  '\u0080',
  '\u07ff',
  '\u0800',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\u{10000}',
  '\u{10ffff}',
  '\u{1f600}',
  '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
  'é',
  '中',
];
const PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !#$%&'()*+,-.:;<=>?@[]^_`{|}~";

function hex4(rng, codeUnit) {
  const digits = codeUnit.toString(16).padStart(4, '0');
  // JSON allows either case for the hex digits, and mixed case within one escape.
  let out = '\\u';
  for (const digit of digits) out += rng.chance(0.5) ? digit.toUpperCase() : digit;
  return out;
}

function randomBmpNonSurrogate(rng, from) {
  for (;;) {
    const code = rng.range(from, 0xffff);
    if (code < 0xd800 || code > 0xdfff) return code;
  }
}

function stringPiece(rng) {
  switch (rng.int(12)) {
    case 0:
      return rng.pick(SIMPLE_ESCAPES);
    case 1:
      // Includes control characters (legal only escaped) and the escapes of quote and backslash.
      return hex4(rng, rng.chance(0.3) ? rng.int(0x80) : randomBmpNonSurrogate(rng, 0));
    case 2: {
      const code = rng.range(0x10000, 0x10ffff) - 0x10000;
      return hex4(rng, 0xd800 + (code >> 10)) + hex4(rng, 0xdc00 + (code & 0x3ff));
    }
    case 3:
      // Lone or reversed surrogate escapes: valid JSON, and JSON.parse keeps them as lone UTF-16 code units.
      return rng.chance(0.5)
        ? hex4(rng, rng.range(0xd800, 0xdfff))
        : hex4(rng, rng.range(0xdc00, 0xdfff)) + hex4(rng, rng.range(0xd800, 0xdbff));
    case 4:
      return String.fromCodePoint(rng.range(0x10000, 0x10ffff));
    case 5:
      return String.fromCharCode(randomBmpNonSurrogate(rng, 0xa0));
    case 6:
      return rng.pick(EDGE_CHARACTERS);
    default: {
      let out = '';
      for (let n = rng.range(1, 12); n > 0; n--) out += PLAIN[rng.int(PLAIN.length)];
      return out;
    }
  }
}

/** A JSON string literal, quotes included. `pieces` bounds how many runs/escapes it holds. */
export function randomString(rng, pieces = rng.int(6)) {
  let out = '"';
  for (let i = 0; i < pieces; i++) out += stringPiece(rng);
  return out + '"';
}

// Keys chosen from a small pool so that duplicates are common; `\u0061` decodes to the same key as `a`.
// `__proto__` must become an own property (JSON.parse uses CreateDataProperty); integer-like keys reorder.
const KEYS = [
  '"__proto__"',
  '"\\u005f_proto__"',
  '"constructor"',
  '"toString"',
  '"hasOwnProperty"',
  '"a"',
  '"\\u0061"',
  '"b"',
  '""',
  '"0"',
  '"1"',
  '"10"',
  '"-1"',
  '"01"',
  '"4294967295"',
];

function randomKey(rng) {
  return rng.chance(0.6) ? rng.pick(KEYS) : randomString(rng);
}

const NUMBERS = [
  '0',
  '-0',
  '0e0',
  '0E-0',
  '-0.0',
  '1E+2',
  '1e-2',
  '1e400',
  '-1e400',
  '1e-400',
  '5e-324',
  '2.2250738585072014e-308',
  '1.7976931348623157e308',
  '9007199254740993',
  '-9223372036854775808',
  '123456789012345678901234567890',
  '0.1',
  '1e0000000000000000000001',
  '-1.0E-0001',
];

function digits(rng, count) {
  let out = '';
  for (let i = 0; i < count; i++) out += String.fromCharCode(48 + rng.int(10));
  return out;
}

export function randomNumber(rng) {
  if (rng.chance(0.25)) return rng.pick(NUMBERS);
  const long = rng.chance(0.1);
  let out = rng.chance(0.3) ? '-' : '';
  out += rng.chance(0.2) ? '0' : String(rng.range(1, 9)) + digits(rng, long ? rng.range(15, 40) : rng.int(6));
  if (rng.chance(0.4)) out += '.' + digits(rng, long ? rng.range(15, 40) : rng.range(1, 6));
  if (rng.chance(0.3)) {
    out += rng.pick(['e', 'E']) + rng.pick(['', '+', '-']);
    out += digits(rng, rng.chance(0.2) ? rng.range(3, 5) : rng.range(1, 2));
  }
  return out;
}

function randomScalar(rng) {
  switch (rng.int(6)) {
    case 0:
      return rng.pick(['true', 'false', 'null']);
    case 1:
    case 2:
      return randomNumber(rng);
    default:
      return randomString(rng);
  }
}

function container(rng, open, close, count, item) {
  if (count === 0) return open + randomWhitespace(rng) + close;
  const parts = [];
  for (let i = 0; i < count; i++) parts.push(randomWhitespace(rng) + item() + randomWhitespace(rng));
  return open + parts.join(',') + close;
}

function randomValue(rng, depth, state) {
  state.budget--;
  if (depth < state.maxDepth && state.budget > 0 && rng.chance(0.35)) {
    const count = rng.chance(0.15) ? 0 : rng.range(1, state.maxItems);
    return rng.chance(0.5)
      ? container(rng, '[', ']', count, () => randomValue(rng, depth + 1, state))
      : container(
          rng,
          '{',
          '}',
          count,
          () =>
            randomKey(rng) + randomWhitespace(rng) + ':' + randomWhitespace(rng) + randomValue(rng, depth + 1, state),
        );
  }
  return randomScalar(rng);
}

/**
 * A value nested `depth` levels deep (arrays and objects alternating at random), with a few siblings on the way
 * down so the nesting is not a single straight line.
 */
export function randomDeepValue(rng, depth) {
  let out = randomScalar(rng);
  for (let level = 0; level < depth; level++) {
    const sibling = rng.chance(0.05) ? ',' + randomScalar(rng) : '';
    out = rng.chance(0.5)
      ? '[' + randomWhitespace(rng) + out + sibling + ']'
      : '{' + randomKey(rng) + ':' + out + (sibling ? ',' + randomKey(rng) + ':' + sibling.slice(1) : '') + '}';
  }
  return out;
}

/**
 * A JSON text whose root is an array (so `$[*]` selects its elements) with leading and trailing whitespace.
 * Options: `maxDepth` of ordinary nesting, `maxItems` per container, `budget` (roughly the number of values),
 * `deep`: the nesting depth of one extra, deeply nested element (0 for none).
 */
export function randomDocument(rng, { maxDepth = 5, maxItems = 6, budget = 60, deep = 0 } = {}) {
  const state = { maxDepth, maxItems, budget };
  const count = rng.int(maxItems + 1);
  const items = [];
  for (let i = 0; i < count; i++) items.push(randomValue(rng, 1, state));
  if (deep > 0) items.splice(rng.int(items.length + 1), 0, randomDeepValue(rng, deep));
  return randomWhitespace(rng) + container(rng, '[', ']', items.length, () => items.shift()) + randomWhitespace(rng);
}

// Bytes a mutation inserts: JSON's structural and literal characters, and bytes that are never valid UTF-8 or
// only valid as a lead/continuation byte.
const MUTATION_BYTES = [...'{}[],:"\\/ntfrue.-+eE0123456789 \t\n\r']
  .map((c) => c.charCodeAt(0))
  .concat([0x00, 0x1f, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff]);

/** One random edit of `bytes`: delete, insert or replace a byte, or truncate. Returns a new array. */
export function mutate(rng, bytes) {
  const at = rng.int(bytes.length + 1);
  const byte = rng.chance(0.8) ? rng.pick(MUTATION_BYTES) : rng.int(256);
  switch (rng.int(4)) {
    // biome-ignore lint/suspicious/noFallthroughSwitchClause: nothing to delete at the end, so insert
    case 0:
      if (at < bytes.length) return concatBytes(bytes.subarray(0, at), bytes.subarray(at + 1));
    case 1:
      return concatBytes(bytes.subarray(0, at), Uint8Array.of(byte), bytes.subarray(at));
    case 2:
      if (at < bytes.length) return concatBytes(bytes.subarray(0, at), Uint8Array.of(byte), bytes.subarray(at + 1));
      return bytes.slice(0, Math.max(0, at - 1));
    default:
      return bytes.slice(0, rng.int(bytes.length));
  }
}

export function concatBytes(...parts) {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
