// Server-sent events in: the public names of js/sse (docs/sse.md).
export { parseEventStream } from './parse_event_stream.js';
export { EventStreamParser } from './event_stream_parser.js';
export { EventStreamLimitError } from './limit_error.js';
export { DEFAULT_MAX_EVENT_BYTES, type EventStreamOptions, type ServerSentEvent } from './options.js';
