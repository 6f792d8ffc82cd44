// The encoder's public API (README.md, "Writing JSON"); js/index.ts re-exports it.
export { stringifyStream } from './stringify_stream.js';
export { StreamedJsonResponse } from './streamed_json_response.js';
export { JsonArrayStringifyStream } from './json_array_stringify_stream.js';
export { JsonLinesStringifyStream, type JsonLinesStringifyOptions } from './json_lines_stringify_stream.js';
export { rawJson, type RawJson, type RawJsonSource } from './raw_json.js';
export type { StringifyOptions, StringifyReplacer } from './options.js';
