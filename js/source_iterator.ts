// The async iterator that parseJsonArray, parseEventStream and partialJson return: the subclass's async generator
// (V8 runs for-await over one with the fewest promise hops; it also queues overlapping next() calls), wrapped so
// that return() and throw() cancel the source at once, even while a read is pending. The source belongs to the
// iterator: it is opened on the first read and cancelled when the iteration stops early or fails.
import { openSource, type JsonSource, type PullReader } from './sources.js';

export abstract class SourceIterator<T> implements AsyncIterableIterator<T> {
  private readonly source_: JsonSource;
  private readonly generator_: AsyncGenerator<T, undefined, undefined>;
  private reader_: PullReader | null = null;
  /** The source was read to its end (nothing to cancel). */
  protected drained_ = false;
  /** Set by return(), throw() or a failure: the generator stops at its next step. */
  protected stopped_ = false;

  constructor(source: JsonSource) {
    this.source_ = source;
    // Only creates the generator: its body runs at the first next(), once the subclass is constructed.
    this.generator_ = this.items_();
  }

  /**
   * The items. Opens the source with open_(), returns when stopped_ is set after a read, sets drained_ at the
   * end of the input, and ends with `catch (error) { await this.stop_(error); throw error; } finally { await
   * this.stop_(undefined); }` so that the source is released whichever way the generator ends.
   */
  protected abstract items_(): AsyncGenerator<T, undefined, undefined>;

  /** Frees what the subclass holds besides the source (a parser); called once, by the first stop_(). */
  protected release_(): void {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    return this.generator_.next();
  }

  async return(value?: unknown): Promise<IteratorResult<T, undefined>> {
    await this.stop_(undefined);
    await this.generator_.return(undefined);
    return { done: true, value: value as undefined };
  }

  async throw(error?: unknown): Promise<IteratorResult<T, undefined>> {
    await this.stop_(error);
    return this.generator_.throw(error);
  }

  protected open_(): PullReader {
    const reader = openSource(this.source_);
    this.reader_ = reader;
    return reader;
  }

  /** Releases the subclass's resources and cancels the source (opening it if needed). Idempotent. */
  protected async stop_(reason: unknown): Promise<void> {
    if (this.stopped_ && this.reader_ === null) return;
    if (!this.stopped_) {
      this.stopped_ = true;
      this.release_();
    }
    let reader = this.reader_;
    this.reader_ = null;
    if (this.drained_) return;
    if (reader === null) {
      try {
        reader = openSource(this.source_);
      } catch {
        return; // locked or used elsewhere: not ours to cancel
      }
    }
    await reader.cancel(reason);
  }
}
