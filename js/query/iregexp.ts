// I-Regexp (RFC 9485), the regular expressions of RFC 9535's match() and search(): the pattern is checked against
// the I-Regexp grammar (RFC 9485 §5.3) and translated to a JS RegExp with the `u` flag, so that it reads code
// points, as I-Regexp does. The translation is needed, not just a check: JS reads `.` as "anything but line
// terminators" (U+2028 too), I-Regexp as [^\n\r]. `^` and `$` are NormalChars in RFC 9485's ABNF, but its mappings
// to ECMAScript and PCRE (§5) pass them through, where they are anchors, and the JSONPath compliance test suite
// reads them so (`match(@, '^ab.*')` matches "abc"): anchors here too, outside classes.
// Every literal character outside [A-Za-z0-9] is written as \u{...}, valid in `u` mode inside and outside classes,
// so that no JS escape rule has to be remembered.

/** What `match` and `search` compile a pattern to; `null`: not an I-Regexp (the function is then false). */
type Compiled = RegExp | null;

/** Patterns compiled, per function, kept for a filter that tests every element with the same pattern. */
const anchoredCache = new Map<string, Compiled>();
const unanchoredCache = new Map<string, Compiled>();
const CACHE_LIMIT = 256;

/** A reader of one pattern; `fail` is thrown on anything outside the grammar and caught in translate(). */
class Reader {
  pos_ = 0;
  constructor(readonly text_: string) {}

  /** The code point at the cursor, or -1 at the end. A lone surrogate is returned as itself (and refused). */
  peek_(): number {
    return this.pos_ < this.text_.length ? this.text_.codePointAt(this.pos_)! : -1;
  }

  next_(): number {
    const cp = this.peek_();
    this.pos_ += cp > 0xffff ? 2 : 1;
    return cp;
  }

  eat_(cp: number): boolean {
    if (this.peek_() !== cp) return false;
    this.pos_++;
    return true;
  }
}

const fail = new Error('not an I-Regexp');

/** A literal code point as JS `u` pattern text, valid in and out of a class. */
function literal(cp: number): string {
  const isWord = (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  return isWord ? String.fromCharCode(cp) : `\\u{${cp.toString(16)}}`;
}

/** A code point of the text, not a surrogate (I-Regexp's character ranges all skip D800-DFFF). */
function isScalar(cp: number): boolean {
  return cp >= 0 && (cp < 0xd800 || cp > 0xdfff);
}

/** NormalChar: anything but the metacharacters ( ) * + . ? [ \ ] { | } and surrogates. */
function isNormalChar(cp: number): boolean {
  return (
    isScalar(cp) &&
    !(cp >= 0x28 && cp <= 0x2b) &&
    cp !== 0x2e &&
    cp !== 0x3f &&
    !(cp >= 0x5b && cp <= 0x5d) &&
    !(cp >= 0x7b && cp <= 0x7d)
  );
}

/** SingleCharEsc after its backslash: ( ) * + - . ? [ \ ] ^ { | } n r t; -1 when none. */
function singleCharEscape(cp: number): number {
  if (cp === 0x6e) return 0x0a;
  if (cp === 0x72) return 0x0d;
  if (cp === 0x74) return 0x09;
  const ok =
    (cp >= 0x28 && cp <= 0x2b) ||
    cp === 0x2d ||
    cp === 0x2e ||
    cp === 0x3f ||
    (cp >= 0x5b && cp <= 0x5e) ||
    (cp >= 0x7b && cp <= 0x7d);
  return ok ? cp : -1;
}

/** IsCategory's letters: the major class and the minor classes it may be followed by. */
const CATEGORIES: Readonly<Record<string, string>> = {
  L: 'lmotu',
  M: 'cen',
  N: 'dlo',
  P: 'cdefios',
  Z: 'lps',
  S: 'ckmo',
  C: 'cfno',
};

/** After `\p` or `\P`: "{" charProp "}", translated to the same JS property escape. */
function category(r: Reader, complement: boolean): string {
  if (!r.eat_(0x7b)) throw fail;
  const major = String.fromCharCode(r.next_());
  const minors = CATEGORIES[major];
  if (minors === undefined) throw fail;
  let name = major;
  const minor = r.peek_();
  if (minor >= 0x61 && minor <= 0x7a && minors.includes(String.fromCharCode(minor))) {
    name += String.fromCharCode(minor);
    r.pos_++;
  }
  if (!r.eat_(0x7d)) throw fail;
  return `${complement ? '\\P' : '\\p'}{${name}}`;
}

/** An escape after its backslash, in or out of a class: a code point (a SingleCharEsc) or a category's text. */
function backslash(r: Reader): number | string {
  const cp = r.next_();
  if (cp === 0x70 || cp === 0x50) return category(r, cp === 0x50);
  const single = singleCharEscape(cp);
  if (single < 0) throw fail;
  return single;
}

/** CCchar: a class character, or a SingleCharEsc; a category escape returns its text (not a range end). */
function classAtom(r: Reader): number | string {
  const cp = r.next_();
  if (cp === 0x5c) return backslash(r);
  if (!isScalar(cp) || cp === 0x2d || (cp >= 0x5b && cp <= 0x5d)) throw fail;
  return cp;
}

/** charClassExpr after its "[": [ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]". */
function charClass(r: Reader): string {
  let out = r.eat_(0x5e) ? '[^' : '[';
  let first = true;
  for (;;) {
    const cp = r.peek_();
    if (cp === 0x5d && !first) {
      r.pos_++;
      return `${out}]`;
    }
    if (cp === 0x2d) {
      // "-" only first or last: then "]" must follow, unless it is the first.
      r.pos_++;
      out += literal(0x2d);
      if (!first && r.peek_() !== 0x5d) throw fail;
      first = false;
      continue;
    }
    if (cp === -1) throw fail;
    first = false;
    const start = classAtom(r);
    if (typeof start === 'string') {
      out += start;
      continue;
    }
    // A range needs a CCchar after "-"; "-" then "]" is the trailing "-".
    const save = r.pos_;
    if (r.eat_(0x2d) && r.peek_() !== 0x5d && r.peek_() !== -1) {
      const end = classAtom(r);
      if (typeof end === 'string' || end < start) throw fail;
      out += `${literal(start)}-${literal(end)}`;
    } else {
      r.pos_ = save;
      out += literal(start);
    }
  }
}

/** atom: NormalChar / charClass / "(" i-regexp ")". */
function atom(r: Reader): string {
  const cp = r.next_();
  if (cp === 0x2e) return '[^\\n\\r]';
  if (cp === 0x5e || cp === 0x24) return String.fromCharCode(cp); // anchors, see the top
  if (cp === 0x5b) return charClass(r);
  if (cp === 0x28) {
    const inner = alternation(r);
    if (!r.eat_(0x29)) throw fail;
    return `(?:${inner})`;
  }
  if (cp === 0x5c) {
    const e = backslash(r);
    return typeof e === 'string' ? e : literal(e);
  }
  if (!isNormalChar(cp)) throw fail;
  return literal(cp);
}

/** quantifier: * + ? or "{" n [ "," [ m ] ] "}"; "" when none follows. */
function quantifier(r: Reader): string {
  const cp = r.peek_();
  if (cp === 0x2a || cp === 0x2b || cp === 0x3f) {
    r.pos_++;
    return String.fromCharCode(cp);
  }
  if (cp !== 0x7b) return '';
  const m = /^\{(\d+)(,(\d*))?\}/.exec(r.text_.slice(r.pos_));
  if (m === null) throw fail;
  if (m[3] !== undefined && m[3] !== '' && Number(m[3]) < Number(m[1])) throw fail;
  r.pos_ += m[0].length;
  return m[0];
}

/** i-regexp = branch *( "|" branch ), up to a ")" or the end. */
function alternation(r: Reader): string {
  let out = '';
  for (;;) {
    const cp = r.peek_();
    if (cp === -1 || cp === 0x29) return out;
    if (cp === 0x7c) {
      r.pos_++;
      out += '|';
      continue;
    }
    out += atom(r) + quantifier(r);
  }
}

/** `pattern` as JS pattern text, or null when it is not an I-Regexp. */
export function translate(pattern: string): string | null {
  const r = new Reader(pattern);
  try {
    const out = alternation(r);
    return r.pos_ === pattern.length ? out : null; // an unmatched ")"
  } catch (e) {
    if (e === fail) return null;
    throw e;
  }
}

function compile(pattern: string, anchored: boolean): Compiled {
  const map = anchored ? anchoredCache : unanchoredCache;
  let re = map.get(pattern);
  if (re !== undefined) return re;
  const text = translate(pattern);
  re = null;
  if (text !== null) {
    try {
      re = new RegExp(anchored ? `^(?:${text})$` : text, 'u');
    } catch {
      // The grammar passed but JS refuses (a quantifier too large for it): no match, as for an invalid pattern.
    }
  }
  if (map.size >= CACHE_LIMIT) map.clear();
  map.set(pattern, re);
  return re;
}

/** @internal RFC 9535 match(): whether the whole of `value` matches the I-Regexp `pattern`; false for non-strings. */
export function iregexpMatch(value: unknown, pattern: unknown): boolean {
  if (typeof value !== 'string' || typeof pattern !== 'string') return false;
  return compile(pattern, true)?.test(value) ?? false;
}

/** @internal RFC 9535 search(): whether some substring of `value` matches `pattern`; false for non-strings. */
export function iregexpSearch(value: unknown, pattern: unknown): boolean {
  if (typeof value !== 'string' || typeof pattern !== 'string') return false;
  return compile(pattern, false)?.test(value) ?? false;
}
