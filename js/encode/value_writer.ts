// How the encoder writes a value once it is resolved (toJSON, the replacer and promises are the Stepper's, stepper.ts):
// the separator and key before it, a scalar's text (a long string in pieces), an object or an array opened as a
// frame that the Stepper walks, an iterable or stream opened as a source, a rawJson handed to the Stepper. What
// JSON.stringify can write whole goes to it (fast_path.ts).
import type { ChunkWriter } from './chunk_writer.js';
import {
  arrayFrame,
  OBJECT,
  objectFrame,
  OMITTED_IS_ERROR,
  ROOT,
  type Frame,
  type ListFrame,
  type NestedFrame,
} from './frames.js';
import { depthError } from './depth_limit.js';
import { FastPath } from './fast_path.js';
import { Layout } from './layout.js';
import { LONG_STRING_CHARS, LongString } from './long_string.js';
import { BIGINT_ERROR, BIGINT_NUMBER, type ResolvedStringifyOptions } from './options.js';
import { circularError, PlainCheck } from './plain_check.js';
import { rawJsonPayload, type RawJsonSource } from './raw_json.js';
import { describeOmitted, NOT_A_SOURCE, NOT_BOXED, openSource, sourceKind, unbox } from './value_kinds.js';

/** What writing a value gives: undefined once written, or a promise to await first (the module, for a rawJson). */
export type Written = PromiseLike<unknown> | undefined;

/** @internal The value-writing half of the Stepper (stepper.ts), its base. */
export abstract class ValueWriter {
  /** The open containers and sources, innermost last. */
  readonly frames_: Frame[] = [];
  /** The objects the stepper is inside of (for cycles). */
  readonly ancestors_ = new Set<object>();
  readonly propertyList_: string[] | undefined;
  protected readonly out_: ChunkWriter;
  private readonly layout_: Layout;
  private readonly bigint_: ResolvedStringifyOptions['bigint'];
  /** Null with a replacer function (it must see every member). */
  protected readonly fast_: FastPath | null;
  private readonly maxDepth_: number;
  protected readonly longString_ = new LongString();

  constructor(options: ResolvedStringifyOptions, out: ChunkWriter) {
    this.out_ = out;
    this.layout_ = new Layout(options.gap, options.propertyList_);
    this.propertyList_ = options.propertyList_;
    this.bigint_ = options.bigint;
    this.maxDepth_ = options.maxDepth;
    this.fast_ =
      options.replacer === undefined
        ? new FastPath(
            new PlainCheck(this.ancestors_, options.bigint === BIGINT_ERROR, options.maxDepth),
            this.layout_,
            out,
          )
        : null;
  }

  /** Writes a rawJson value: whole, or as a frame reading its stream (the Stepper's, as it may wait). */
  protected abstract raw_(value: object, payload: RawJsonSource): Written;

  /** Writes the separator (and the key, in an object) and the resolved `value`. */
  protected emit_(key: string | number, value: unknown): Written {
    const frame = this.frames_[this.frames_.length - 1]!;
    const type = typeof value;
    const omitted = value === undefined || type === 'function' || type === 'symbol';
    if (frame.kind === ROOT) {
      if (omitted) {
        if (frame.omitted === OMITTED_IS_ERROR) {
          throw new TypeError(`sluice: the value to write has no JSON text (it is ${describeOmitted(value)})`);
        }
        this.out_.write('null');
        return undefined;
      }
      return this.value_(value, frame.depth);
    }
    if (frame.kind === OBJECT) {
      if (omitted) return undefined;
      this.out_.write(this.layout_.separator_(frame) + JSON.stringify(key as string) + this.layout_.colon_);
    } else {
      this.separator_(frame);
      if (omitted) {
        this.out_.write('null');
        return undefined;
      }
    }
    return this.value_(value, frame.depth + 1);
  }

  /** Writes a resolved value that has JSON text, at nesting `depth`. */
  private value_(value: unknown, depth: number): Written {
    switch (typeof value) {
      case 'string':
        if (value.length > LONG_STRING_CHARS) this.longString_.start(value, this.out_);
        else this.out_.write(JSON.stringify(value));
        return undefined;
      case 'number':
        // String() gives JSON.stringify's digits, and "0" for -0.
        this.out_.write(Number.isFinite(value) ? String(value) : 'null');
        return undefined;
      case 'boolean':
        this.out_.write(value ? 'true' : 'false');
        return undefined;
      case 'bigint':
        this.out_.write(this.bigintText_(value));
        return undefined;
      default:
        if (value === null) {
          this.out_.write('null');
          return undefined;
        }
        return this.object_(value as object, depth);
    }
  }

  private bigintText_(value: bigint): string {
    if (this.bigint_ === BIGINT_ERROR) throw new TypeError('Do not know how to serialize a BigInt');
    return this.bigint_ === BIGINT_NUMBER ? value.toString() : `"${value}"`;
  }

  private object_(value: object, depth: number): Written {
    const raw = rawJsonPayload(value);
    if (raw !== undefined) return this.raw_(value, raw);
    if (this.fast_ !== null) {
      // Throws the cycle TypeError when `value` is an ancestor.
      if (this.fast_.value(value, depth)) return undefined;
    } else if (this.ancestors_.has(value)) {
      throw circularError();
    }
    let frame: Frame;
    if (Array.isArray(value)) {
      frame = arrayFrame(value, depth);
    } else {
      const kind = sourceKind(value);
      if (kind !== NOT_A_SOURCE) {
        frame = openSource(kind, value, depth);
      } else {
        const primitive = unbox(value);
        if (primitive !== NOT_BOXED) return this.value_(primitive, depth);
        frame = objectFrame(value as Record<string, unknown>, depth, this.propertyList_ ?? Object.keys(value));
      }
    }
    this.ancestors_.add(value);
    this.frames_.push(frame);
    // Checked with the frame pushed, so that a source just opened is closed with the others.
    if (depth >= this.maxDepth_) throw depthError(this.frames_.slice(0, -1), this.maxDepth_);
    this.out_.write(frame.kind === OBJECT ? '{' : '[');
    return undefined;
  }

  // MARK: text

  protected end_(frame: ListFrame, bracket: string): void {
    this.frames_.pop();
    this.ancestors_.delete(frame.container);
    this.out_.write(this.layout_.closing_(frame, bracket));
  }

  protected separator_(frame: NestedFrame): void {
    const text = this.layout_.separator_(frame);
    if (text !== '') this.out_.write(text);
  }
}
