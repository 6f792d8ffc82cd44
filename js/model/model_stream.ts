// readModelStream: a model provider's stream read into snapshots of its text and tool calls. The source here is
// the stream's events ({ event, data }, as an SSE parser yields them); each event goes to its format's reader,
// which updates the state, and a snapshot follows every event that changed something. Breaking out of the loop
// closes the source.
import { PartialCore, type PartialJsonOptions } from '../partial/partial_parser.js';
import { checkOptions, misuse, mustBe, optionalOneOf } from '../validate.js';
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

const OPTIONS = ['format', 'text', 'numbers', 'integers', 'maxDepth', 'maxElementBytes'] as const;

/** What readModelStream reads: the stream's events, in order. */
export type ModelEventSource = AsyncIterable<ModelEvent> | Iterable<ModelEvent>;

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
 * {@link JsonSyntaxError} for an event's data that is not JSON or arguments that are not, naming the event.
 */
export function readModelStream<T = unknown>(
  source: ModelEventSource,
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
  const state = new ModelState(API, format, text === 'json', partial);
  const iterable = source as Partial<AsyncIterable<unknown> & Iterable<unknown>> | null;
  if (
    typeof iterable !== 'object' ||
    iterable === null ||
    (typeof iterable[Symbol.asyncIterator] !== 'function' && typeof iterable[Symbol.iterator] !== 'function')
  ) {
    throw mustBe(API, 'source', 'an iterable or async iterable of events', source);
  }
  return snapshots(source, state, READERS[format]) as AsyncIterableIterator<ModelSnapshot<T>>;
}

async function* snapshots(
  source: ModelEventSource,
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
    if (data.trim() !== '') reader(state, typeof name === 'string' && name !== '' ? name : 'message', data);
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
