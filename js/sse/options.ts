// What parseEventStream and EventStreamParser take and give: the options, the event, the limit's default.
import { checkOptions, integerIn, type ApiName } from '../validate.js';

/**
 * One event as the WHATWG HTML event stream interpretation dispatches it (docs/sse.md).
 *
 * @example
 * // "event: add\nid: 7\ndata: {\"a\":1}\n\n" gives
 * // { event: 'add', data: '{"a":1}', id: '7', retry: undefined }
 */
export interface ServerSentEvent {
  /** The event type buffer at dispatch: the last `event` field's value, `'message'` when there was none or it was empty. */
  readonly event: string;
  /** The `data` fields' values of the event, joined with `'\n'` (no trailing line feed). */
  readonly data: string;
  /**
   * The last event ID buffer at dispatch: the value of the last `id` field of the stream so far, this event's or
   * an earlier one's (it is not reset between events); `''` if none yet. An `id` value containing U+0000 is ignored.
   */
  readonly id: string;
  /**
   * The reconnection time in milliseconds the stream last set with a `retry` field of ASCII digits only (in this
   * event or an earlier one: like `id`, it persists); `undefined` if it never set one.
   */
  readonly retry: number | undefined;
}

/** The options of {@link parseEventStream} and {@link EventStreamParser}. */
export interface EventStreamOptions {
  /**
   * The most bytes of input one event may hold in memory: its `data` lines (line ends excluded) plus the line
   * being read. Default 16 MiB. More is an {@link EventStreamLimitError}.
   */
  readonly maxEventBytes?: number;
}

/** @internal The options once checked. */
export interface ResolvedEventStreamOptions {
  readonly maxEventBytes: number;
}

/** The default of `maxEventBytes`: 16 MiB. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

const KNOWN = ['maxEventBytes'] as const;

/** @internal Checks `options` at the call (a TypeError naming `api`). */
export function resolveEventStreamOptions(api: ApiName, options: unknown): ResolvedEventStreamOptions {
  const own = checkOptions(api, options, KNOWN);
  const max = own.maxEventBytes;
  return {
    maxEventBytes:
      max === undefined
        ? DEFAULT_MAX_EVENT_BYTES
        : integerIn(api, 'options.maxEventBytes', max, 1, Number.MAX_SAFE_INTEGER),
  };
}
