// parseEventStream: server-sent events from any source parseJsonArray reads, pulled as the consumer asks (a chunk
// is read only when the events of the chunks read so far are used up); return() and throw() cancel the source.
import { SourceIterator } from '../source_iterator.js';
import { checkSource, type JsonSource } from '../sources.js';
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

class EventStreamIterator extends SourceIterator<ServerSentEvent> {
  private readonly options_: ResolvedEventStreamOptions;

  constructor(source: JsonSource, options: ResolvedEventStreamOptions) {
    super(source);
    this.options_ = options;
  }

  protected async *items_(): AsyncGenerator<ServerSentEvent, undefined, undefined> {
    try {
      const core = new EventStreamCore(this.options_, API, 'each chunk of source');
      const reader = this.open_();
      for (;;) {
        const result = await reader.read();
        if (this.stopped_) return;
        if (result.done) {
          // The end of the stream discards the event still being read.
          this.drained_ = true;
          return;
        }
        const events = core.push(result.value);
        for (let i = 0; i < events.length; i++) yield events[i]!;
        if (core.failure_ !== null) throw core.failure_;
      }
    } catch (error) {
      await this.stop_(error);
      throw error;
    } finally {
      await this.stop_(undefined);
    }
  }
}
