// EventStreamResponse: a Response whose body is a source's items as server-sent events, as they come.
import { ownProperties } from '../validate.js';
import { openEventStream, type EventStreamSource } from './event_stream.js';
import { resolveStringifyEventStreamOptions, type StringifyEventStreamOptions } from './event_stream_options.js';

// What an event stream needs on its way through caches and proxies, each set unless `init.headers` sets it:
// - cache-control: no-cache: a cache must not answer a reconnecting client with an old stream;
// - x-accel-buffering: no: nginx (and the proxies that follow its header) buffers responses unless told not to,
//   which holds events back until a buffer fills.
// Not `connection: keep-alive`: a connection-specific header, forbidden in HTTP/2 and dropped or refused by
// fetch-style runtimes; streaming keeps the connection open anyway.
const DEFAULT_HEADERS: readonly (readonly [string, string])[] = [
  ['content-type', 'text/event-stream; charset=utf-8'],
  ['cache-control', 'no-cache'],
  ['x-accel-buffering', 'no'],
];

/** `init`'s own properties (Response reads inherited ones too: see ownProperties()) with the default headers. */
function withEventStreamHeaders(init: ResponseInit | undefined): ResponseInit {
  const own = typeof init === 'object' && init !== null ? ownProperties(init) : Object.create(null);
  const headers = new Headers(own.headers as HeadersInit | undefined);
  for (const [name, value] of DEFAULT_HEADERS) if (!headers.has(name)) headers.set(name, value);
  own.headers = headers;
  return own as ResponseInit;
}

/**
 * A `Response` streaming the items of `source` (a sync or async iterable, a `ReadableStream`, or a promise of
 * one) as server-sent events, one event per item, read as the client reads: `data` is the item's
 * `JSON.stringify` text (`options.format: 'json'`, the default) or the string itself (`'text'`), and an
 * {@link sseEvent} is written with its fields. Headers: `content-type: text/event-stream; charset=utf-8`,
 * `cache-control: no-cache` and `x-accel-buffering: no`, each unless `init.headers` sets it. A comment line is
 * written every `options.heartbeatMs` (15 s) while the source is silent. When the client goes away, the source
 * is closed (an async generator's `finally` runs), and the sources inside the item being written.
 *
 * @example
 * export default {
 *   fetch: () => new EventStreamResponse(ticks()),
 * };
 *
 * @throws {TypeError} at once for invalid options or a source that cannot be one.
 */
export class EventStreamResponse extends Response {
  constructor(source: EventStreamSource, init?: ResponseInit, options?: StringifyEventStreamOptions) {
    const api = 'new EventStreamResponse()';
    super(openEventStream(api, source, resolveStringifyEventStreamOptions(api, options)), withEventStreamHeaders(init));
  }
}
