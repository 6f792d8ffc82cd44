// The lexical rules of RFC 9535 (its ABNF, section 2 and Appendix A) over a query's UTF-16 units: blanks, member
// name shorthands, string literals with every escape, integers in the I-JSON range and number literals. A Cursor
// reads one query and fails with a TypeError naming the index where the text stops matching and what the grammar
// expected there, in the message style of js/validate.ts.
import { misuse, type ApiName } from '../validate.js';

/** The largest index or slice bound: I-JSON's exact integer range, ±(2^53 - 1). */
const MAX_INT = Number.MAX_SAFE_INTEGER;

const ESCAPES: Readonly<Record<string, string>> = {
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  '/': '/',
  '\\': '\\',
};

export function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isLowerAlpha(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}

/** name-first: ALPHA / "_" / %x80-D7FF / %xE000-10FFFF, as a code point (a lone surrogate is none of these). */
function isNameFirst(cp: number): boolean {
  return (
    (cp >= 0x41 && cp <= 0x5a) ||
    (cp >= 0x61 && cp <= 0x7a) ||
    cp === 0x5f ||
    (cp >= 0x80 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0x10ffff)
  );
}

/** The hex digits at `at` as a number, or -1 (HEXDIG is case-insensitive, as ABNF strings are). */
function hex4(text: string, at: number): number {
  const digits = text.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(digits) ? parseInt(digits, 16) : -1;
}

/** @internal One query being read: its text, the index reached, and how its errors are named. */
export class Cursor {
  pos_ = 0;

  constructor(
    readonly text_: string,
    private readonly api_: ApiName,
    private readonly subject_: string,
  ) {}

  /** `api: subject "text" at N: problem`. */
  error_(at: number, problem: string): TypeError {
    return misuse(this.api_, `${this.subject_} ${JSON.stringify(this.text_)} at ${at}: ${problem}`);
  }

  /** The error for text that stops matching at `at`: what was expected, and what is there instead. */
  expected_(at: number, what: string): TypeError {
    const found =
      at < this.text_.length
        ? `found ${JSON.stringify(String.fromCodePoint(this.text_.codePointAt(at)!))}`
        : 'found the end';
    return this.error_(at, `expected ${what}, ${found}`);
  }

  /** The UTF-16 unit at the cursor, or -1 at the end. */
  peek_(offset = 0): number {
    const i = this.pos_ + offset;
    return i < this.text_.length ? this.text_.charCodeAt(i) : -1;
  }

  /** Skips S (any blanks) and returns whether there were any. */
  blanks_(): boolean {
    const start = this.pos_;
    while (isBlank(this.peek_())) this.pos_++;
    return this.pos_ > start;
  }

  /** Consumes `token` if the text continues with it. */
  eat_(token: string): boolean {
    if (!this.text_.startsWith(token, this.pos_)) return false;
    this.pos_ += token.length;
    return true;
  }

  /** Consumes `token` or fails naming it. */
  need_(token: string, what = JSON.stringify(token)): void {
    if (!this.eat_(token)) throw this.expected_(this.pos_, what);
  }

  /** member-name-shorthand: name-first *name-char. */
  name_(): string {
    const start = this.pos_;
    const first = this.text_.codePointAt(this.pos_);
    if (first === undefined || !isNameFirst(first)) throw this.expected_(start, 'a member name');
    this.pos_ += first > 0xffff ? 2 : 1;
    for (;;) {
      const cp = this.text_.codePointAt(this.pos_);
      if (cp === undefined || !(isNameFirst(cp) || isDigit(cp))) break;
      this.pos_ += cp > 0xffff ? 2 : 1;
    }
    return this.text_.slice(start, this.pos_);
  }

  /** string-literal in either quote, the cursor on the opening quote; returns the decoded string. */
  string_(): string {
    const quote = this.peek_();
    if (quote !== 0x22 && quote !== 0x27) throw this.expected_(this.pos_, 'a string literal');
    this.pos_++;
    let out = '';
    let runStart = this.pos_;
    for (;;) {
      const c = this.peek_();
      if (c === quote) break;
      if (c === -1) throw this.expected_(this.pos_, `a closing ${String.fromCharCode(quote)}`);
      if (c < 0x20) throw this.expected_(this.pos_, 'a character (controls must be escaped)');
      if (c >= 0xd800 && c <= 0xdfff) {
        // A surrogate pair is a code point of unescaped; a lone surrogate is no character at all.
        const next = this.peek_(1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) this.pos_ += 2;
        else throw this.expected_(this.pos_, 'a character (a lone surrogate is none)');
        continue;
      }
      if (c !== 0x5c) {
        this.pos_++;
        continue;
      }
      out += this.text_.slice(runStart, this.pos_);
      out += this.escape_(quote);
      runStart = this.pos_;
    }
    out += this.text_.slice(runStart, this.pos_);
    this.pos_++;
    return out;
  }

  /** One escape, the cursor on its backslash: ESC (the quote / escapable), with the RFC's surrogate rules. */
  private escape_(quote: number): string {
    const at = this.pos_;
    const c = this.peek_(1);
    if (c === quote) {
      this.pos_ += 2;
      return String.fromCharCode(quote);
    }
    const simple = c === -1 ? undefined : ESCAPES[String.fromCharCode(c)];
    if (simple !== undefined) {
      this.pos_ += 2;
      return simple;
    }
    if (c !== 0x75) throw this.expected_(at + 1, 'an escape (b, f, n, r, t, /, \\, u or the quote)');
    const unit = hex4(this.text_, at + 2);
    if (unit < 0) throw this.expected_(at + 2, 'four hex digits');
    if (unit >= 0xdc00 && unit <= 0xdfff) throw this.expected_(at, 'an escape of a character, not a low surrogate');
    if (unit < 0xd800 || unit > 0xdbff) {
      this.pos_ = at + 6;
      return String.fromCharCode(unit);
    }
    // A high surrogate must be followed by the escape of a low one: together they are one character.
    const low = this.text_.startsWith('\\u', at + 6) ? hex4(this.text_, at + 8) : -1;
    if (low < 0xdc00 || low > 0xdfff) throw this.expected_(at + 6, 'the \\u escape of a low surrogate');
    this.pos_ = at + 12;
    return String.fromCharCode(unit, low);
  }

  /** int: "0" / (["-"] DIGIT1 *DIGIT), within ±(2^53 - 1); null when no int starts here. */
  int_(): number | null {
    const start = this.pos_;
    const negative = this.peek_() === 0x2d;
    const first = this.peek_(negative ? 1 : 0);
    if (!isDigit(first)) return null;
    this.pos_ += negative ? 1 : 0;
    const digitsStart = this.pos_;
    while (isDigit(this.peek_())) this.pos_++;
    const digits = this.text_.slice(digitsStart, this.pos_);
    if (digits.length > 1 && first === 0x30) throw this.expected_(digitsStart + 1, 'no digit after a leading 0');
    if (negative && digits === '0') throw this.expected_(start, 'an integer (-0 is none)');
    if (digits.length > 16 || Number(digits) > MAX_INT) {
      throw this.error_(start, `${this.text_.slice(start, this.pos_)} is outside the integers of I-JSON, ±(2^53 - 1)`);
    }
    return negative ? -Number(digits) : Number(digits);
  }

  /** number: (int / "-0") [ frac ] [ exp ], the cursor on its first character; null when none starts here. */
  number_(): number | null {
    const start = this.pos_;
    if (this.peek_() === 0x2d) this.pos_++;
    const digitsStart = this.pos_;
    while (isDigit(this.peek_())) this.pos_++;
    if (this.pos_ === digitsStart) {
      this.pos_ = start;
      return null;
    }
    if (this.pos_ - digitsStart > 1 && this.text_.charCodeAt(digitsStart) === 0x30) {
      throw this.expected_(digitsStart + 1, 'no digit after a leading 0');
    }
    if (this.peek_() === 0x2e) {
      this.pos_++;
      if (!isDigit(this.peek_())) throw this.expected_(this.pos_, 'a digit of the fraction');
      while (isDigit(this.peek_())) this.pos_++;
    }
    if (this.peek_() === 0x65 || this.peek_() === 0x45) {
      this.pos_++;
      if (this.peek_() === 0x2b || this.peek_() === 0x2d) this.pos_++;
      if (!isDigit(this.peek_())) throw this.expected_(this.pos_, 'a digit of the exponent');
      while (isDigit(this.peek_())) this.pos_++;
    }
    return Number(this.text_.slice(start, this.pos_));
  }
}
