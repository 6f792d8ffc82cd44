// The readable side of every encoder: a pull-based ReadableStream. The encoder may advance its sources only
// while the consumer has asked for more (`demand`): after each chunk it hands over, demand is what the stream's
// queue still has room for; a read (pull) renews it. Nothing is produced before the first read.
import type { EncoderSink } from './encoder.js';

/** @internal */
export class PullChannel implements EncoderSink {
  readonly stream: ReadableStream<Uint8Array>;
  demand = false;
  private controller_!: ReadableStreamDefaultController<Uint8Array>;
  private readonly onStart_: () => void;
  private readonly onCancel_: (reason: unknown) => Promise<void>;
  private started_ = false;
  private finished_ = false;
  private demandWaiter_: (() => void) | null = null;
  private pullWaiter_: (() => void) | null = null;

  /**
   * `onStart` runs at the first read; `onCancel` when the consumer cancels (its promise is what cancel()
   * resolves after). `strategy`: of the stream's queue, in chunks unless it has a size(); default: no queue.
   */
  constructor(
    onStart: () => void,
    onCancel: (reason: unknown) => Promise<void>,
    strategy: QueuingStrategy<Uint8Array> = { highWaterMark: 0 },
  ) {
    this.onStart_ = onStart;
    this.onCancel_ = onCancel;
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller_ = controller;
        },
        pull: () => this.pull_(),
        cancel: (reason) => this.cancel_(reason),
      },
      strategy,
    );
  }

  enqueue(chunk: Uint8Array): void {
    if (this.finished_) return;
    const controller = this.controller_;
    controller.enqueue(chunk);
    this.demand = (controller.desiredSize ?? 0) > 0;
    this.settlePull_();
  }

  waitForDemand_(): Promise<void> {
    if (this.demand || this.finished_) return Promise.resolve();
    return new Promise((resolve) => {
      this.demandWaiter_ = resolve;
    });
  }

  close(): void {
    if (this.finished_) return;
    this.finished_ = true;
    this.controller_.close();
    this.settlePull_();
  }

  error(error: unknown): void {
    if (this.finished_) return;
    this.finished_ = true;
    this.controller_.error(error);
    this.settlePull_();
    this.wake_();
  }

  /**
   * The stream waits for the promise pull() returns before it pulls again: it settles at the next chunk (or the
   * end), so the stream asks once per chunk.
   */
  private pull_(): Promise<void> {
    this.demand = true;
    const settled = new Promise<void>((resolve) => {
      this.pullWaiter_ = resolve;
    });
    if (!this.started_) {
      this.started_ = true;
      this.onStart_();
    } else {
      this.wake_();
    }
    return settled;
  }

  private cancel_(reason: unknown): Promise<void> {
    this.finished_ = true;
    this.settlePull_();
    // Wakes a paused encoder, which sees it was cancelled and stops.
    const cancelled = this.onCancel_(reason);
    this.wake_();
    return cancelled;
  }

  private wake_(): void {
    const waiter = this.demandWaiter_;
    if (waiter !== null) {
      this.demandWaiter_ = null;
      waiter();
    }
  }

  private settlePull_(): void {
    const waiter = this.pullWaiter_;
    if (waiter !== null) {
      this.pullWaiter_ = null;
      waiter();
    }
  }
}
