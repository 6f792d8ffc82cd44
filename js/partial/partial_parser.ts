// The partial parser behind createPartialParser and partialJson: the value of a JSON text still being written,
// after every push. Chunks become text here (strings as given, with pairs split across chunks held back; bytes
// through utf8.ts), the tokenizer reads them, and the tree publishes one immutable snapshot per push. Byte offsets
// are counted as the native parser counts them (the UTF-8 of the text: text_utf8.ts), so errors carry the same
// code, offset, line and column. The public entry, createPartialParser: create_partial_parser.ts.
import { isArrayBuffer, isUint8Array } from '../realm.js';
import { errorFromStatus } from '../errors.js';
import { ELEMENT_TOO_LARGE, INVALID_UTF8, UNEXPECTED_END } from '../native/status.js';
import { misuse, mustBe, type ApiName } from '../validate.js';
import { Tree } from './tree.js';
import { continuesNumber, S_END, S_LITERAL, S_NUMBER, S_STRING } from './grammar.js';
import { type CompletionProbe, trackCompletion, type CompletionSource } from './completion.js';
import { SCHEMA_MISMATCH, Tokenizer } from './tokenizer.js';
import { JsonSchemaError } from '../errors.js';
import { SchemaTracker, validateFinal } from './schema.js';
import { isHighSurrogate, leadByte, utf8Length, wellFormed } from './text_utf8.js';
import { Utf8Reader } from './utf8.js';
import {
  resolvePartialOptions,
  type PartialChunk,
  type PartialJsonOptions,
  type PartialParser,
  type PartialValue,
  type ResolvedPartialOptions,
} from './partial_options.js';

const encoder = new TextEncoder();

function toBytes(chunk: unknown): Uint8Array {
  // Of any realm (an iframe, a vm context): js/realm.ts.
  if (isUint8Array(chunk)) return chunk;
  if (isArrayBuffer(chunk)) return new Uint8Array(chunk);
  throw mustBe('parser.push()', 'chunk', 'a string, a Uint8Array or an ArrayBuffer', chunk);
}

/** @internal The parser behind createPartialParser and partialJson. */
export class PartialCore<T> implements PartialParser<T>, CompletionSource {
  private readonly options_: ResolvedPartialOptions;
  private readonly tree_ = new Tree();
  private readonly tokenizer_: Tokenizer;
  private utf8_: Utf8Reader | null = null;
  /** Bytes pushed as bytes so far (with the text before them): where the next byte chunk starts. */
  private surrogate_ = '';
  private started_ = false;
  private ended_ = false;
  private failure_: Error | null = null;
  /** isComplete()'s handle on this parser (completion.ts), let go at the end. */
  private readonly probe_: CompletionProbe;

  constructor(api: ApiName, options: PartialJsonOptions | undefined) {
    this.options_ = resolvePartialOptions(api, options);
    this.tokenizer_ = new Tokenizer(
      this.tree_,
      this.options_.maxDepth,
      this.options_.numbers === 'partial',
      this.options_.integers,
    );
    const schema = this.options_.schema;
    if (schema !== null && schema.node !== null) this.tokenizer_.schema = new SchemaTracker(schema.node);
    this.probe_ = trackCompletion(this);
  }

  /** @internal isComplete() (completion.ts): the scalar being written, if `snapshot` is the innermost one. */
  writing_(snapshot: object): string | null | undefined {
    const tree = this.tree_;
    if (tree.innermostSnapshot_() !== snapshot) return undefined;
    const state = this.tokenizer_.state;
    if (state !== S_STRING && state !== S_NUMBER && state !== S_LITERAL) return null;
    const frame = tree.frames_[tree.frames_.length - 1]!;
    return frame.isArray ? String(frame.index) : frame.key;
  }

  get value(): PartialValue<T> | undefined {
    return this.tree_.root as PartialValue<T> | undefined;
  }

  get pending(): readonly (string | number)[] | null {
    return this.tokenizer_.pending();
  }

  push(delta: PartialChunk): PartialValue<T> | undefined {
    this.check_('push');
    if (typeof delta === 'string') {
      if (
        this.started_ &&
        this.surrogate_ === '' &&
        (this.utf8_ === null || this.utf8_.held_.length === 0) &&
        this.withinLimit_(delta.length)
      ) {
        // Text that only extends the string being read skips the general path (the commonest delta).
        if (this.tokenizer_.extendString_(delta)) return this.tree_.publish_() as PartialValue<T> | undefined;
      }
      this.pushString_(delta);
    } else this.pushBytes_(toBytes(delta));
    if (this.failure_ !== null) throw this.failure_;
    return this.tree_.root as PartialValue<T> | undefined;
  }

  end(): T {
    return this.finish_(false) as T;
  }

  /** @internal end(), awaiting an asynchronous schema (partialJson). */
  endAsync(): T | Promise<T> {
    return this.finish_(true);
  }

  private finish_(async: boolean): T | Promise<T> {
    this.check_('end');
    const t = this.tokenizer_;
    if (this.surrogate_ !== '') {
      this.surrogate_ = '';
      this.feed_('\ufffd');
    }
    const held = this.utf8_ === null ? 0 : this.utf8_.held_.length;
    if (this.failure_ === null && held > 0 && !t.inStringText_()) {
      // The start of what could have been a byte order mark.
      this.invalidSequence_(this.utf8_!.held_, 0, 0, t.base);
    }
    if (this.failure_ === null) {
      // Otherwise bytes of a sequence cut short are held only inside a string (pushBytes() fails elsewhere).
      const status = held > 0 ? UNEXPECTED_END : t.finish();
      if (t.error === SCHEMA_MISMATCH) this.schemaFailure_(t.base);
      else {
        this.tree_.publish_();
        if (status !== 0) this.fail_(status, t.base + held, 256);
      }
    }
    if (this.failure_ !== null) throw this.failure_;
    this.ended_ = true;
    this.probe_.source_ = null;
    const schema = this.options_.schema;
    if (schema === null) return this.tree_.root as T;
    const where = this.where_(t.base);
    try {
      const result = validateFinal<T>(schema, this.tree_.root, where, async);
      if (result instanceof Promise) {
        return result.catch((error: unknown) => {
          this.failure_ = error as Error;
          throw error;
        });
      }
      return result;
    } catch (error) {
      if (error instanceof JsonSchemaError) this.failure_ = error;
      else this.ended_ = false; // an asynchronous schema in end(): nothing happened
      throw error;
    }
  }

  /**
   * @internal The schema's output for a root that closed, the parser left open (readModelStream: only whitespace
   * may follow, which a later push still checks). Without a schema, the root.
   */
  output_(): T {
    const schema = this.options_.schema;
    if (schema === null) return this.tree_.root as T;
    return validateFinal<T>(schema, this.tree_.root, this.where_(this.tokenizer_.base), false) as T;
  }

  private where_(offset: number): { offset: number; line: number; column: number } {
    const t = this.tokenizer_;
    return { offset, line: t.line, column: offset - t.lineStart + 1 };
  }

  /** The value that ended at `offset` violates the schema: the parse stops, `value` keeps the last push's root. */
  private schemaFailure_(offset: number): void {
    const issue = this.tokenizer_.schema!.issue!;
    this.failure_ = new JsonSchemaError([issue], this.where_(offset));
  }

  private check_(method: 'push' | 'end'): void {
    if (this.failure_ !== null) throw this.failure_;
    if (this.ended_) throw misuse(`parser.${method}()`, 'the parser was closed by end()');
  }

  private fail_(status: number, offset: number, byte: number): void {
    const t = this.tokenizer_;
    this.failure_ = errorFromStatus(
      status,
      byte,
      { offset, line: t.line, column: offset - t.lineStart + 1 },
      this.options_,
    );
  }

  // MARK: input

  private pushString_(text: string): void {
    if (this.utf8_ !== null && this.utf8_.held_.length > 0) {
      // A UTF-8 sequence is waiting for its end: the text's bytes continue it (or break it), as on the wire.
      this.pushBytes_(encoder.encode(text));
      return;
    }
    if (this.surrogate_ !== '') {
      text = this.surrogate_ + text;
      this.surrogate_ = '';
    }
    const n = text.length;
    if (n > 0 && isHighSurrogate(text.charCodeAt(n - 1))) {
      // Its low half may start the next chunk; joined there, the pair is one character.
      this.surrogate_ = text.charAt(n - 1);
      text = text.slice(0, n - 1);
    }
    this.feed_(wellFormed(text));
  }

  private pushBytes_(bytes: Uint8Array): void {
    if (this.surrogate_ !== '') {
      // What TextEncoder writes for a high surrogate that no low one follows.
      this.surrogate_ = '';
      this.feed_('\ufffd');
      if (this.failure_ !== null) return;
    }
    const utf8 = (this.utf8_ ??= new Utf8Reader());
    const decoded = utf8.decode(bytes);
    // decoded.bytes starts with the bytes held from the last chunk: the text's first byte.
    const start = this.tokenizer_.base;
    this.feed_(decoded.text);
    if (this.failure_ !== null) return;
    if (decoded.badStart_ >= 0) {
      this.invalidSequence_(decoded.bytes, decoded.badStart_, decoded.badByte_, start);
    } else if (utf8.held_.length > 0) {
      // A sequence starts outside a string's text: no byte that follows can make that valid. Inside one, its
      // bytes so far count towards the size limit.
      const t = this.tokenizer_;
      if (t.inStringText_()) this.pastLimit_(t.base + utf8.held_.length - 1, true);
      else if (!this.mayBeBom_(utf8.held_)) this.invalidSequence_(utf8.held_, 0, 0, t.base);
    }
  }

  /** The first bytes of a byte order mark at the very start. */
  private mayBeBom_(held: Uint8Array): boolean {
    return !this.started_ && this.tokenizer_.base === 0 && held[0] === 0xef && (held.length < 2 || held[1] === 0xbb);
  }

  /**
   * An invalid (or misplaced) UTF-8 sequence: bytes[badStart] starts it, bytes[badByte] is where it breaks, and
   * bytes[0] is at absolute offset `start`. Inside a string's text that is INVALID_UTF8 at the break; a byte that
   * can start no sequence is that too inside an escape; anywhere else the sequence's first byte is an unexpected
   * character (an escape's, a number's or the grammar's error). A size limit reached first wins, as natively.
   */
  private invalidSequence_(bytes: Uint8Array, badStart: number, badByte: number, start: number): void {
    const t = this.tokenizer_;
    const stray =
      badStart === badByte && bytes[badStart]! >= 0x80 && (bytes[badStart]! < 0xc2 || bytes[badStart]! > 0xf4);
    if (t.inStringText_() || (stray && t.inEscape_())) {
      const offset = start + badByte;
      if (!this.pastLimit_(offset, offset > this.limit_())) this.fail_(INVALID_UTF8, offset, bytes[badByte]!);
      return;
    }
    const offset = start + badStart;
    if (this.pastLimit_(offset, !t.failsToken_(0x80))) return;
    // Any character from U+0080 on gives the error the state gives a non-ASCII byte.
    t.run('\u0080', 0, 1);
    this.fail_(t.error, offset, bytes[badStart]!);
  }

  /** Where the root's bytes must end (the first byte past maxElementBytes), or Infinity before the root. */
  private limit_(): number {
    const t = this.tokenizer_;
    return t.rootStart_ < 0 || t.state === S_END ? Infinity : t.rootStart_ + this.options_.maxElementBytes;
  }

  /** Fails with ELEMENT_TOO_LARGE if a byte of the root at `offset` is past the limit and `limitFirst`. */
  private pastLimit_(offset: number, limitFirst: boolean): boolean {
    const limit = this.limit_();
    if (offset < limit || !limitFirst || !this.partOfRoot_(0x80)) return false;
    this.fail_(ELEMENT_TOO_LARGE, limit, 256);
    return true;
  }

  /** Reads a text (well-formed UTF-16), then publishes; on an error the snapshot shows the text before it. */
  private feed_(text: string): void {
    const t = this.tokenizer_;
    let start = 0;
    if (!this.started_) {
      if (text.length === 0) return;
      this.started_ = true;
      // A byte order mark at the very start is skipped (it still counts in offsets: 3 bytes).
      if (text.charCodeAt(0) === 0xfeff) {
        start = 1;
        t.extra_ += 2;
      }
    }
    const n = text.length;
    if (this.withinLimit_(n)) t.run(text, start, n);
    else this.runLimited_(text, start, n);
    if (t.error === SCHEMA_MISMATCH) {
      // Nothing of this push is shown: the snapshot stays the last push's, whose values all passed.
      if (this.failure_ === null) this.schemaFailure_(t.base + utf8Length(text, t.errorIndex_));
      return;
    }
    if (t.error !== 0) {
      t.settle_(text, t.errorIndex_);
      if (this.failure_ === null)
        this.fail_(t.error, t.base + utf8Length(text, t.errorIndex_), leadByte(text, t.errorIndex_));
    } else {
      t.settle_(text, n);
      t.base += n + t.extra_;
      t.extra_ = 0;
    }
    this.tree_.publish_();
  }

  /** Whether no byte of this text can be past the root's maxElementBytes (a UTF-16 unit is at most 3 bytes). */
  private withinLimit_(n: number): boolean {
    const t = this.tokenizer_;
    if (t.state === S_END) return true;
    const from = t.rootStart_ >= 0 ? t.rootStart_ : t.base;
    return t.base + 3 * n <= from + this.options_.maxElementBytes;
  }

  /** Reads character by character, stopping at the first byte of the root past maxElementBytes. */
  private runLimited_(text: string, start: number, n: number): void {
    const t = this.tokenizer_;
    for (let i = start; i < n && t.error === 0; ) {
      const limit = this.limit_();
      if (limit !== Infinity) {
        const c = text.charCodeAt(i);
        const offset = t.base + i + t.extra_;
        const width = c < 0x80 ? 1 : c < 0x800 || (c & 0xf800) === 0xd800 ? 2 : 3;
        // The limit falls on this character's first byte (an error inside the token there comes first), or on a
        // later byte of a string's character (anywhere else a non-ASCII character is an error at its first byte).
        if (
          offset + width > limit &&
          this.partOfRoot_(c) &&
          (offset >= limit ? !t.failsToken_(c) : t.inStringText_())
        ) {
          t.error = ELEMENT_TOO_LARGE;
          t.errorIndex_ = i;
          this.fail_(ELEMENT_TOO_LARGE, limit, 256);
          return;
        }
      }
      i = t.run(text, i, i + 1);
    }
  }

  /** Whether the next character belongs to the root value (a root number or literal may just be ending). */
  private partOfRoot_(c: number): boolean {
    const t = this.tokenizer_;
    if (this.tree_.frames_.length > 0) return true;
    if (t.state === S_NUMBER) return continuesNumber(c);
    return !t.literalEnded_();
  }
}
