// OpenAI Chat Completions, `stream: true` (https://platform.openai.com/docs/api-reference/chat-streaming): every
// event is a `chat.completion.chunk` whose `choices[].delta` holds `content` (text) and `tool_calls[]` (`index`;
// `id`, `function.name` in a call's first delta; `function.arguments` pieces); `finish_reason` ends the choice,
// a chunk with `usage` and no choices may follow, then `data: [DONE]`. Only choice 0 is read (`n` > 1 is rare
// with tools). An `error` object in a chunk is the provider's error.
import { arr, codeOf, num, obj, parseData, str } from './event_data.js';
import type { ModelState } from './model_state.js';

/** @internal */
export function readOpenAIChat(state: ModelState, name: string, data: string): void {
  if (data.trim() === '[DONE]') {
    state.finish();
    return;
  }
  const chunk = parseData(state, name, data);
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
