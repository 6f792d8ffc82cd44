// The JSONPath subset as JS reads it, so that a path is checked at the call (parseJsonArray and JsonArrayStream
// load the module later) and a message can point at the offending character. It is the grammar of
// src/select/selector.cpp (parse_selector) read over UTF-16 units instead of UTF-8 bytes: every non-ASCII unit
// is a name character there as every non-ASCII byte is here, so both accept the same paths and fail at the same
// character (tests/node/json_path.test.ts checks this over generated paths against the native compiler). The
// native parser is then given canonicalPath() of the steps, which is well-formed text whatever the user wrote.
import { misuse, type ApiName } from '../validate.js';

/** @internal One step: a member name, an array index, or `null` for the wildcard (`.*`, `[*]`). */
export type PathStep = string | number | null;

/** @internal What the subset supports, as error messages list it. */
export const SUPPORTED_PATHS = `$, .name, ['name'], ["name"], [*], .*, [N]`;

// 2^53 as the digits an index is compared with: a longer or greater run is refused, as in the native parser.
const MAX_INDEX_DIGITS = '9007199254740992';

const DOLLAR = 0x24;
const DOT = 0x2e;
const STAR = 0x2a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const BACKSLASH = 0x5c;
const ZERO = 0x30;

/** What a backslash and this character stand for in a quoted name (`\u` aside). */
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

function isNameFirst(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 0x80;
}

function isNameChar(c: number): boolean {
  return isNameFirst(c) || (c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Digits without a leading zero, compared as text: longer is greater, equal lengths compare digit by digit. */
function beyondMaxIndex(digits: string): boolean {
  return (
    digits.length > MAX_INDEX_DIGITS.length || (digits.length === MAX_INDEX_DIGITS.length && digits > MAX_INDEX_DIGITS)
  );
}

function hex4(path: string, at: number): number {
  const digits = path.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(digits) ? parseInt(digits, 16) : -1;
}

/**
 * @internal Compiles `path` to its steps, or returns the index (in UTF-16 units) of the character where it stops
 * being a supported path (`path.length` when it ends too early).
 */
export function compilePath(path: string): PathStep[] | number {
  const n = path.length;
  if (n === 0 || path.charCodeAt(0) !== DOLLAR) return 0;
  const steps: PathStep[] = [];
  let i = 1;
  while (i < n) {
    const c = path.charCodeAt(i);
    if (c === DOT) {
      i++;
      if (i < n && path.charCodeAt(i) === STAR) {
        steps.push(null);
        i++;
        continue;
      }
      if (i >= n || !isNameFirst(path.charCodeAt(i))) return i;
      const start = i;
      while (i < n && isNameChar(path.charCodeAt(i))) i++;
      steps.push(path.slice(start, i));
      continue;
    }
    if (c !== OPEN_BRACKET) return i;
    i++;
    while (i < n && isBlank(path.charCodeAt(i))) i++;
    if (i >= n) return i;
    const first = path.charCodeAt(i);
    if (first === STAR) {
      steps.push(null);
      i++;
    } else if (first === QUOTE || first === APOSTROPHE) {
      const name = quoted(path, i);
      if (typeof name === 'number') return name;
      steps.push(name.value);
      i = name.end;
    } else if (isDigit(first)) {
      if (first === ZERO && i + 1 < n && isDigit(path.charCodeAt(i + 1))) return i + 1;
      const start = i;
      while (i < n && isDigit(path.charCodeAt(i))) {
        // The digit that takes the index past 2^53 is the offending one.
        if (beyondMaxIndex(path.slice(start, i + 1))) return i;
        i++;
      }
      steps.push(Number(path.slice(start, i)));
    } else {
      return i; // negative indices, slices, filters, unions: not supported in a stream
    }
    while (i < n && isBlank(path.charCodeAt(i))) i++;
    if (i >= n || path.charCodeAt(i) !== CLOSE_BRACKET) return i;
    i++;
  }
  return steps;
}

/** A quoted name starting at `path[start]`: its value and the index after its closing quote, or the failing index. */
function quoted(path: string, start: number): { value: string; end: number } | number {
  const n = path.length;
  const quote = path.charCodeAt(start);
  let value = '';
  let i = start + 1;
  for (;;) {
    if (i >= n) return n;
    const c = path.charCodeAt(i);
    if (c === quote) return { value, end: i + 1 };
    if (c < 0x20) return i;
    if (c !== BACKSLASH) {
      value += path[i];
      i++;
      continue;
    }
    if (i + 1 >= n) return n;
    const e = path[i + 1]!;
    if (e === 'u') {
      // Each \u escape is one UTF-16 unit: a high then a low escape make a pair, a lone one stays lone (the native
      // side writes it as WTF-8, which is how it decodes the same escape in a member key).
      const unit = hex4(path, i + 2);
      if (unit < 0) return i;
      value += String.fromCharCode(unit);
      i += 6;
      continue;
    }
    const escaped = ESCAPES[e];
    if (escaped === undefined) return i + 1;
    value += escaped;
    i += 2;
  }
}

/**
 * @internal The path's steps as text the native parser reads back to the same steps: `$`, then `[*]`, `[N]` or
 * `["name"]` (JSON.stringify writes a lone surrogate as a `\u` escape, so the text is always well-formed).
 */
export function canonicalPath(steps: readonly PathStep[]): string {
  let out = '$';
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k]!;
    if (step === null) out += '[*]';
    else if (typeof step === 'number') out += `[${step}]`;
    else out += `[${JSON.stringify(step)}]`;
  }
  return out;
}

/**
 * @internal The misuse error for a path that compilePath() refused at index `at`:
 * `api: subject "$..a" is not a supported path: unexpected "." at index 2 (supported: ...)`.
 */
export function pathError(api: ApiName, subject: string, path: string, at: number): TypeError {
  const found =
    at < path.length ? `unexpected ${JSON.stringify(String.fromCodePoint(path.codePointAt(at)!))}` : 'unexpected end';
  return misuse(
    api,
    `${subject} ${JSON.stringify(path)} is not a supported path: ${found} at index ${at} (supported: ${SUPPORTED_PATHS})`,
  );
}

/** @internal The steps of `path` (named `subject` in messages); a TypeError for an unsupported one. */
export function checkPath(api: ApiName, subject: string, path: string): PathStep[] {
  const steps = compilePath(path);
  if (typeof steps === 'number') throw pathError(api, subject, path, steps);
  return steps;
}
