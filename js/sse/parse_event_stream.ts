// parseEventStream: server-sent events from any source parseJsonArray reads, pulled as the consumer asks (a chunk
// is read only when the events of the chunks read so far are used up). Like parseJsonArray's iterator, the
// wrapper's return() and throw() cancel the source at once, even while a read is pending.
import { checkSource, openSource, type JsonSource, type PullReader } from '../sources.js';
import { EventStreamCore } from './event_stream_core.js';
import {
  resolveEventStreamOptions,
  type EventStreamOptions,
  type ResolvedEventStreamOptions,
  type ServerSentEvent,
} from './options.js';

const API = 'parseEventStream()';

/**
 * Parses a `text/event-stream` body as the WHATWG HTML standard's event stream interpretation does and yields
 * each event when the blank line that dispatches it arrives (docs/sse.md). An event not ended by a blank line at
 * the end of the stream is discarded, as the standard says.
 *
 * `source` is what {@link parseJsonArray} takes: a `ReadableStream` (e.g. `response.body`; `null` is an empty
 * body), a `Response`, an `AsyncIterable` of `Uint8Array` or string chunks, or the whole input as a `Uint8Array`
 * or string. Breaking out of the loop cancels the source. Pure JavaScript: no WebAssembly is loaded.
 *
 * @example
 * for await (const { event, data } of parseEventStream(await fetch(url))) {
 *   if (event === 'message') console.log(JSON.parse(data));
 * }
 *
 * @throws {TypeError} at once for invalid options or a source of another type. The iteration rejects with
 * {@link EventStreamLimitError} when an event exceeds `maxEventBytes` (after the events before it), and with the
 * source's own error if it fails.
 */
export function parseEventStream(
  source: JsonSource,
  options?: EventStreamOptions,
): AsyncIterableIterator<ServerSentEvent> {
  const resolved = resolveEventStreamOptions(API, options);
  checkSource(source, API);
  return new EventStreamIterator(source, resolved);
}

class EventStreamIterator implements AsyncIterableIterator<ServerSentEvent> {
  private readonly source: JsonSource;
  private readonly options: ResolvedEventStreamOptions;
  private readonly generator: AsyncGenerator<ServerSentEvent, undefined, undefined>;
  private reader: PullReader | null = null;
  /** The source was read to its end (nothing to cancel). */
  private drained = false;
  /** Set by return(), throw() or a failure: the generator stops at its next step. */
  private stopped = false;

  constructor(source: JsonSource, options: ResolvedEventStreamOptions) {
    this.source = source;
    this.options = options;
    this.generator = this.events();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ServerSentEvent, undefined>> {
    return this.generator.next();
  }

  async return(value?: unknown): Promise<IteratorResult<ServerSentEvent, undefined>> {
    await this.stop(undefined);
    await this.generator.return(undefined);
    return { done: true, value: value as undefined };
  }

  async throw(error?: unknown): Promise<IteratorResult<ServerSentEvent, undefined>> {
    await this.stop(error);
    return this.generator.throw(error);
  }

  private async *events(): AsyncGenerator<ServerSentEvent, undefined, undefined> {
    try {
      const core = new EventStreamCore(this.options, API, 'each chunk of source');
      const reader = openSource(this.source);
      this.reader = reader;
      for (;;) {
        const result = await reader.read();
        if (this.stopped) return;
        if (result.done) {
          // The end of the stream discards the event still being read.
          this.drained = true;
          return;
        }
        const events = core.push(result.value);
        for (let i = 0; i < events.length; i++) yield events[i]!;
        if (core.failure !== null) throw core.failure;
      }
    } catch (error) {
      await this.stop(error);
      throw error;
    } finally {
      await this.stop(undefined);
    }
  }

  /** Cancels the source (opening it if needed: this iterator owns it). Idempotent. */
  private async stop(reason: unknown): Promise<void> {
    if (this.stopped && this.reader === null) return;
    this.stopped = true;
    let reader = this.reader;
    this.reader = null;
    if (this.drained) return;
    if (reader === null) {
      try {
        reader = openSource(this.source);
      } catch {
        return; // locked or used elsewhere: not ours to cancel
      }
    }
    await reader.cancel(reason);
  }
}
