// options.integers: integers past Number.MAX_SAFE_INTEGER kept digit for digit, as BigInt or as their digits.
//
// JSON.parse rounds 12345678901234567890 to 12345678901234567000 and V8 before 11.4 (Node 20) gives a reviver no
// source text, so a text that may hold such an integer is read by parseLossless() below, a small parser of
// already validated JSON. Every other text still goes to JSON.parse: the check is a scan for a run of 16 digits
// (the shortest integer past 2^53 - 1 has 16), made only when the option is set, so the default path has no added
// code. A run of 16 digits inside a string or a fraction only costs the slower parse, never a wrong value. Where a
// reviver gets the source text (V8 11.4+; Node 20 with --harmony-json-parse-with-source), a reviver that makes
// BigInts from it measured 3.7 times slower than parseLossless on big integers and 1.9 times on articles: not used.
import { optionalOneOf, type ApiName, type OptionsRecord } from '../validate.js';

/** How integers outside ±(2^53 - 1) are read: see {@link ParserOptions.integers}. */
export type IntegersOption = 'number' | 'bigint' | 'string';

/** @internal `integers: 'number'` (the default): as JSON.parse reads them, rounded. */
export const INTEGERS_NUMBER = 0;
/** @internal `integers: 'bigint'`. */
export const INTEGERS_BIGINT = 1;
/** @internal `integers: 'string'`. */
export const INTEGERS_STRING = 2;
/** @internal */
export type IntegersMode = typeof INTEGERS_NUMBER | typeof INTEGERS_BIGINT | typeof INTEGERS_STRING;

const INTEGERS: readonly IntegersOption[] = ['number', 'bigint', 'string'];

/** @internal options.integers, validated (a TypeError naming it), as a mode. */
export function resolveIntegers<K extends string>(api: ApiName, options: OptionsRecord<K>, name: K): IntegersMode {
  const integers = optionalOneOf(api, options, name, INTEGERS);
  return integers === 'bigint' ? INTEGERS_BIGINT : integers === 'string' ? INTEGERS_STRING : INTEGERS_NUMBER;
}

/**
 * The text may hold an integer JSON.parse would round (not public: exported for tests/node/integers.test.ts): it has 16 digits in a row, the length of the
 * shortest integer past 2^53 - 1. Any 16 consecutive characters hold one at an index ≡ 15 (mod 16), so only those
 * are read, and a run measured around the digits found there: 7 times /\d{16}/'s speed on the articles data set,
 * 3.6 times on a numbers-only one (docs/integers.md).
 */
export function mayHoldBigInteger(text: string): boolean {
  const n = text.length;
  for (let i = 15; i < n; i += 16) {
    let c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) continue;
    let start = i;
    while (start > i - 15 && (c = text.charCodeAt(start - 1)) >= 0x30 && c <= 0x39) start--;
    let end = i + 1;
    while (end < start + 16 && (c = text.charCodeAt(end)) >= 0x30 && c <= 0x39) end++;
    if (end - start === 16) return true;
  }
  return false;
}

/** @internal JSON.parse(text), integers past 2^53 - 1 read as `mode` says. `text` must be valid JSON. */
export function parseIntegers(text: string, mode: IntegersMode): unknown {
  return mode !== INTEGERS_NUMBER && mayHoldBigInteger(text) ? parseLossless(text, mode) : JSON.parse(text);
}

/**
 * @internal A number token's value: an integer token (no fraction, no exponent) outside ±(2^53 - 1) as `mode`
 * says, anything else as JSON.parse reads it (Number() reads JSON's grammar with the same rounding, and -0).
 */
export function readNumber(token: string, mode: IntegersMode): number | bigint | string {
  const n = Number(token);
  if (mode === INTEGERS_NUMBER || Number.isSafeInteger(n) || !isIntegerToken(token)) return n;
  // |value| >= 2^53 rounds to a double >= 2^53, which isSafeInteger rejects: no integer token is misjudged.
  return mode === INTEGERS_BIGINT ? BigInt(token) : token;
}

function isIntegerToken(token: string): boolean {
  for (let i = token.length - 1; i >= 0; i--) {
    const c = token.charCodeAt(i);
    if (c === DOT || c === LOWER_E || c === UPPER_E) return false;
  }
  return true;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const DOT = 0x2e;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

type Container = unknown[] | Record<string, unknown>;

/**
 * @internal What JSON.parse gives for valid JSON `text`, integers past 2^53 - 1 read as `mode` says. Iterative
 * (an explicit stack), as V8's JSON.parse, so that maxDepth up to 1,000,000 cannot overflow the call stack.
 */
export function parseLossless(text: string, mode: IntegersMode): unknown {
  const stack: Container[] = [];
  // The key awaiting its value in each open object; null for an array.
  const keys: (string | null)[] = [];
  let i = 0;
  for (;;) {
    let value: unknown;
    i = skipSpace(text, i);
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      i = skipSpace(text, i + 1);
      const close = text.charCodeAt(i);
      if (close === CLOSE_BRACKET || close === CLOSE_BRACE) {
        i++;
        value = c === OPEN_BRACKET ? [] : {};
      } else if (c === OPEN_BRACKET) {
        stack.push([]);
        keys.push(null);
        continue;
      } else {
        const end = stringEnd(text, i);
        keys.push(stringValue(text, i, end));
        stack.push({});
        i = skipSpace(text, end) + 1; // the colon
        continue;
      }
    } else if (c === QUOTE) {
      const end = stringEnd(text, i);
      value = stringValue(text, i, end);
      i = end;
    } else if (c === 0x74) {
      value = true;
      i += 4;
    } else if (c === 0x66) {
      value = false;
      i += 5;
    } else if (c === 0x6e) {
      value = null;
      i += 4;
    } else {
      const start = i;
      i = numberEnd(text, i);
      value = readNumber(text.slice(start, i), mode);
    }
    // Store the value in its container; close the containers it ends.
    for (;;) {
      const depth = stack.length;
      if (depth === 0) return value;
      const container = stack[depth - 1]!;
      const key = keys[depth - 1]!;
      if (key === null) (container as unknown[]).push(value);
      else defineMember(container as Record<string, unknown>, key, value);
      i = skipSpace(text, i);
      const next = text.charCodeAt(i++);
      if (next === COMMA) {
        if (key !== null) {
          const start = skipSpace(text, i);
          const end = stringEnd(text, start);
          keys[depth - 1] = stringValue(text, start, end);
          i = skipSpace(text, end);
          if (text.charCodeAt(i) === COLON) i++;
        }
        break;
      }
      value = container;
      stack.pop();
      keys.pop();
    }
  }
}

/** Sets a member as JSON.parse does: an own data property, `__proto__` included (assignment would set the prototype). */
function defineMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** Index just past the string whose opening quote is at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const c = text.charCodeAt(i++);
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
}

/** The string [start, end), quotes included: its inner text, or JSON.parse's decoding when it holds an escape. */
function stringValue(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  return inner.indexOf('\\') === -1 ? inner : (JSON.parse(text.slice(start, end)) as string);
}

function numberEnd(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(++i);
    // Digits, '+', '-', '.', 'e', 'E': the characters of a number token (the text is valid JSON).
    if (!((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === DOT || c === LOWER_E || c === UPPER_E)) {
      return i;
    }
  }
}

/**
 * @internal JSON.parse's reviver walk (InternalizeJSONProperty) over an already parsed `value`: each member and
 * element revived bottom-up, `undefined` deleting it, then the root under the key ''.
 */
export function revive(value: unknown, reviver: (this: unknown, key: string, value: unknown) => unknown): unknown {
  const root: Record<string, unknown> = { '': value };
  return internalize(root, '', reviver);
}

function internalize(
  holder: object,
  key: string,
  reviver: (this: unknown, key: string, value: unknown) => unknown,
): unknown {
  const value = (holder as Record<string, unknown>)[key];
  if (typeof value === 'object' && value !== null) {
    if (Array.isArray(value)) {
      const length = value.length;
      for (let i = 0; i < length; i++) update(value, String(i), internalize(value, String(i), reviver));
    } else {
      const names = Object.keys(value);
      for (let i = 0; i < names.length; i++) update(value, names[i]!, internalize(value, names[i]!, reviver));
    }
  }
  return reviver.call(holder, key, value);
}

function update(container: object, key: string, value: unknown): void {
  if (value === undefined) Reflect.deleteProperty(container, key);
  else Reflect.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
}
