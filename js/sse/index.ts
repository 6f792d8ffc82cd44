// Server-sent events in and out: the public names of js/sse (docs/sse.md).
export { parseEventStream } from './parse_event_stream.js';
export { EventStreamParser } from './event_stream_parser.js';
export { EventStreamLimitError } from './limit_error.js';
export { DEFAULT_MAX_EVENT_BYTES, type EventStreamOptions, type ServerSentEvent } from './options.js';
export { EventStreamResponse } from './event_stream_response.js';
export { stringifyEventStream, type EventStreamSource } from './event_stream.js';
export { sseEvent, SseEvent, type SseEventInit } from './event_format.js';
export type { StringifyEventStreamOptions } from './event_stream_options.js';
