// The loop of readModelStream: events in, snapshots out. A body (bytes or text) is parsed here with
// parseEventStream's EventStreamCore, every event of a chunk read synchronously between two reads of the source,
// so that the only asynchronous step per event is the snapshot's own yield (parseEventStream between the two would
// add its own per event). Events given parsed (an array, an async iterable of { event, data }) take the same path.
import { SourceIterator } from '../source_iterator.js';
import type { JsonSource } from '../sources.js';
import { EventStreamCore } from '../sse/event_stream_core.js';
import type { ResolvedEventStreamOptions } from '../sse/options.js';
import { mustBe } from '../validate.js';
import { ModelStreamError } from './model_error.js';
import type { ModelState } from './model_state.js';
import type { ModelSnapshot, ModelStreamFormat } from './model_types.js';

/** @internal */
export const API = 'readModelStream()';

/** The event that ends each format's stream, named when a stream stops before it. */
const LAST_EVENT: Readonly<Record<ModelStreamFormat, string>> = {
  'openai-chat': 'data: [DONE]',
  'openai-responses': 'response.completed',
  anthropic: 'message_stop',
  gemini: 'a candidate with a finishReason',
};

/** @internal A format's reader: one event into the state. */
export type Reader = (state: ModelState, name: string, data: string) => void;

/** @internal An event as readModelStream takes one: an object with a string `data`. */
export function isEvent(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { data?: unknown }).data === 'string';
}

/**
 * Reads one event into `state` and returns the snapshot after it, or `null` if it changed nothing. On an error,
 * `state.take()` holds what the event said before it (a chunk's text before its broken arguments).
 */
function readEvent(state: ModelState, reader: Reader, event: unknown): ModelSnapshot | null {
  state.event++;
  const data = (event as { data?: unknown } | null)?.data;
  if (typeof event !== 'object' || event === null || typeof data !== 'string') {
    throw mustBe(API, `event ${state.event}`, 'an object with a string data', event);
  }
  const name = (event as { event?: unknown }).event;
  // An event without data (a comment, a keep-alive) says nothing.
  if (data.trim() !== '') reader(state, typeof name === 'string' && name !== '' ? name : 'message', data);
  return state.take();
}

/** The end of the events: the last snapshot, or the truncation error if the format's last event never came. */
function endOf(state: ModelState): ModelSnapshot | null {
  if (!state.ending) {
    throw new ModelStreamError(
      `${API}: the ${state.format} stream ended after ${state.event} events, before ${LAST_EVENT[state.format]}`,
      state.format,
      'truncated',
      undefined,
      state.event,
    );
  }
  // A finish reason came, its last event did not (a proxy may drop `[DONE]`): what was said is whole.
  state.finish();
  return state.take();
}

/**
 * @internal The snapshots of a body (`events` false), of events (true), or of an async iterable of either, told
 * apart by its first item (undefined).
 */
export class ModelStreamIterator extends SourceIterator<ModelSnapshot> {
  private readonly state_: ModelState;
  private readonly format_: Reader;
  private readonly options_: ResolvedEventStreamOptions;
  private readonly events_: boolean | undefined;

  constructor(
    source: JsonSource,
    options: ResolvedEventStreamOptions,
    events: boolean | undefined,
    state: ModelState,
    reader: Reader,
  ) {
    super(source);
    this.options_ = options;
    this.events_ = events;
    this.state_ = state;
    this.format_ = reader;
  }

  protected async *items_(): AsyncGenerator<ModelSnapshot, undefined, undefined> {
    const state = this.state_;
    const reader = this.format_;
    try {
      const input = this.open_();
      // Null while the items are events, given parsed.
      let core: EventStreamCore | null =
        this.events_ === true ? null : new EventStreamCore(this.options_, API, 'each chunk of source');
      let first = this.events_ === undefined;
      for (;;) {
        const result = await input.read();
        if (this.stopped_) return undefined;
        if (result.done === true) {
          // The end of the body discards the event still being read.
          this.drained_ = true;
          break;
        }
        if (first) {
          first = false;
          if (isEvent(result.value)) core = null;
        }
        const events: readonly unknown[] = core === null ? [result.value] : core.push(result.value);
        for (let i = 0; i < events.length; i++) {
          let snapshot: ModelSnapshot | null;
          try {
            snapshot = readEvent(state, reader, events[i]);
          } catch (error) {
            // What the event said before its error is delivered first; the source is closed as a break would.
            const before = state.take();
            if (before !== null) yield before;
            await this.stop_(undefined);
            throw error;
          }
          if (snapshot !== null) yield snapshot;
          if (state.done) return undefined;
        }
        if (core !== null && core.failure_ !== null) throw core.failure_;
      }
      const last = endOf(state);
      if (last !== null) yield last;
      return undefined;
    } catch (error) {
      await this.stop_(error);
      throw error;
    } finally {
      await this.stop_(undefined);
    }
  }
}
