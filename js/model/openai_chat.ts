// OpenAI Chat Completions, `stream: true` (https://platform.openai.com/docs/api-reference/chat-streaming): every
// event is a `chat.completion.chunk` whose `choices[].delta` holds `content` (text) and `tool_calls[]` (`index`;
// `id`, `function.name` in a call's first delta; `function.arguments` pieces); `finish_reason` ends the choice,
// a chunk with `usage` and no choices may follow, then `data: [DONE]`. Only choice 0 is read (`n` > 1 is rare
// with tools). An `error` object in a chunk is the provider's error.
import { envelopeOf, parseInEnvelope, type Envelope, type Slot } from './envelope.js';
import { arr, codeOf, num, obj, parseData, str } from './event_data.js';
import type { ModelState } from './model_state.js';

/**
 * What readOpenAIChat keeps between events: the last chunk's envelope (envelope.ts), and how many more times it
 * may try to make one before one serves (a try costs up to a parse): a stream whose every chunk differs outside
 * the delta stops trying after TRIES.
 */
interface ChatMemo {
  envelope_: Envelope | null;
  tries_: number;
}

const TRIES = 3;

/** @internal */
export function readOpenAIChat(state: ModelState, name: string, data: string): void {
  if (data.trim() === '[DONE]') {
    state.finish();
    return;
  }
  let memo = state.memo_ as ChatMemo | null;
  if (memo === null) state.memo_ = memo = { envelope_: null, tries_: TRIES };
  let chunk = memo.envelope_ === null ? undefined : parseInEnvelope(memo.envelope_, data);
  if (chunk !== undefined) memo.tries_ = TRIES;
  else {
    chunk = parseData(state, name, data);
    if (memo.tries_ > 0) {
      memo.tries_--;
      memo.envelope_ = envelopeOf(data, chunk, deltaSlot) ?? memo.envelope_;
    }
  }
  readChunk(state, chunk);
}

/** The delta string of a chunk: choice 0's first tool call's arguments, else its text. */
export function deltaSlot(chunk: unknown): Slot | null {
  const choices = arr(chunk, 'choices');
  if (choices.length !== 1) return null;
  const delta = obj(choices[0], 'delta');
  const fn = obj(arr(delta, 'tool_calls')[0], 'function');
  if (str(fn, 'arguments') !== undefined) return { holder_: fn!, key_: 'arguments' };
  return str(delta, 'content') !== undefined ? { holder_: delta!, key_: 'content' } : null;
}

/** A chunk's effect; it keeps no part of `chunk` (an envelope's value is rewritten for the next event). */
function readChunk(state: ModelState, chunk: unknown): void {
  const error = obj(chunk, 'error');
  if (error !== undefined) {
    const code = codeOf(error);
    state.fail(str(error, 'type') ?? (code === undefined ? 'error' : String(code)), code, str(error, 'message') ?? '');
  }
  for (const choice of arr(chunk, 'choices')) {
    if ((num(choice, 'index') ?? 0) !== 0) continue;
    const delta = obj(choice, 'delta');
    const content = str(delta, 'content');
    if (content !== undefined) state.appendText(content);
    for (const call of arr(delta, 'tool_calls')) {
      const fn = obj(call, 'function');
      const id = str(call, 'id');
      // Servers that omit `index` send one call at a time: a new id starts a call, no id continues the last.
      const key = num(call, 'index') ?? id ?? state.toolCallCount - 1;
      let entry = state.toolCall(key);
      if (entry === undefined) entry = state.startToolCall(key, id, str(fn, 'name') ?? '');
      else state.setIdentity(entry, id, str(fn, 'name'));
      const args = str(fn, 'arguments');
      if (args !== undefined) state.appendArguments(entry, args);
    }
    if (str(choice, 'finish_reason') !== undefined) {
      state.ending = true;
      state.completeToolCalls();
    }
  }
}
