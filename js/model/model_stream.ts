// readModelStream: a model provider's stream read into snapshots of its text and tool calls. The source is the
// response body (read into events by parseEventStream) or its events already parsed ({ event, data }); each event
// goes to its format's reader, which updates the state, and a snapshot follows every event that changed
// something. Breaking out of the loop closes the source.
import {
  PartialCore,
  type PartialJsonOptions,
  type SchemaInput,
  type SchemaOutput,
} from '../partial/partial_parser.js';
import { resolveSchema } from '../partial/schema.js';
import type { StandardSchemaV1 } from '../partial/standard_schema.js';
import { isResponse, isUint8Array } from '../realm.js';
import { checkSource, type JsonSource } from '../sources.js';
import { parseEventStream } from '../sse/parse_event_stream.js';
import { resolveEventStreamOptions, type EventStreamOptions } from '../sse/options.js';
import { checkOptions, misuse, mustBe, optionalOneOf, ownProperties } from '../validate.js';
import { readAnthropic } from './anthropic.js';
import { readGemini } from './gemini.js';
import { ModelStreamError } from './model_error.js';
import { ModelState } from './model_state.js';
import type { ModelEvent, ModelSnapshot, ModelStreamFormat, ModelStreamOptions } from './model_types.js';
import { readOpenAIChat } from './openai_chat.js';
import { readOpenAIResponses } from './openai_responses.js';

const API = 'readModelStream()';

const FORMATS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const;

/** The event that ends each format's stream, named when a stream stops before it. */
const LAST_EVENT: Readonly<Record<ModelStreamFormat, string>> = {
  'openai-chat': 'data: [DONE]',
  'openai-responses': 'response.completed',
  anthropic: 'message_stop',
  gemini: 'a candidate with a finishReason',
};

type Reader = (state: ModelState, name: string, data: string) => void;

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
  const sse = (own.maxEventBytes === undefined ? undefined : { maxEventBytes: own.maxEventBytes }) as
    | EventStreamOptions
    | undefined;
  resolveEventStreamOptions(API, sse);
  return snapshots(eventSource(source, sse), state, READERS[format]) as AsyncIterableIterator<ModelSnapshot<T>>;
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

function isEvent(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { data?: unknown }).data === 'string';
}

/** The events of `source`: its own if it yields events, else parseEventStream's of its bytes or text. */
function eventSource(
  source: ModelStreamSource,
  sse: EventStreamOptions | undefined,
): AsyncIterable<unknown> | Iterable<unknown> {
  const s = source as Partial<AsyncIterable<unknown> & Iterable<unknown> & ReadableStream> | null;
  if (typeof s === 'object' && s !== null && typeof s.getReader !== 'function' && !isResponse(s)) {
    // An array (or other iterable) is of events; a chunk source is an async iterable.
    if (typeof s[Symbol.asyncIterator] === 'function') return peeked(s as AsyncIterable<unknown>, sse);
    if (typeof s[Symbol.iterator] === 'function' && !isUint8Array(s)) return s as Iterable<unknown>;
  }
  checkSource(source, API);
  return parseEventStream(source as JsonSource, sse);
}

/** An async iterable of events, or of chunks (then parsed), told apart by its first item. */
async function* peeked(source: AsyncIterable<unknown>, sse: EventStreamOptions | undefined): AsyncGenerator<unknown> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done === true) return;
  let sent = false;
  const rest: AsyncIterable<unknown> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        if (sent) return iterator.next();
        sent = true;
        return Promise.resolve(first);
      },
      return: async (value?: unknown) => (await iterator.return?.(value)) ?? { done: true, value },
    }),
  };
  if (isEvent(first.value)) yield* rest;
  else yield* parseEventStream(rest as AsyncIterable<Uint8Array | string>, sse);
}

async function* snapshots(
  source: AsyncIterable<unknown> | Iterable<unknown>,
  state: ModelState,
  reader: Reader,
): AsyncGenerator<ModelSnapshot, undefined, undefined> {
  for await (const event of source as AsyncIterable<unknown>) {
    state.event++;
    const data = (event as { data?: unknown } | null)?.data;
    if (typeof event !== 'object' || event === null || typeof data !== 'string') {
      throw mustBe(API, `event ${state.event}`, 'an object with a string data', event);
    }
    const name = (event as { event?: unknown }).event;
    // An event without data (a comment, a keep-alive) says nothing.
    try {
      if (data.trim() !== '') reader(state, typeof name === 'string' && name !== '' ? name : 'message', data);
    } catch (error) {
      // What the event said before its error comes first (a chunk's text before its broken arguments).
      const before = state.take();
      if (before !== null) yield before;
      throw error;
    }
    const snapshot = state.take();
    if (snapshot !== null) yield snapshot;
    if (state.done) return undefined;
  }
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
  const snapshot = state.take();
  if (snapshot !== null) yield snapshot;
  return undefined;
}
