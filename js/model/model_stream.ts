// readModelStream: a model provider's stream read into snapshots of its text and tool calls. The source is the
// response body (read into events by parseEventStream's parser) or its events already parsed ({ event, data });
// each event goes to its format's reader, which updates the state, and a snapshot follows every event that changed
// something (model_snapshots.ts). Breaking out of the loop closes the source.
import type { PartialJsonOptions, SchemaInput, SchemaOutput } from '../partial/partial_options.js';
import { PartialCore } from '../partial/partial_parser.js';
import { resolveSchema } from '../partial/schema.js';
import type { StandardSchemaV1 } from '../partial/standard_schema.js';
import { isResponse, isUint8Array } from '../realm.js';
import { checkSource, type JsonSource } from '../sources.js';
import { resolveEventStreamOptions } from '../sse/options.js';
import { checkOptions, misuse, mustBe, optionalOneOf, ownProperties } from '../validate.js';
import { readAnthropic } from './anthropic.js';
import { readGemini } from './gemini.js';
import { ModelState } from './model_state.js';
import { API, ModelStreamIterator, type Reader } from './model_snapshots.js';
import type { ModelEvent, ModelSnapshot, ModelStreamFormat, ModelStreamOptions } from './model_types.js';
import { readOpenAIChat } from './openai_chat.js';
import { readOpenAIResponses } from './openai_responses.js';

const FORMATS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const;

const READERS: Readonly<Record<ModelStreamFormat, Reader>> = {
  'openai-chat': readOpenAIChat,
  'openai-responses': readOpenAIResponses,
  anthropic: readAnthropic,
  gemini: readGemini,
};

const OPTIONS = [
  'format',
  'text',
  'schema',
  'tools',
  'numbers',
  'integers',
  'maxDepth',
  'maxElementBytes',
  'maxEventBytes',
] as const;

/**
 * What readModelStream reads: the `text/event-stream` body as {@link parseEventStream} takes it (a `Response`, a
 * `ReadableStream`, an `AsyncIterable` of byte or string chunks, the whole text), or its events already parsed
 * (an `Iterable` or `AsyncIterable` of `{ event, data }`, e.g. from parseEventStream or eventsource-parser).
 */
export type ModelStreamSource = JsonSource | AsyncIterable<ModelEvent> | Iterable<ModelEvent>;

/**
 * Reads a model provider's streamed response (OpenAI Chat Completions or Responses, Anthropic Messages, Gemini
 * streamGenerateContent) as snapshots of what it said so far: its text, and every tool call with its id, name and
 * arguments as a partial JSON value (one partial parser per call, each delta read once: linear in the text).
 * Yields a snapshot after each event that changed something; the last has `done: true`.
 *
 * @example
 * for await (const s of readModelStream(events, { format: 'anthropic' })) render(s.text, s.toolCalls);
 *
 * @throws {TypeError} at once for invalid options or a source that is not iterable. The iteration rejects with
 * {@link ModelStreamError} for the provider's error (or a stream cut before its last event), with
 * {@link JsonSyntaxError} for an event's data that is not JSON or arguments that are not, naming the event, and
 * with {@link JsonSchemaError} for a value `tools` or `schema` refuses (its path and offset in the call's arguments).
 */
export function readModelStream<S extends StandardSchemaV1>(
  source: ModelStreamSource,
  options: ModelStreamOptions & { readonly text: 'json'; readonly schema: S },
): AsyncIterableIterator<ModelSnapshot<SchemaInput<S>, SchemaOutput<S>>>;
export function readModelStream<T = unknown>(
  source: ModelStreamSource,
  options: ModelStreamOptions,
): AsyncIterableIterator<ModelSnapshot<T>>;
export function readModelStream<T = unknown>(
  source: ModelStreamSource,
  options: ModelStreamOptions,
): AsyncIterableIterator<ModelSnapshot<T>> {
  if (options === undefined) throw misuse(API, 'options.format is required');
  const own = checkOptions(API, options, OPTIONS);
  const format = optionalOneOf(API, own, 'format', FORMATS);
  if (format === undefined) throw misuse(API, 'options.format is required');
  const text = optionalOneOf(API, own, 'text', ['string', 'json'] as const) ?? 'string';
  const { numbers, integers, maxDepth, maxElementBytes } = own;
  const partial = { numbers, integers, maxDepth, maxElementBytes } as PartialJsonOptions;
  // Checked now by the parser they configure, not at the first tool call.
  new PartialCore(API, partial);
  const schema = own.schema;
  if (schema !== undefined && text !== 'json') {
    throw misuse(API, "options.schema is the schema of the text read as JSON: it needs text: 'json'");
  }
  resolveSchema(API, schema);
  const state = new ModelState(
    API,
    format,
    text === 'json',
    partial,
    schema as StandardSchemaV1 | undefined,
    resolveTools(own.tools),
  );
  const sse = resolveEventStreamOptions(
    API,
    own.maxEventBytes === undefined ? undefined : { maxEventBytes: own.maxEventBytes },
  );
  const reader = READERS[format];
  const s = source as Partial<AsyncIterable<unknown> & Iterable<unknown> & ReadableStream> | null;
  let events: boolean | undefined = false;
  let from = source as JsonSource;
  if (typeof s === 'object' && s !== null && typeof s.getReader !== 'function' && !isResponse(s)) {
    // An array (or other iterable) is of events; an async iterable is of events or chunks, told by its first item.
    if (typeof s[Symbol.asyncIterator] === 'function') events = undefined;
    else if (typeof s[Symbol.iterator] === 'function' && !isUint8Array(s)) {
      events = true;
      // Its items awaited, as for await reads a synchronous iterable.
      from = (async function* () {
        yield* s as Iterable<unknown>;
      })() as AsyncIterable<string>;
    }
  }
  if (events === false) checkSource(source, API);
  return new ModelStreamIterator(from, sse, events, state, reader) as AsyncIterableIterator<ModelSnapshot<T>>;
}

/** options.tools: an object of Standard Schemas by tool name, as a map (null when absent). */
function resolveTools(tools: unknown): ReadonlyMap<string, StandardSchemaV1> | null {
  if (tools === undefined) return null;
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools)) {
    throw mustBe(API, 'options.tools', 'an object of Standard Schemas by tool name', tools);
  }
  const map = new Map<string, StandardSchemaV1>();
  const own = ownProperties(tools);
  for (const name of Object.keys(own)) {
    const subject = /^[A-Za-z_$][\w$]*$/.test(name)
      ? `options.tools.${name}`
      : `options.tools[${JSON.stringify(name)}]`;
    if (own[name] === undefined) throw mustBe(API, subject, 'a Standard Schema', undefined);
    resolveSchema(API, own[name], subject);
    map.set(name, own[name] as StandardSchemaV1);
  }
  return map;
}
