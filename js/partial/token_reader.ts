// The tokens of the incremental JSON grammar behind createPartialParser (tokenizer.ts reads the structure around
// them): a string or a key (its escapes, a surrogate pair), a number, a literal, each cut anywhere and carried
// across pushes; a value is shown to the tree (tree.ts) as far as it goes, and checked against the schema when it
// ends. Errors are the native parser's codes at the same positions: the first character no continuation could
// make valid.
import { INTEGERS_NUMBER, readNumber, type IntegersMode } from '../parse/integers.js';
import {
  S_AFTER_VALUE,
  S_COLON,
  S_END,
  S_STRING,
  S_KEY_STRING,
  S_NUMBER,
  S_LITERAL,
  S_LITERAL_END,
  S_START,
  N_MINUS,
  N_DOT,
  N_E,
  N_ESIGN,
  N_INVALID,
  numberStep,
  isCompleteNumber,
  INVALID_NUMBER,
  INVALID_LITERAL,
  CONTROL_CHARACTER,
  INVALID_ESCAPE,
  INVALID_UNICODE_ESCAPE,
  LITERAL_VALUES,
  ESCAPES,
  hexDigit,
  endsToken,
} from './grammar.js';
import { flatten, type Tree } from './tree.js';
import type { SchemaTracker } from './schema.js';

/** Not a native status: the value that just ended violates the schema (schema.ts holds the issue). */
export const SCHEMA_MISMATCH = 1000;

/** The tokenizer's state and its tokens, for Tokenizer (tokenizer.ts), which reads what lies between them. */
export abstract class TokenReader {
  protected readonly tree_: Tree;
  private readonly partialNumbers_: boolean;
  private readonly integers_: IntegersMode;
  state = S_START;
  /** A native status code once the text is invalid (sticky), else 0. */
  error = 0;
  /** Index in the text of the character the error is at. */
  errorIndex_ = 0;
  /** Absolute byte offset of the current text's first character. */
  base = 0;
  /** UTF-8 bytes minus UTF-16 units of the characters read so far in the current text. */
  extra_ = 0;

  // The string or key being read: decoded text so far, and how much of it the tree shows.
  protected str_ = '';
  protected shown_ = 0;
  /** 0, or 1 after a backslash, or 2 + the hex digits read of a \u escape. */
  private esc_ = 0;
  private hex_ = 0;
  /** A high surrogate escape waiting to see whether a low one follows (never shown alone before that). */
  private held_ = 0;

  // The number being read: its text before the current one, where it starts in the current one, its state.
  protected num_ = '';
  protected numStart_ = 0;
  protected numState_ = N_MINUS;
  protected numShown_: number | bigint | string | undefined = undefined;

  protected lit_ = '';
  protected litPos_ = 0;

  /** The `schema` option's checks (schema.ts), or null. */
  schema: SchemaTracker | null = null;
  protected readonly pathNow_ = (): (string | number)[] => this.tree_.path(true);

  constructor(tree: Tree, partialNumbers: boolean, integers: IntegersMode) {
    this.tree_ = tree;
    this.partialNumbers_ = partialNumbers;
    this.integers_ = integers;
  }

  /**
   * After reading a text up to `end`: shows the string or number still being read as far as it goes, and keeps the
   * part of a number that the next text continues.
   */
  settle_(text: string, end: number): void {
    const state = this.state;
    if (state === S_STRING) {
      if (this.str_.length !== this.shown_) {
        this.shown_ = this.str_.length;
        this.tree_.set(this.str_);
      }
    } else if (state === S_NUMBER) {
      this.num_ += text.slice(this.numStart_, end);
      this.numStart_ = 0;
      if (this.partialNumbers_ && this.error === 0) this.showNumberPrefix_();
    }
  }

  /**
   * The most common delta, more text of the string value being read: appends it and shows it, and returns true.
   * Returns false, having changed nothing, for any text that holds a quote, a backslash, a control character or a
   * surrogate, or in any other state (the general path reads those).
   */
  extendString_(text: string): boolean {
    const n = text.length;
    if (this.state !== S_STRING || this.esc_ !== 0 || this.held_ !== 0 || n === 0) return false;
    let extra = 0;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 128) {
        if (c === 34 || c === 92 || c < 32) return false;
      } else if ((c & 0xf800) === 0xd800) {
        return false;
      } else {
        extra += c < 0x800 ? 1 : 2;
      }
    }
    const s = this.str_ + text;
    this.str_ = s;
    this.shown_ = s.length;
    this.base += n + extra;
    this.tree_.set(s);
    return true;
  }

  /** The end of input: completes a number; returns the native status (0, or UNEXPECTED_END). */
  finish(): number {
    if (this.state === S_NUMBER && isCompleteNumber(this.numState_)) this.completeNumber_(this.num_, 0);
    else if (this.state === S_LITERAL_END) this.state = this.after_();
    return this.state === S_END ? 0 : 13;
  }

  /** Inside a string's text, where any character but a quote, a backslash or a control character is content. */
  inStringText_(): boolean {
    return (this.state === S_STRING || this.state === S_KEY_STRING) && this.esc_ === 0;
  }

  /**
   * Whether `c` would be an error inside the token being read (a string's content or escape, a number, a literal).
   * The native parser reports those before a size limit reached at the same byte, and the limit before any other.
   */
  failsToken_(c: number): boolean {
    switch (this.state) {
      case S_STRING:
      case S_KEY_STRING:
        if (this.esc_ === 0) return c < 32;
        if (this.esc_ === 1) return c !== 117 && (c >= 128 || ESCAPES[c] === undefined);
        return hexDigit(c) < 0;
      case S_NUMBER: {
        const next = numberStep(this.numState_, c);
        return next < 0 && (next === N_INVALID || !isCompleteNumber(this.numState_) || !endsToken(c));
      }
      case S_LITERAL:
        return c !== this.lit_.charCodeAt(this.litPos_);
      case S_LITERAL_END:
        return !endsToken(c);
      default:
        return false;
    }
  }

  /** In a string, an escape begun. */
  inEscape_(): boolean {
    return (this.state === S_STRING || this.state === S_KEY_STRING) && this.esc_ !== 0;
  }

  /** Right after true, false or null, before the character that must end it. */
  literalEnded_(): boolean {
    return this.state === S_LITERAL_END;
  }

  protected fail_(status: number, i: number): number {
    this.error = status;
    this.errorIndex_ = i;
    return i;
  }

  protected after_(): number {
    return this.tree_.frames_.length === 0 ? S_END : S_AFTER_VALUE;
  }

  /** A scalar ended at text[i] (a number: the character after it); false if it violates the schema. */
  private ended_(value: unknown, i: number): boolean {
    if (this.schema!.scalar(this.tree_.frames_, value, this.pathNow_)) return true;
    this.fail_(SCHEMA_MISMATCH, i);
    return false;
  }

  // MARK: strings

  protected string_(text: string, i: number, end: number): number {
    let s = this.str_;
    let extra = this.extra_;
    while (i < end) {
      if (this.esc_ !== 0) {
        this.str_ = s;
        i = this.escape_(text, i, end);
        s = this.str_;
        if (this.error !== 0) break;
        continue;
      }
      const run = i;
      let c = 0;
      for (; i < end; i++) {
        c = text.charCodeAt(i);
        if (c === 34 || c === 92 || c < 32) break;
        // UTF-8 length: 2 bytes below U+0800 and for each half of a surrogate pair, else 3.
        if (c >= 128) extra += c < 0x800 || (c & 0xf800) === 0xd800 ? 1 : 2;
      }
      if (this.held_ !== 0 && (i > run || c === 34)) {
        s += String.fromCharCode(this.held_);
        this.held_ = 0;
      }
      if (i > run) s += run === 0 && i === text.length ? text : text.slice(run, i);
      if (i >= end) break;
      if (c === 92) {
        this.esc_ = 1;
        i++;
      } else if (c === 34) {
        this.str_ = s;
        this.extra_ = extra;
        this.endString_(i);
        return i + 1;
      } else {
        this.str_ = s;
        this.extra_ = extra;
        return this.fail_(CONTROL_CHARACTER, i);
      }
    }
    this.str_ = s;
    this.extra_ = extra;
    return i;
  }

  /** Reads an escape, from just after its backslash or from the middle of it, up to its end or the text's. */
  private escape_(text: string, i: number, end: number): number {
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (this.esc_ === 1) {
        if (c === 117) {
          this.esc_ = 2;
          this.hex_ = 0;
          continue;
        }
        const decoded = c < 128 ? ESCAPES[c] : undefined;
        if (decoded === undefined) return this.fail_(INVALID_ESCAPE, i);
        this.esc_ = 0;
        this.flushHeld_();
        this.str_ += decoded;
        return i + 1;
      }
      const digit = hexDigit(c);
      if (digit < 0) return this.fail_(INVALID_UNICODE_ESCAPE, i);
      this.hex_ = this.hex_ * 16 + digit;
      if (++this.esc_ < 6) continue;
      this.esc_ = 0;
      this.unit_(this.hex_);
      return i + 1;
    }
    return i;
  }

  /** A \u escape's code unit: a surrogate pair joins, a high surrogate waits for its partner. */
  private unit_(u: number): void {
    if (this.held_ !== 0) {
      if ((u & 0xfc00) === 0xdc00) {
        this.str_ += String.fromCharCode(this.held_, u);
        this.held_ = 0;
        return;
      }
      this.flushHeld_();
    }
    if ((u & 0xfc00) === 0xd800) this.held_ = u;
    else this.str_ += String.fromCharCode(u);
  }

  private flushHeld_(): void {
    if (this.held_ === 0) return;
    this.str_ += String.fromCharCode(this.held_);
    this.held_ = 0;
  }

  private endString_(i: number): void {
    const s = this.str_;
    if (this.state === S_KEY_STRING) {
      this.tree_.key(s);
      this.state = S_COLON;
      return;
    }
    if (s.length !== this.shown_) this.tree_.set(s);
    flatten(s);
    if (this.schema !== null) this.ended_(s, i);
    this.state = this.after_();
  }

  // MARK: numbers and literals

  protected number_(text: string, i: number, end: number): number {
    let ns = this.numState_;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      const next = numberStep(ns, c);
      if (next >= 0) ns = next;
      else {
        this.numState_ = ns;
        if (next === N_INVALID || !isCompleteNumber(ns) || !endsToken(c)) return this.fail_(INVALID_NUMBER, i);
        // A character that ends the number but cannot come next is the grammar's error: the snapshot before it
        // does not show the number, which only that character ended.
        if (this.fits_(c)) this.completeNumber_(this.num_ + text.slice(this.numStart_, i), i);
        else this.state = this.after_();
        return i;
      }
    }
    this.numState_ = ns;
    return i;
  }

  /** Whether `c` may follow a complete value here (whitespace, or the separator or closer the container takes). */
  private fits_(c: number): boolean {
    if (c === 44 || c === 93 || c === 125) {
      const frames = this.tree_.frames_;
      if (frames.length === 0) return false;
      return c === 44 || frames[frames.length - 1]!.isArray === (c === 93);
    }
    return c === 32 || c === 10 || c === 13 || c === 9;
  }

  /** A number ends at text[i] (the character after it; 0 at the end of input). */
  private completeNumber_(text: string, i: number): void {
    // Number() reads JSON's number grammar exactly as JSON.parse does (same rounding, -0, Infinity past the range).
    const value = this.integers_ === INTEGERS_NUMBER ? +text : readNumber(text, this.integers_);
    if (this.numShown_ === undefined || !Object.is(value, this.numShown_)) this.tree_.set(value);
    this.num_ = '';
    if (this.schema !== null) this.ended_(value, i);
    this.state = this.after_();
  }

  /** numbers: 'partial': the longest prefix that is a number, once there is one. */
  private showNumberPrefix_(): void {
    const ns = this.numState_;
    if (ns === N_MINUS) return;
    const text = this.num_;
    const cut = ns === N_DOT || ns === N_E ? 1 : ns === N_ESIGN ? 2 : 0;
    const shown = cut === 0 ? text : text.slice(0, text.length - cut);
    const value = this.integers_ === INTEGERS_NUMBER ? +shown : readNumber(shown, this.integers_);
    if (this.numShown_ !== undefined && Object.is(value, this.numShown_)) return;
    this.numShown_ = value;
    this.tree_.set(value);
  }

  protected literal_(text: string, i: number, end: number): number {
    if (this.state === S_LITERAL_END) {
      if (!endsToken(text.charCodeAt(i))) return this.fail_(INVALID_LITERAL, i);
      this.state = this.after_();
      return i;
    }
    const lit = this.lit_;
    let k = this.litPos_;
    for (; i < end; i++) {
      if (text.charCodeAt(i) !== lit.charCodeAt(k)) return this.fail_(INVALID_LITERAL, i);
      if (++k === lit.length) {
        this.tree_.set(LITERAL_VALUES[lit]);
        this.state = S_LITERAL_END;
        if (this.schema !== null && !this.ended_(LITERAL_VALUES[lit], i)) return i;
        return i + 1;
      }
    }
    this.litPos_ = k;
    return i;
  }
}
