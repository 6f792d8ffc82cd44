// EventStreamParser: parseEventStream's parser as a TransformStream, for pipeThrough().
import { EventStreamCore } from './event_stream_core.js';
import { resolveEventStreamOptions, type EventStreamOptions, type ServerSentEvent } from './options.js';

/**
 * A `TransformStream` from `Uint8Array` or string chunks of a `text/event-stream` body to its events, as
 * {@link parseEventStream} yields them (docs/sse.md).
 *
 * @example
 * const events = res.body.pipeThrough(new EventStreamParser());
 *
 * @throws {TypeError} at once for invalid options. The stream errors with {@link EventStreamLimitError} when an
 * event exceeds `maxEventBytes`, after the events before it were read, and with a TypeError for a chunk of
 * another type.
 */
export class EventStreamParser extends TransformStream<Uint8Array | string, ServerSentEvent> {
  constructor(
    options?: EventStreamOptions,
    writableStrategy?: QueuingStrategy<Uint8Array | string>,
    readableStrategy?: QueuingStrategy<ServerSentEvent>,
  ) {
    const resolved = resolveEventStreamOptions('new EventStreamParser()', options);
    const core = new EventStreamCore(resolved, 'EventStreamParser.writable', 'each chunk');
    super(new EventStreamTransformer(core, readableStrategy?.highWaterMark ?? 0), writableStrategy, readableStrategy);
  }
}

class EventStreamTransformer implements Transformer<Uint8Array | string, ServerSentEvent> {
  private readonly core_: EventStreamCore;
  private readonly highWaterMark_: number;
  private cancelled_ = false;

  constructor(core: EventStreamCore, highWaterMark: number) {
    this.core_ = core;
    this.highWaterMark_ = highWaterMark;
  }

  transform(chunk: Uint8Array | string, controller: TransformStreamDefaultController<ServerSentEvent>) {
    const core = this.core_;
    const events = core.push(chunk);
    for (let i = 0; i < events.length; i++) controller.enqueue(events[i]!);
    if (core.failure_ !== null)
      return failWhenRead(controller, core.failure_, this.highWaterMark_, () => this.cancelled_);
  }

  cancel(): void {
    this.cancelled_ = true;
  }
}

/**
 * Erroring a stream drops the events still queued in it, so the error waits until the reader has taken them (as
 * JsonArrayStream's failWhenRead does, js/parse/json_array_stream.ts): polled, on this error path only; a reader
 * idle for READER_GONE_MS is taken as gone.
 */
async function failWhenRead(
  controller: TransformStreamDefaultController<ServerSentEvent>,
  error: Error,
  highWaterMark: number,
  cancelled: () => boolean,
): Promise<void> {
  let delay = 1;
  let last = controller.desiredSize;
  let idle = 0;
  for (;;) {
    const size = controller.desiredSize;
    if (cancelled() || size === null || size >= highWaterMark) break;
    if (size !== last) {
      last = size;
      idle = 0;
    } else if (idle >= READER_GONE_MS) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    idle += delay;
    delay = Math.min(delay * 2, 100);
  }
  throw error;
}

const READER_GONE_MS = 30_000;
