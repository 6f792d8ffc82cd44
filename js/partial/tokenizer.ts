// The incremental JSON grammar behind createPartialParser, over UTF-16 text: a state machine that carries every
// token across pushes and tells the tree (tree.ts) what the text says so far. This file reads the structure (values
// starting, containers opening and closing, keys, commas, colons, whitespace); its base TokenReader
// (token_reader.ts) reads the tokens, a string, a number or a literal cut anywhere. Pure JS: a push of a few
// characters costs less here than one call into WebAssembly (docs/partial.md). Errors are the native parser's codes
// at the same positions (tests/node/partial_errors.test.ts compares them): the first character no continuation
// could make valid.
import { INTEGERS_NUMBER, type IntegersMode } from '../parse/integers.js';
import {
  S_VALUE,
  S_ARRAY_FIRST,
  S_AFTER_VALUE,
  S_OBJECT_FIRST,
  S_KEY,
  S_COLON,
  S_END,
  S_STRING,
  S_KEY_STRING,
  S_NUMBER,
  S_LITERAL,
  S_LITERAL_END,
  S_START,
  N_MINUS,
  N_ZERO,
  N_INT,
  EXPECTED_VALUE,
  EXPECTED_COMMA_OR_BRACKET,
  EXPECTED_COMMA_OR_BRACE,
  EXPECTED_KEY,
  EXPECTED_COLON,
  TRAILING_DATA,
  DEPTH_LIMIT,
  LITERALS,
} from './grammar.js';
import { SCHEMA_MISMATCH, TokenReader } from './token_reader.js';
import type { Tree } from './tree.js';

// The status partial_parser.ts tells a schema issue by, with the tokenizer it drives.
export { SCHEMA_MISMATCH } from './token_reader.js';

export class Tokenizer extends TokenReader {
  private readonly maxDepth_: number;
  /** 1-based line, and the absolute byte offset where it starts. */
  line = 1;
  lineStart = 0;
  /** Absolute byte offset of the root value's first byte, or -1 before it. */
  rootStart_ = -1;

  constructor(tree: Tree, maxDepth: number, partialNumbers: boolean, integers: IntegersMode = INTEGERS_NUMBER) {
    super(tree, partialNumbers, integers);
    this.maxDepth_ = maxDepth;
  }

  /** Reads text[start .. end); returns where it stopped (end, or the error's index). */
  run(text: string, start: number, end: number): number {
    let i = start;
    while (i < end && this.error === 0) {
      const state = this.state;
      if (state === S_STRING || state === S_KEY_STRING) i = this.string_(text, i, end);
      else if (state === S_NUMBER) i = this.number_(text, i, end);
      else if (state === S_LITERAL || state === S_LITERAL_END) i = this.literal_(text, i, end);
      else i = this.structure_(text, i, end);
    }
    return i;
  }

  /** The innermost value still being written, as a path; null before the root and after it. */
  pending(): (string | number)[] | null {
    const state = this.state;
    if (state === S_START || state === S_END || (state === S_LITERAL_END && this.tree_.frames_.length === 0))
      return null;
    return this.tree_.path(state === S_STRING || state === S_NUMBER || state === S_LITERAL);
  }

  /** A value starts: an array gets its next element; the root records where it starts. */
  private beginSlot_(i: number): void {
    const frames = this.tree_.frames_;
    const depth = frames.length;
    if (depth === 0) this.rootStart_ = this.base + i + this.extra_;
    else if (frames[depth - 1]!.isArray) this.tree_.nextIndex_();
  }

  // MARK: structure

  private structure_(text: string, i: number, end: number): number {
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        if (c === 10) {
          this.line++;
          this.lineStart = this.base + i + 1 + this.extra_;
        }
        continue;
      }
      switch (this.state) {
        case S_ARRAY_FIRST:
        case S_VALUE:
        case S_START:
          if (c !== 93 || this.state !== S_ARRAY_FIRST) return this.value_(c, i);
          if (!this.close_(i)) return i;
          continue;
        case S_AFTER_VALUE: {
          const isArray = this.tree_.frames_[this.tree_.frames_.length - 1]!.isArray;
          if (c === 44) this.state = isArray ? S_VALUE : S_KEY;
          else if (c === (isArray ? 93 : 125)) {
            if (!this.close_(i)) return i;
          } else return this.fail_(isArray ? EXPECTED_COMMA_OR_BRACKET : EXPECTED_COMMA_OR_BRACE, i);
          continue;
        }
        case S_OBJECT_FIRST:
        case S_KEY:
          if (c === 125 && this.state === S_OBJECT_FIRST) {
            if (!this.close_(i)) return i;
            continue;
          }
          if (c !== 34) return this.fail_(EXPECTED_KEY, i);
          this.state = S_KEY_STRING;
          this.str_ = '';
          return i + 1;
        case S_COLON:
          if (c !== 58) return this.fail_(EXPECTED_COLON, i);
          this.state = S_VALUE;
          continue;
        default:
          return this.fail_(TRAILING_DATA, i);
      }
    }
    return i;
  }

  private value_(c: number, i: number): number {
    if (c === 34) {
      this.beginSlot_(i);
      this.state = S_STRING;
      this.str_ = '';
      this.shown_ = 0;
      this.tree_.set('');
      return i + 1;
    }
    if (c === 123 || c === 91) {
      if (this.tree_.frames_.length >= this.maxDepth_) return this.fail_(DEPTH_LIMIT, i);
      this.beginSlot_(i);
      if (this.schema !== null) this.schema.open(this.tree_.frames_, c === 91);
      this.tree_.open(c === 91);
      this.state = c === 91 ? S_ARRAY_FIRST : S_OBJECT_FIRST;
      return i + 1;
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      this.beginSlot_(i);
      this.state = S_NUMBER;
      this.numState_ = c === 45 ? N_MINUS : c === 48 ? N_ZERO : N_INT;
      this.num_ = '';
      this.numStart_ = i;
      this.numShown_ = undefined;
      return i + 1;
    }
    const literal = LITERALS[c];
    if (literal === undefined) return this.fail_(EXPECTED_VALUE, i);
    this.beginSlot_(i);
    this.state = S_LITERAL;
    this.lit_ = literal;
    this.litPos_ = 1;
    return i + 1;
  }

  /** Closes the innermost container at text[i]; false if its value violates the schema. */
  private close_(i: number): boolean {
    const value = this.tree_.close();
    this.state = this.after_();
    if (this.schema === null || this.schema.close(value, this.pathNow_)) return true;
    this.fail_(SCHEMA_MISMATCH, i);
    return false;
  }
}
