// OpenAI Responses, `stream: true` (https://platform.openai.com/docs/api-reference/responses-streaming): typed
// events, `event:` and the data's `type` alike. Read: `response.output_text.delta` (text),
// `response.output_item.added` with a `function_call` item (`id`, `call_id`, `name`),
// `response.function_call_arguments.delta` / `.done` (by `item_id`), `response.output_item.done`,
// `response.completed` (the last event), `response.incomplete`, `response.failed` and `error`. Every other event
// (created, in_progress, content_part, reasoning, refusal...) is ignored.
import { codeOf, num, obj, parseData, str } from './event_data.js';
import type { ModelState, ToolEntry } from './model_state.js';

/** @internal */
export function readOpenAIResponses(state: ModelState, name: string, data: string): void {
  const event = parseData(state, name, data);
  const type = str(event, 'type') ?? name;
  switch (type) {
    case 'response.output_text.delta':
      state.appendText(str(event, 'delta') ?? '');
      return;
    case 'response.output_item.added': {
      const item = obj(event, 'item');
      if (str(item, 'type') !== 'function_call') return;
      const itemId = str(item, 'id');
      const index = num(event, 'output_index');
      const entry = state.startToolCall(
        itemId ?? index ?? state.toolCallCount,
        str(item, 'call_id') ?? itemId,
        str(item, 'name') ?? '',
      );
      if (index !== undefined) state.alias(entry, index);
      state.appendArguments(entry, str(item, 'arguments') ?? '');
      return;
    }
    case 'response.function_call_arguments.delta': {
      const entry = callOf(state, event);
      if (entry !== undefined) state.appendArguments(entry, str(event, 'delta') ?? '');
      return;
    }
    case 'response.function_call_arguments.done':
    case 'response.output_item.done': {
      const entry = callOf(state, event);
      if (entry !== undefined) state.completeToolCall(entry);
      return;
    }
    case 'response.completed':
      state.finish();
      return;
    case 'response.incomplete': {
      const reason = str(obj(obj(event, 'response'), 'incomplete_details'), 'reason') ?? 'unknown';
      state.fail('incomplete', reason, `the response is incomplete (${reason})`);
      break;
    }
    case 'response.failed': {
      const error = obj(obj(event, 'response'), 'error');
      const code = codeOf(error);
      state.fail(code === undefined ? 'failed' : String(code), code, str(error, 'message') ?? 'the response failed');
      break;
    }
    case 'error': {
      const code = codeOf(event);
      state.fail(code === undefined ? 'error' : String(code), code, str(event, 'message') ?? '');
    }
  }
}

function callOf(state: ModelState, event: unknown): ToolEntry | undefined {
  const itemId = str(event, 'item_id') ?? str(obj(event, 'item'), 'id');
  const byId = itemId === undefined ? undefined : state.toolCall(itemId);
  if (byId !== undefined) return byId;
  const index = num(event, 'output_index');
  return index === undefined ? undefined : state.toolCall(index);
}
