// The encoder: writes the JSON text of a value that may hold sources (promises, iterables, async iterables,
// streams, raw JSON) at any depth, as JSON.stringify would write the value with every source materialised.
//
// It is a loop over an explicit stack of frames (one per open object, array or source), so it can stop at any
// point without unwinding: when the consumer wants no more bytes (`sink.demand` false) it returns PAUSE, and when
// it must wait for a source it returns the promise to wait for. `write()` drives it and is the only async part.
// Subtrees without sources go to JSON.stringify in one piece (PlainCheck decides), plain array elements in
// batches of about BATCH_CHARS characters; only the rest is walked here, member by member.
import { ChunkWriter } from './chunk_writer.js';
import { scheduleMacrotask } from './macrotask.js';
import { BIGINT_ERROR, BIGINT_NUMBER, type ResolvedStringifyOptions, type StringifyReplacer } from './options.js';
import { circularError, PlainCheck } from './plain_check.js';
import { RAW_ELEMENTS, rawJsonPayload, type RawJsonSource } from './raw_json.js';
import { bomLength, createValidator, runtimeLoading, validateWhole } from './raw_validator.js';
import type { PushParser } from '../parse/parser.js';

/** @internal What the encoder writes to, and asks whether the consumer wants more. */
export interface EncoderSink {
  /** The consumer wants more: sources may be advanced. */
  readonly demand: boolean;
  /** Resolves once `demand` is true again, or the output was cancelled. */
  waitForDemand(): Promise<void>;
  enqueue(chunk: Uint8Array): void;
}

/** @internal Thrown out of write() once cancel() was called; the stream layers drop it. */
export const CANCELLED: unique symbol = Symbol('sluice.cancelled') as never;

/** @internal How write() treats a root value without JSON text (undefined, a function, a symbol). */
export const OMITTED_IS_ERROR = 0;
/** @internal ... or writes `null`, as in an array. */
export const OMITTED_AS_NULL = 1;

// Values whose estimated text is at most this long are written by one JSON.stringify call; larger ones member by
// member. Under V8's 64 Ki-character two-byte limit for regular heap strings, above which allocation is slower.
const SMALL_CHARS = 32 * 1024;
// Plain array elements are written by one JSON.stringify per slice of about this many characters: fewer calls
// than one per element, without building strings large enough to leave the young generation.
const BATCH_CHARS = 12 * 1024;

// Frame kinds.
const ROOT = 0;
const OBJECT = 1;
const ARRAY = 2;
const ITERATOR = 3;
const ASYNC_ITERATOR = 4;
const READER = 5;
/** The iterator of parseJsonArray(..., { output: 'bytes' }): elements are written as they are. */
const RAW_ELEMENTS_ITERATOR = 6;
/** A rawJson(ReadableStream): chunks are validated, then written. */
const RAW_READER = 7;

// What the promise the driver awaits stands for.
const WAIT_NEXT = 0; // the next result of the top frame's source
const WAIT_VALUE = 1; // a promise value, before toJSON and the replacer
const WAIT_FINAL = 2; // a promise returned by toJSON or the replacer: written as it resolves
const WAIT_RUNTIME = 3; // the WebAssembly module, to validate a rawJson

const PAUSE = Symbol('pause');
type Step = PromiseLike<unknown> | typeof PAUSE | undefined;

const NOT_BOXED = Symbol('not boxed');
const toString = Object.prototype.toString;
const textEncoder = new TextEncoder();
const NO_BYTES = new Uint8Array(0);

class Frame {
  readonly kind: number;
  /** The object or source being written (an ancestor, for cycle detection); the holder for a root. */
  readonly container: any;
  /** Nesting depth of the container: its members are written at depth + 1 (a root's value at depth). */
  readonly depth: number;
  keys: readonly string[] | null = null;
  /** Next member or element index. */
  index = 0;
  /** Members or elements written so far: what the next separator is. */
  count = 0;
  /** The iterator or reader of a source. */
  source: any = null;
  /** The source still needs return() or cancel() if the encoder stops early. */
  open = false;
  /** The source delivered its first result. */
  primed = false;
  parser: PushParser<Uint8Array> | null = null;
  /** RAW_READER: first bytes held back until they cannot be a byte order mark (null once decided). */
  head: Uint8Array | null = null;
  /** ROOT: the member of `container` to write, and its value. */
  key = '';
  value: unknown = undefined;
  omitted = OMITTED_IS_ERROR;

  constructor(kind: number, container: any, depth: number) {
    this.kind = kind;
    this.container = container;
    this.depth = depth;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

/** The primitive of a Number, String, Boolean or BigInt object (JSON.stringify writes that), else NOT_BOXED. */
function unbox(value: object): unknown {
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) return NOT_BOXED;
  const tag = toString.call(value);
  // The tag can be forged with Symbol.toStringTag; each valueOf throws unless the internal slot is there.
  try {
    switch (tag) {
      case '[object Number]':
        Number.prototype.valueOf.call(value);
        return Number(value); // ToNumber, as JSON.stringify: a user valueOf is honoured
      case '[object String]':
        String.prototype.valueOf.call(value);
        return String(value);
      case '[object Boolean]':
        return Boolean.prototype.valueOf.call(value);
      case '[object BigInt]':
        return BigInt.prototype.valueOf.call(value);
    }
  } catch {
    // A forged tag: an ordinary object.
  }
  return NOT_BOXED;
}

function describeChunk(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
}

/** @internal */
export class Encoder {
  private readonly sink: EncoderSink;
  private readonly out: ChunkWriter;
  private readonly gap: string;
  private readonly colon: string;
  private readonly replacer: StringifyReplacer | undefined;
  private readonly propertyList: string[] | undefined;
  private readonly bigint: ResolvedStringifyOptions['bigint'];
  /** No replacer function: plain subtrees may go to JSON.stringify. */
  private readonly fast: boolean;
  /** StreamedJsonResponse.from: no timed flush of the first chunk while a source has not answered yet. */
  private readonly holdFirstChunk: boolean;
  private readonly frames: Frame[] = [];
  private readonly ancestors = new Set<object>();
  private readonly check: PlainCheck;
  /** '\n' followed by the indentation of each depth, built on first use. */
  private readonly newlines: string[] = ['\n'];

  private waitTag = WAIT_NEXT;
  private pendingHolder: unknown = undefined;
  /** The member name, or the element index (made a string only if toJSON or a replacer needs it). */
  private pendingKey: string | number = '';
  private pendingRaw: object | null = null;
  /** Inside write(). */
  private busy = false;
  /** write() awaits a source (not the consumer). */
  private waiting = false;
  private flushArmed = false;
  private chunks = 0;
  private cancelled = false;

  constructor(options: ResolvedStringifyOptions, sink: EncoderSink, holdFirstChunk = false) {
    this.sink = sink;
    this.out = new ChunkWriter(options.chunkBytes, (chunk) => {
      this.chunks++;
      sink.enqueue(chunk);
    });
    this.gap = options.gap;
    this.colon = options.gap === '' ? ':' : ': ';
    this.replacer = options.replacer;
    this.propertyList = options.propertyList;
    this.bigint = options.bigint;
    this.fast = options.replacer === undefined;
    this.holdFirstChunk = holdFirstChunk;
    this.check = new PlainCheck(this.ancestors, options.bigint === BIGINT_ERROR);
  }

  // MARK: driver

  /**
   * Writes the JSON text of `value`, the member `key` of `holder` (`holder` matters to a replacer function only),
   * at nesting `depth`. Resolves when all of it is in the output buffer; rejects with the error that stopped it,
   * after closing every source it opened, or with CANCELLED. One write at a time.
   */
  async write(holder: unknown, key: string, value: unknown, depth: number, omitted: number): Promise<void> {
    const root = new Frame(ROOT, holder, depth);
    root.key = key;
    root.value = value;
    root.omitted = omitted;
    this.frames.push(root);
    this.busy = true;
    try {
      let step = this.run();
      while (step !== undefined) {
        if (step === PAUSE) {
          await this.sink.waitForDemand();
          if (this.cancelled) throw CANCELLED;
          step = this.run();
          continue;
        }
        this.waiting = true;
        this.armFlush();
        let result: unknown;
        try {
          result = await step;
        } catch (error) {
          if (!this.cancelled && this.waitTag === WAIT_NEXT) {
            // The source itself failed: it is finished, return() or cancel() must not be called on it.
            this.frames[this.frames.length - 1]!.open = false;
          }
          throw error;
        } finally {
          this.waiting = false;
        }
        if (this.cancelled) throw CANCELLED;
        step = this.resume(result);
        if (step === undefined) step = this.run();
      }
    } catch (error) {
      if (this.cancelled) throw CANCELLED;
      await this.close(error);
      throw error;
    } finally {
      this.busy = false;
    }
  }

  /** Writes text between values (the stream layers' brackets and separators). */
  writeText(text: string): void {
    this.out.write(text);
  }

  /** Sends every byte written so far. */
  flush(): void {
    this.out.flush();
  }

  /** Flushes what is buffered once the writer stays idle for a task (the stream layers, between writes). */
  flushWhenIdle(): void {
    this.armFlush();
  }

  /**
   * Stops for good: calls return() on every open iterator and cancel(reason) on every open stream, innermost
   * first, each awaited before the next (an outer generator's `finally` may depend on the inner one's).
   */
  cancel(reason: unknown): Promise<void> {
    if (this.cancelled) return Promise.resolve();
    this.cancelled = true;
    return this.close(reason);
  }

  private async close(reason: unknown): Promise<void> {
    const frames = this.frames;
    while (frames.length > 0) {
      const frame = frames.pop()!;
      if (frame.kind !== ROOT) this.ancestors.delete(frame.container);
      frame.parser?.close();
      if (!frame.open) continue;
      frame.open = false;
      const source = frame.source;
      try {
        if (frame.kind === READER || frame.kind === RAW_READER) {
          await source.cancel(reason);
        } else if (typeof source.return === 'function') {
          await source.return();
        }
      } catch {
        // The output failed or went away already; a source that fails to stop is not the consumer's error.
      }
    }
    this.ancestors.clear();
  }

  private armFlush(): void {
    if (this.flushArmed || !this.out.pending) return;
    this.flushArmed = true;
    scheduleMacrotask(this.onFlushTimer);
  }

  private readonly onFlushTimer = (): void => {
    this.flushArmed = false;
    if (this.cancelled || !this.out.pending) return;
    if (this.busy && !this.waiting) return; // running, or paused because the consumer is full
    if (this.holdFirstChunk && this.chunks === 0 && this.waitingForFirstAnswer()) return;
    this.out.flush();
  };

  /** The pending wait is on a promise value or on a source that has delivered nothing yet. */
  private waitingForFirstAnswer(): boolean {
    if (!this.busy) return false;
    if (this.waitTag !== WAIT_NEXT) return true;
    return !this.frames[this.frames.length - 1]!.primed;
  }

  // MARK: stepping

  /** Runs until the stack is empty (undefined), the consumer is full (PAUSE) or a source must be awaited. */
  private run(): Step {
    const frames = this.frames;
    for (;;) {
      const frame = frames[frames.length - 1];
      if (frame === undefined) return undefined;
      if (!this.sink.demand) return PAUSE;
      let step: Step;
      switch (frame.kind) {
        case ROOT:
          if (frame.index !== 0) {
            frames.pop();
            continue;
          }
          frame.index = 1;
          step = this.item(frame.container, frame.key, frame.value);
          break;
        case OBJECT: {
          const keys = frame.keys!;
          if (frame.index === keys.length) {
            this.end(frame, '}');
            continue;
          }
          const key = keys[frame.index++]!;
          step = this.item(frame.container, key, frame.container[key]);
          break;
        }
        case ARRAY: {
          const array = frame.container as unknown[];
          const index = frame.index;
          if (index >= array.length) {
            this.end(frame, ']');
            continue;
          }
          if (this.fast && this.batch(frame, array, index)) continue;
          frame.index = index + 1;
          step = this.item(array, index, array[index]);
          break;
        }
        case ITERATOR: {
          let result: IteratorResult<unknown>;
          try {
            result = frame.source.next();
            if (typeof result !== 'object' || result === null) throw resultError(result);
          } catch (error) {
            frame.open = false;
            throw error;
          }
          frame.primed = true;
          if (result.done) {
            frame.open = false;
            this.end(frame, ']');
            continue;
          }
          const value = result.value;
          if (this.fast && typeof value === 'object' && value !== null && this.plainElement(frame, value)) continue;
          step = this.item(frame.container, frame.index++, value);
          break;
        }
        default:
          // ASYNC_ITERATOR, READER, RAW_ELEMENTS_ITERATOR, RAW_READER: the next result comes later.
          return this.advance(frame);
      }
      if (step !== undefined) return step;
    }
  }

  /** Continues after the awaited promise settled with `result`. */
  private resume(result: unknown): Step {
    switch (this.waitTag) {
      case WAIT_NEXT:
        return this.next(result);
      case WAIT_VALUE: {
        const holder = this.pendingHolder;
        this.pendingHolder = undefined;
        const value = this.transform(holder, this.pendingKey, result);
        if (isThenable(value)) {
          this.waitTag = WAIT_FINAL;
          return value;
        }
        return this.emit(this.pendingKey, value);
      }
      case WAIT_FINAL:
        return this.emit(this.pendingKey, result);
      default: {
        const raw = this.pendingRaw!;
        this.pendingRaw = null;
        return this.raw(raw, rawJsonPayload(raw)!);
      }
    }
  }

  /** A result of the top frame's async source. */
  private next(result: unknown): Step {
    const frame = this.frames[this.frames.length - 1]!;
    frame.primed = true;
    if (typeof result !== 'object' || result === null) {
      frame.open = false;
      throw resultError(result);
    }
    const { done, value } = result as IteratorResult<unknown>;
    if (done) {
      frame.open = false;
      if (frame.kind === RAW_READER) this.endRaw(frame);
      else this.end(frame, ']');
      return undefined;
    }
    if (frame.kind === RAW_ELEMENTS_ITERATOR) {
      if (!(value instanceof Uint8Array)) {
        throw new TypeError(`sluice: a raw element must be a Uint8Array, got ${describeChunk(value)}`);
      }
      this.separator(frame);
      frame.index++;
      this.out.writeBytes(value);
      return undefined;
    }
    if (frame.kind === RAW_READER) {
      this.rawChunk(frame, value);
      return undefined;
    }
    if (this.fast && typeof value === 'object' && value !== null && this.plainElement(frame, value)) {
      return this.advance(frame);
    }
    return this.item(frame.container, frame.index++, value);
  }

  /** Asks the top frame's async source for its next result, unless the consumer is full. */
  private advance(frame: Frame): Step {
    if (!this.sink.demand) return PAUSE;
    let next: unknown;
    try {
      next = frame.kind === READER || frame.kind === RAW_READER ? frame.source.read() : frame.source.next();
    } catch (error) {
      frame.open = false;
      throw error;
    }
    this.waitTag = WAIT_NEXT;
    return isThenable(next) ? next : Promise.resolve(next);
  }

  /**
   * The common case of a source's element, a plain row, written without the general path (item, transform,
   * emit): true if `value` was plain and small, and is written.
   */
  private plainElement(frame: Frame, value: object): boolean {
    // At the top, a thenable, a toJSON or a rawJson is NOT_PLAIN: item() handles those.
    if (this.check.measure(value, SMALL_CHARS, false) < 0) return false;
    this.separator(frame);
    frame.index++;
    this.stringify(value, frame.depth + 1);
    return true;
  }

  /** holder[key] is `value`: resolve it (promise, toJSON, replacer) and write it. */
  private item(holder: unknown, key: string | number, value: unknown): Step {
    if (isThenable(value)) {
      this.pendingHolder = holder;
      this.pendingKey = key;
      this.waitTag = WAIT_VALUE;
      return value;
    }
    value = this.transform(holder, key, value);
    if (isThenable(value)) {
      this.pendingKey = key;
      this.waitTag = WAIT_FINAL;
      return value;
    }
    return this.emit(key, value);
  }

  /** What JSON.stringify's SerializeJSONProperty does before writing: toJSON(key), then the replacer. */
  private transform(holder: unknown, key: string | number, value: unknown): unknown {
    const replacer = this.replacer;
    // The root's holder is created only when a replacer can see it, holding the value before toJSON.
    if (replacer !== undefined && holder === undefined) holder = { [key]: value };
    if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        key = String(key);
        value = toJSON.call(value, key);
      }
    }
    return replacer === undefined ? value : replacer.call(holder, String(key), value);
  }

  /** Writes the separator (and the key, in an object) and the resolved `value`. */
  private emit(key: string | number, value: unknown): Step {
    const frame = this.frames[this.frames.length - 1]!;
    const type = typeof value;
    const omitted = value === undefined || type === 'function' || type === 'symbol';
    if (frame.kind === OBJECT) {
      if (omitted) return undefined;
      this.out.write(this.separatorText(frame) + JSON.stringify(key as string) + this.colon);
    } else if (frame.kind === ROOT) {
      if (omitted) {
        if (frame.omitted === OMITTED_IS_ERROR) {
          throw new TypeError(`sluice: the value to write has no JSON text (it is ${describeOmitted(value)})`);
        }
        this.out.write('null');
        return undefined;
      }
      return this.value(value, frame.depth);
    } else {
      this.separator(frame);
      if (omitted) {
        this.out.write('null');
        return undefined;
      }
    }
    return this.value(value, frame.depth + 1);
  }

  /** Writes a resolved value that has JSON text, at nesting `depth`. */
  private value(value: unknown, depth: number): Step {
    switch (typeof value) {
      case 'string':
        this.out.write(JSON.stringify(value));
        return undefined;
      case 'number':
        // String() gives JSON.stringify's digits, and "0" for -0.
        this.out.write(Number.isFinite(value) ? String(value) : 'null');
        return undefined;
      case 'boolean':
        this.out.write(value ? 'true' : 'false');
        return undefined;
      case 'bigint':
        this.out.write(this.bigintText(value));
        return undefined;
      default:
        if (value === null) {
          this.out.write('null');
          return undefined;
        }
        return this.object(value as object, depth);
    }
  }

  private bigintText(value: bigint): string {
    if (this.bigint === BIGINT_ERROR) throw new TypeError('Do not know how to serialize a BigInt');
    return this.bigint === BIGINT_NUMBER ? value.toString() : `"${value}"`;
  }

  private object(value: object, depth: number): Step {
    const raw = rawJsonPayload(value);
    if (raw !== undefined) return this.raw(value, raw);
    if (this.fast) {
      // Throws the cycle TypeError when `value` is an ancestor.
      if (this.check.measure(value, SMALL_CHARS, false) >= 0) {
        this.stringify(value, depth);
        return undefined;
      }
    } else if (this.ancestors.has(value)) {
      throw circularError();
    }
    const record = value as Record<string | symbol, any>;
    let kind = OBJECT;
    let source: any = null;
    if (Array.isArray(value)) {
      kind = ARRAY;
    } else if (record[RAW_ELEMENTS] === true) {
      kind = RAW_ELEMENTS_ITERATOR;
      source = record[Symbol.asyncIterator]();
    } else if (typeof record.getReader === 'function') {
      kind = READER;
      source = record.getReader();
    } else if (typeof record[Symbol.asyncIterator] === 'function') {
      kind = ASYNC_ITERATOR;
      source = record[Symbol.asyncIterator]();
    } else if (typeof record[Symbol.iterator] === 'function' && !ArrayBuffer.isView(value) &&
      typeof record.charAt !== 'function') {
      kind = ITERATOR;
      source = record[Symbol.iterator]();
    } else {
      const primitive = unbox(value);
      if (primitive !== NOT_BOXED) return this.value(primitive, depth);
    }
    const frame = new Frame(kind, value, depth);
    if (source !== null) {
      frame.source = source;
      frame.open = true;
    }
    if (kind === OBJECT) frame.keys = this.propertyList ?? Object.keys(value);
    this.ancestors.add(value);
    this.frames.push(frame);
    this.out.write(kind === OBJECT ? '{' : '[');
    return undefined;
  }

  /** A plain, small value: JSON.stringify writes it, its lines re-indented to `depth`. */
  private stringify(value: object, depth: number): void {
    let text = JSON.stringify(value, this.propertyList, this.gap);
    // Outside strings (where JSON.stringify escapes them) newlines are only its indentation.
    if (this.gap !== '' && depth > 0) text = text.replaceAll('\n', this.newline(depth));
    this.out.write(text);
  }

  /**
   * Writes plain array elements from `start` on with one JSON.stringify of a slice, as long as they are plain
   * and about BATCH_CHARS long in all. False when the element at `start` needs the general path.
   */
  private batch(frame: Frame, array: unknown[], start: number): boolean {
    const length = array.length;
    let left = BATCH_CHARS;
    let end = start;
    while (end < length && left > 0) {
      const item = array[end];
      if (typeof item === 'object' && item !== null) {
        // nested: JSON.stringify calls a Date's toJSON itself (with the slice index, which Date ignores).
        const size = this.check.measure(item, left, true);
        if (size < 0) break;
        left -= size;
      } else if (typeof item === 'string') {
        left -= item.length + 2;
      } else if (typeof item === 'bigint' && this.bigint !== BIGINT_ERROR) {
        break;
      } else {
        left -= 6;
      }
      end++;
    }
    if (end === start) return false;
    const slice = start === 0 && end === length ? array : array.slice(start, end);
    let text = JSON.stringify(slice, this.propertyList, this.gap);
    // "[a,b]" -> "a,b". With a gap, "[\n<gap>a,\n<gap>b\n]" -> "\n<gap>a,\n<gap>b": the separator's newline and
    // indentation included, once re-based to this depth.
    if (this.gap === '') {
      text = text.slice(1, -1);
    } else {
      text = text.slice(1, -2);
      if (frame.depth > 0) text = text.replaceAll('\n', this.newline(frame.depth));
    }
    this.out.write(frame.count === 0 ? text : ',' + text);
    frame.count += end - start;
    frame.index = end;
    return true;
  }

  // MARK: raw JSON

  private raw(value: object, payload: RawJsonSource): Step {
    const loading = runtimeLoading();
    if (loading !== undefined) {
      this.pendingRaw = value;
      this.waitTag = WAIT_RUNTIME;
      return loading;
    }
    if (typeof payload === 'string' || payload instanceof Uint8Array) {
      const bytes = typeof payload === 'string' ? textEncoder.encode(payload) : payload;
      // Validated whole before any byte of it is written.
      validateWhole(bytes);
      this.out.writeBytes(bomLength(bytes) === 0 ? bytes : bytes.subarray(3));
      return undefined;
    }
    const validator = createValidator();
    let reader: ReadableStreamDefaultReader<Uint8Array>;
    try {
      reader = payload.getReader();
    } catch (error) {
      validator.close();
      throw error;
    }
    const frame = new Frame(RAW_READER, value, 0);
    frame.source = reader;
    frame.open = true;
    frame.parser = validator;
    frame.head = NO_BYTES;
    this.frames.push(frame);
    return undefined;
  }

  /** A chunk of a rawJson stream: validated, then written (a leading byte order mark dropped). */
  private rawChunk(frame: Frame, chunk: unknown): void {
    if (!(chunk instanceof Uint8Array)) {
      throw new TypeError(`sluice: rawJson(stream) chunks must be Uint8Array, got ${describeChunk(chunk)}`);
    }
    frame.parser!.push(chunk);
    let bytes = chunk;
    const head = frame.head;
    if (head !== null) {
      if (head.length > 0) {
        bytes = new Uint8Array(head.length + chunk.length);
        bytes.set(head);
        bytes.set(chunk, head.length);
      }
      if (bytes.length < 3 && isBomPrefix(bytes)) {
        frame.head = bytes;
        return;
      }
      frame.head = null;
      if (bomLength(bytes) !== 0) bytes = bytes.subarray(3);
    }
    this.out.writeBytes(bytes);
  }

  private endRaw(frame: Frame): void {
    const parser = frame.parser!;
    frame.parser = null;
    // Throws on truncated input; the parser is freed either way.
    parser.end();
    if (frame.head !== null && frame.head.length > 0) this.out.writeBytes(frame.head);
    this.frames.pop();
  }

  // MARK: text

  private end(frame: Frame, bracket: string): void {
    this.frames.pop();
    this.ancestors.delete(frame.container);
    this.out.write(frame.count === 0 || this.gap === '' ? bracket : this.newline(frame.depth) + bracket);
  }

  private separatorText(frame: Frame): string {
    const first = frame.count++ === 0;
    if (this.gap === '') return first ? '' : ',';
    return first ? this.newline(frame.depth + 1) : ',' + this.newline(frame.depth + 1);
  }

  private separator(frame: Frame): void {
    const text = this.separatorText(frame);
    if (text !== '') this.out.write(text);
  }

  private newline(depth: number): string {
    const newlines = this.newlines;
    while (newlines.length <= depth) newlines.push(newlines[newlines.length - 1] + this.gap);
    return newlines[depth]!;
  }
}

function isBomPrefix(bytes: Uint8Array): boolean {
  return (bytes.length < 1 || bytes[0] === 0xef) && (bytes.length < 2 || bytes[1] === 0xbb);
}

function resultError(result: unknown): TypeError {
  return new TypeError(`sluice: an iterator returned ${describeChunk(result)} instead of a result object`);
}

function describeOmitted(value: unknown): string {
  return typeof value === 'function' ? 'a function' : typeof value === 'symbol' ? 'a symbol' : 'undefined';
}
