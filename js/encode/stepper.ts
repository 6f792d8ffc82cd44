// The encoder's stepping machine: the synchronous part of the encoder. run() writes from the top of the frame
// stack until the stack is empty, the consumer is full (PAUSE) or a promise must be awaited (returned, with
// `waitTag` saying what it stands for); resume() continues with what the promise gave. Each value is resolved here
// (promises, toJSON, the replacer) and written by the base, ValueWriter (value_writer.ts).
import { isUint8Array } from '../realm.js';
import type { ChunkWriter } from './chunk_writer.js';
import {
  ARRAY,
  ITERATOR,
  OBJECT,
  RAW_ELEMENTS_ITERATOR,
  RAW_READER,
  READER,
  ROOT,
  type AsyncIteratorFrame,
  type RawReaderFrame,
  type ReaderFrame,
} from './frames.js';
import { clock } from './macrotask.js';
import type { ReplacerFunction, ResolvedStringifyOptions } from './options.js';
import { rawJsonPayload, type RawJsonSource } from './raw_json.js';
import { runtimeLoading } from './raw_validator.js';
import { endRaw, openRawReader, writeRawChunk, writeRawWhole } from './raw_writer.js';
import { describeChunk, isThenable, resultError } from './value_kinds.js';
import { ValueWriter, type Written } from './value_writer.js';

/** What the consumer is asked: whether it wants more bytes now. */
export interface Demand {
  readonly demand: boolean;
}

// What the promise returned by run() or resume() stands for.
/** The next result of `pendingSource`. */
export const WAIT_NEXT = 0;
/** A promise value, before toJSON and the replacer. */
export const WAIT_VALUE = 1;
/** A promise returned by toJSON or the replacer: written as it resolves. */
export const WAIT_FINAL = 2;
/** The WebAssembly module, to validate a rawJson. */
export const WAIT_RUNTIME = 3;
export type WaitTag = typeof WAIT_NEXT | typeof WAIT_VALUE | typeof WAIT_FINAL | typeof WAIT_RUNTIME;

/** run() stopped because the consumer is full. */
export const PAUSE: unique symbol = Symbol('pause') as never;
/** run() stopped because it has run for SLICE_MS since `sliceStart`: the driver lets a task run, then calls it again. */
export const YIELD: unique symbol = Symbol('yield') as never;
export type Step = PromiseLike<unknown> | typeof PAUSE | typeof YIELD | undefined;

// How long the encoder writes before it lets other tasks run (timers, I/O, other requests): a consumer reading in
// a loop of promise jobs (for await, pipeTo) never does. Well under the 50 ms a task may take before it is a "long
// task"; each step of the loop is bounded (a batch of about 12 K characters, a plain value of at most 32 K), so
// the longest stretch is SLICE_MS plus one round of CHECK_EVERY steps. Costs one macrotask per SLICE_MS.
const SLICE_MS = 10;
// Steps of run()'s loop between two looks at the clock (about 40 ns each).
const CHECK_EVERY = 16;

/** The frames whose next result comes later. */
export type AsyncSourceFrame = AsyncIteratorFrame | ReaderFrame | RawReaderFrame;

/** @internal */
export class Stepper extends ValueWriter {
  /** What the promise last returned stands for. */
  waitTag_: WaitTag = WAIT_NEXT;
  /** WAIT_NEXT: the frame whose source was asked for its next result. */
  pendingSource_: AsyncSourceFrame | null = null;
  private readonly sink_: Demand;
  private readonly replacer_: ReplacerFunction | undefined;
  private pendingHolder_: unknown = undefined;
  /** The member name, or the element index (made a string only if toJSON or a replacer needs it). */
  private pendingKey_: string | number = '';
  /** WAIT_RUNTIME: the rawJson value to write once the module is loaded. */
  pendingRaw_: object | null = null;
  /** When the current stretch of writing without a macrotask began (set by the driver). */
  sliceStart_ = 0;
  /** Steps of run()'s loop, to look at the clock every CHECK_EVERY. */
  private steps_ = 0;

  constructor(options: ResolvedStringifyOptions, out: ChunkWriter, sink: Demand) {
    super(options, out);
    this.sink_ = sink;
    this.replacer_ = options.replacer;
  }

  /** Runs until the stack is empty (undefined), the consumer is full (PAUSE) or a source must be awaited. */
  run(): Step {
    const frames = this.frames_;
    for (;;) {
      const frame = frames[frames.length - 1];
      if (frame === undefined) return undefined;
      if (!this.sink_.demand) return PAUSE;
      // Counted across calls: run() may do one step per call (an async source's element), in promise jobs.
      if (this.steps_++ % CHECK_EVERY === 0 && this.sliceOver_()) return YIELD;
      if (this.longString_.active) {
        this.longString_.step(this.out_);
        this.steps_ = 0; // a piece is long work: look at the clock before the next
        continue;
      }
      let step: Step;
      switch (frame.kind) {
        case ROOT:
          if (frame.started) {
            frames.pop();
            continue;
          }
          frame.started = true;
          step = this.item_(frame.holder_, frame.key, frame.value);
          break;
        case OBJECT: {
          const keys = frame.keys;
          if (frame.index === keys.length) {
            this.end_(frame, '}');
            continue;
          }
          const key = keys[frame.index++]!;
          step = this.item_(frame.container, key, frame.container[key]);
          break;
        }
        case ARRAY: {
          const array = frame.container;
          const index = frame.index;
          if (index >= array.length) {
            this.end_(frame, ']');
            continue;
          }
          if (this.fast_?.batch(frame, array, index)) continue;
          frame.index = index + 1;
          step = this.item_(array, index, array[index]);
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
          if (result.done === true) {
            frame.open = false;
            this.end_(frame, ']');
            continue;
          }
          const value = result.value;
          if (this.fast_ !== null && typeof value === 'object' && value !== null && this.fast_.element_(frame, value)) {
            continue;
          }
          step = this.item_(frame.container, frame.index++, value);
          break;
        }
        default:
          // The next result comes later.
          return this.advance_(frame);
      }
      if (step !== undefined) return step;
    }
  }

  /** The current stretch of writing has lasted SLICE_MS. */
  sliceOver_(): boolean {
    return clock() - this.sliceStart_ > SLICE_MS;
  }

  /** Continues after the awaited promise settled with `result`. */
  resume(result: unknown): Step {
    switch (this.waitTag_) {
      case WAIT_NEXT:
        return this.next_(this.pendingSource_!, result);
      case WAIT_VALUE: {
        const holder = this.pendingHolder_;
        this.pendingHolder_ = undefined;
        const value = this.transform_(holder, this.pendingKey_, result);
        if (isThenable(value)) {
          this.waitTag_ = WAIT_FINAL;
          return value;
        }
        return this.emit_(this.pendingKey_, value);
      }
      case WAIT_FINAL:
        return this.emit_(this.pendingKey_, result);
      default: {
        const raw = this.pendingRaw_!;
        this.pendingRaw_ = null;
        return this.raw_(raw, rawJsonPayload(raw)!);
      }
    }
  }

  /**
   * What `result`, the value of the awaited promise, brought to be written: a value, or an element of a source of
   * values; undefined when nothing (an end, raw bytes, the module).
   */
  awaitedValue_(result: unknown): unknown {
    switch (this.waitTag_) {
      case WAIT_VALUE:
      case WAIT_FINAL:
        return result;
      case WAIT_NEXT: {
        const kind = this.pendingSource_!.kind;
        if (kind === RAW_READER || kind === RAW_ELEMENTS_ITERATOR) return undefined;
        const next = result as IteratorResult<unknown> | null;
        return typeof next === 'object' && next !== null && next.done !== true ? next.value : undefined;
      }
      default:
        return undefined;
    }
  }

  /** A result of the async source of `frame`, the top frame. */
  private next_(frame: AsyncSourceFrame, result: unknown): Step {
    frame.primed = true;
    if (typeof result !== 'object' || result === null) {
      frame.open = false;
      throw resultError(result);
    }
    const { done, value } = result as IteratorResult<unknown>;
    if (done === true) {
      frame.open = false;
      if (frame.kind === RAW_READER) {
        endRaw(this.out_, frame);
        this.frames_.pop();
      } else {
        this.end_(frame, ']');
      }
      return undefined;
    }
    if (frame.kind === RAW_ELEMENTS_ITERATOR) {
      if (!isUint8Array(value)) {
        throw new TypeError(`sluice: a raw element must be a Uint8Array, got ${describeChunk(value)}`);
      }
      this.separator_(frame);
      frame.index++;
      this.out_.writeBytes_(value);
      return undefined;
    }
    if (frame.kind === RAW_READER) {
      writeRawChunk(this.out_, frame, value);
      return undefined;
    }
    if (this.fast_ !== null && typeof value === 'object' && value !== null && this.fast_.element_(frame, value)) {
      return this.advance_(frame);
    }
    return this.item_(frame.container, frame.index++, value);
  }

  /** Asks the async source of `frame` for its next result, unless the consumer is full. */
  private advance_(frame: AsyncSourceFrame): Step {
    if (!this.sink_.demand) return PAUSE;
    let next: unknown;
    try {
      next = frame.kind === READER || frame.kind === RAW_READER ? frame.source.read() : frame.source.next();
    } catch (error) {
      frame.open = false;
      throw error;
    }
    this.waitTag_ = WAIT_NEXT;
    this.pendingSource_ = frame;
    return isThenable(next) ? next : Promise.resolve(next);
  }

  /** holder[key] is `value`: resolve it (promise, toJSON, replacer) and write it. */
  private item_(holder: unknown, key: string | number, value: unknown): Step {
    if (isThenable(value)) {
      this.pendingHolder_ = holder;
      this.pendingKey_ = key;
      this.waitTag_ = WAIT_VALUE;
      return value;
    }
    value = this.transform_(holder, key, value);
    if (isThenable(value)) {
      this.pendingKey_ = key;
      this.waitTag_ = WAIT_FINAL;
      return value;
    }
    return this.emit_(key, value);
  }

  /** What JSON.stringify's SerializeJSONProperty does before writing: toJSON(key), then the replacer. */
  private transform_(holder: unknown, key: string | number, value: unknown): unknown {
    const replacer = this.replacer_;
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

  /** Writes a rawJson value: whole, or as a frame reading its stream; first awaits the module (WAIT_RUNTIME). */
  protected raw_(value: object, payload: RawJsonSource): Written {
    const loading = runtimeLoading();
    if (loading !== undefined) {
      this.pendingRaw_ = value;
      this.waitTag_ = WAIT_RUNTIME;
      return loading;
    }
    if (typeof payload === 'string' || isUint8Array(payload)) writeRawWhole(this.out_, payload);
    else this.frames_.push(openRawReader(value, payload));
    return undefined;
  }
}
