// The public API of sluice (README.md, "API"). Everything else in js/ is internal.
export { init, type InitOptions } from './native/loader.js';
export type { CompiledModule, ModuleSource } from './native/module_source.js';
export { createParser } from './parse/create_parser.js';
export type { JsonChunk, PushParser } from './parse/parser.js';
export { parseJsonArray } from './parse/parse_json_array.js';
export { JsonArrayStream, type JsonArrayStreamConstructor } from './parse/json_array_stream.js';
export { lazyParse, releaseLazy, type LazyParseOptions } from './lazy/lazy_parse.js';
export type { JsonSource } from './sources.js';
export type {
  BareOptions,
  BytesOptions,
  ElementWithNormalizedPath,
  ElementWithOffset,
  ElementWithPath,
  ExactOptions,
  NoNormalizedPathOptions,
  NoOffsetOptions,
  NoPathOptions,
  InvalidLine,
  OutputKind,
  ParsedElement,
  ParserOptions,
  Reviver,
  TextOptions,
  ValueOptions,
  WithNormalizedPathOptions,
  WithOffsetOptions,
  WithPathOptions,
} from './parse/option_types.js';
export type { IntegersOption } from './parse/integers.js';
export type { PathOrder } from './query/lower.js';
export {
  JsonLimitError,
  JsonPassedError,
  JsonSchemaError,
  JsonStringifyLimitError,
  JsonSyntaxError,
  SluiceLoadError,
  type JsonErrorPosition,
  type JsonLimitErrorCode,
  type JsonSchemaIssue,
  type JsonSyntaxErrorCode,
} from './errors.js';
export * from './encode/index.js';
export {
  openJson,
  type IterateOptions,
  type JsonDocument,
  type OpenJsonOptions,
} from './open_json/open_json.js';
export {
  createPartialParser,
  type PartialChunk,
  type PartialJsonOptions,
  type PartialParser,
  type PartialValue,
  type SchemaInput,
  type SchemaOutput,
} from './partial/create_partial_parser.js';
export type { StandardSchemaV1 } from './partial/standard_schema.js';
export { partialJson } from './partial/partial_json.js';
export { isComplete } from './partial/completion.js';
export { readModelStream, type ModelStreamSource } from './model/model_stream.js';
export { ModelStreamError } from './model/model_error.js';
export type {
  ModelEvent,
  ModelSnapshot,
  ModelStreamFormat,
  ModelStreamOptions,
  ModelToolCall,
} from './model/model_types.js';
export {
  EventStreamLimitError,
  EventStreamParser,
  EventStreamResponse,
  parseEventStream,
  SseEvent,
  sseEvent,
  stringifyEventStream,
  type EventStreamOptions,
  type EventStreamSource,
  type ServerSentEvent,
  type SseEventInit,
  type StringifyEventStreamOptions,
} from './sse/index.js';
