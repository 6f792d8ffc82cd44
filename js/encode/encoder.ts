// The encoder: writes the JSON text of a value that may hold sources (promises, iterables, async iterables,
// streams, raw JSON) at any depth, as JSON.stringify would write the value with every source materialised.
//
// The writing itself is the Stepper's (stepper.ts), a loop over an explicit stack of frames that can stop at any
// point without unwinding: when the consumer wants no more bytes it returns PAUSE, and when it must wait for a
// source it returns the promise to wait for. This is the driver around it, the only async part: write() awaits
// what the stepper returns, flushes what is buffered when it waits for a source, and on cancellation or failure
// closes the sources.
import { ChunkWriter } from './chunk_writer.js';
import { ROOT, rootFrame, type Omitted } from './frames.js';
import { clock, nextMacrotask, scheduleMacrotask } from './macrotask.js';
import type { ResolvedStringifyOptions } from './options.js';
import { closeFrame, closeUnreached, closeUnreachedIn, type CloseContext } from './source_closer.js';
import { PAUSE, Stepper, WAIT_NEXT, YIELD } from './stepper.js';

/** @internal What the encoder writes to, and asks whether the consumer wants more. */
export interface EncoderSink {
  /** The consumer wants more: sources may be advanced. */
  readonly demand: boolean;
  /** Resolves once `demand` is true again, or the output was cancelled. */
  waitForDemand_(): Promise<void>;
  enqueue(chunk: Uint8Array): void;
}

/** @internal Thrown out of write() once cancel() was called; the stream layers drop it. */
export const CANCELLED: unique symbol = Symbol('sluice.cancelled') as never;

/** @internal */
export class Encoder {
  private readonly sink_: EncoderSink;
  private readonly out_: ChunkWriter;
  private readonly stepper_: Stepper;
  /** StreamedJsonResponse.from: no timed flush of the first chunk while a source has not answered yet. */
  private readonly holdFirstChunk_: boolean;
  /** Inside write(). */
  private busy_ = false;
  /** write() awaits a source (not the consumer). */
  private waiting_ = false;
  private flushArmed_ = false;
  private chunks_ = 0;
  private cancelled_ = false;
  /** Set by close(): how sources are closed, also those that arrive later. */
  private closing_: CloseContext | null = null;

  /** `oneLine`: line breaks in raw bytes become spaces (see ChunkWriter.oneLine_). */
  constructor(options: ResolvedStringifyOptions, sink: EncoderSink, holdFirstChunk = false, oneLine = false) {
    this.sink_ = sink;
    this.out_ = new ChunkWriter(
      options.chunkBytes,
      (chunk) => {
        this.chunks_++;
        sink.enqueue(chunk);
      },
      () => sink.demand,
    );
    this.out_.oneLine_ = oneLine;
    this.stepper_ = new Stepper(options, this.out_, sink);
    this.holdFirstChunk_ = holdFirstChunk;
  }

  /**
   * Writes the JSON text of `value`, the member `key` of `holder` (`holder` matters to a replacer function only),
   * at nesting `depth`. Resolves when all of it is in the output buffer (the writer's backlog included); rejects
   * with the error that stopped it, after closing every source in the value, or with CANCELLED. One at a time.
   */
  async write(holder: unknown, key: string, value: unknown, depth: number, omitted: Omitted): Promise<void> {
    const stepper = this.stepper_;
    stepper.frames_.push(rootFrame(holder, key, value, depth, omitted));
    this.busy_ = true;
    stepper.sliceStart_ = clock();
    try {
      const out = this.out_;
      let step = stepper.run();
      // Done once the stepper is and all of the text is out of the backlog.
      while (step !== undefined || out.backlogged_) {
        if (step === YIELD) {
          // Not a wait for a source: no early flush (busy and not waiting), the stretch just starts over.
          await nextMacrotask();
          if (this.cancelled_) throw CANCELLED;
          stepper.sliceStart_ = clock();
          step = out.backlogged_ ? PAUSE : stepper.run();
          continue;
        }
        if (step === PAUSE || step === undefined) {
          await this.sink_.waitForDemand_();
          if (this.cancelled_) throw CANCELLED;
          out.drain_();
          // Draining a long backlog (a long string, raw bytes) takes chunk after chunk: slices there too.
          if (out.backlogged_) step = stepper.sliceOver_() ? YIELD : PAUSE;
          else step = stepper.run();
          continue;
        }
        this.waiting_ = true;
        this.armFlush_();
        let result: unknown;
        try {
          result = await step;
        } catch (error) {
          // The source itself failed: it is finished, return() or cancel() must not be called on it.
          if (!this.cancelled_ && stepper.waitTag_ === WAIT_NEXT) stepper.pendingSource_!.open = false;
          throw error;
        } finally {
          this.waiting_ = false;
        }
        if (this.cancelled_) {
          // Stopped while waiting: what came may hold sources too.
          const late = stepper.awaitedValue_(result);
          if (late !== undefined) void closeUnreached(late, this.closing_!);
          throw CANCELLED;
        }
        step = stepper.resume(result);
        if (step === undefined) step = stepper.run();
      }
    } catch (error) {
      if (this.cancelled_) throw CANCELLED;
      await this.close_(error);
      throw error;
    } finally {
      this.busy_ = false;
    }
  }

  /** Writes text between values (the stream layers' brackets and separators). */
  writeText_(text: string): void {
    this.out_.write(text);
  }

  /** Sends every byte written so far. */
  flush(): void {
    this.out_.flush();
  }

  /** Flushes what is buffered once the writer stays idle for a task (the stream layers, between writes). */
  flushWhenIdle_(): void {
    this.armFlush_();
  }

  /**
   * Stops for good and closes every source in the value, reached or not (source_closer.ts), innermost first,
   * each awaited before the next (an outer generator's `finally` may depend on the inner one's). `unwritten`: a
   * value whose write() never started, closed after.
   */
  cancel(reason: unknown, unwritten?: unknown): Promise<void> {
    if (this.cancelled_) return Promise.resolve();
    this.cancelled_ = true;
    return this.close_(reason, unwritten);
  }

  /**
   * Closes the sources of the value being written, from the innermost frame out: the ones in what the frame has
   * not reached, then its own. A value still on its way (a promise, a source's next element) is closed when it
   * arrives (see write()).
   */
  private async close_(reason: unknown, unwritten?: unknown): Promise<void> {
    const stepper = this.stepper_;
    const { frames_: frames, ancestors_: ancestors } = stepper;
    const context: CloseContext = { reason, propertyList_: stepper.propertyList_, closed: new WeakSet() };
    this.closing_ = context;
    // The frames' own sources are closed as frames, not found again in what they hold.
    for (const frame of frames) if (frame.kind !== ROOT) context.closed.add(frame.container);
    const raw = stepper.pendingRaw_;
    stepper.pendingRaw_ = null;
    if (raw !== null) await closeUnreached(raw, context);
    while (frames.length > 0) {
      const frame = frames.pop()!;
      await closeUnreachedIn(frame, context, ancestors);
      if (frame.kind !== ROOT) ancestors.delete(frame.container);
      await closeFrame(frame, reason);
    }
    ancestors.clear();
    if (unwritten !== undefined) await closeUnreached(unwritten, context);
  }

  private armFlush_(): void {
    if (this.flushArmed_ || !this.out_.pending) return;
    this.flushArmed_ = true;
    scheduleMacrotask(this.onFlushTimer_);
  }

  private readonly onFlushTimer_ = (): void => {
    this.flushArmed_ = false;
    // A backlog waits for the consumer: it has enough already.
    if (this.cancelled_ || !this.out_.pending || this.out_.backlogged_) return;
    if (this.busy_ && !this.waiting_) return; // running, or paused because the consumer is full
    if (this.holdFirstChunk_ && this.chunks_ === 0 && this.waitingForFirstAnswer_()) return;
    this.out_.flush();
  };

  /** The pending wait is on a promise value or on a source that has delivered nothing yet. */
  private waitingForFirstAnswer_(): boolean {
    if (!this.busy_) return false;
    if (this.stepper_.waitTag_ !== WAIT_NEXT) return true;
    return !this.stepper_.pendingSource_!.primed;
  }
}
