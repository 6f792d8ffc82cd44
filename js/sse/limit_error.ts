// The error of an event larger than maxEventBytes.

/**
 * An event of a server-sent event stream holds more than `maxEventBytes` bytes (its `data` lines plus the line
 * being read): the stream may well be valid. `offset` is the byte offset in the stream of the event's first `data`
 * line (of the line being read, when the event has no `data` line yet).
 *
 * @example
 * try { for await (const e of parseEventStream(res, { maxEventBytes: 1024 })) use(e); }
 * catch (e) { if (e instanceof EventStreamLimitError) console.log(e.code, e.offset); }
 */
export class EventStreamLimitError extends RangeError {
  /** Which limit: `'EVENT_TOO_LARGE'`. */
  readonly code: 'EVENT_TOO_LARGE';
  /** The limit exceeded. */
  readonly maxEventBytes: number;
  /** Bytes before the event's first byte since the first byte of the stream (a byte order mark included). */
  readonly offset: number;

  constructor(message: string, maxEventBytes: number, offset: number) {
    super(message);
    this.name = 'EventStreamLimitError';
    this.code = 'EVENT_TOO_LARGE';
    this.maxEventBytes = maxEventBytes;
    this.offset = offset;
  }
}
