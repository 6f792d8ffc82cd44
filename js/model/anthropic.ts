// Anthropic Messages, `stream: true` (https://docs.anthropic.com/en/docs/build-with-claude/streaming):
// `message_start`, then per content block `content_block_start` (a `text` block, or a `tool_use` block with `id`
// and `name`), `content_block_delta` (`text_delta` text, `input_json_delta` `partial_json`), `content_block_stop`;
// `message_delta` (the stop reason), `message_stop` (the last event); `ping` anywhere; an `error` event (e.g.
// `overloaded_error`). Thinking and citation deltas are ignored.
import { num, obj, parseData, str } from './event_data.js';
import type { ModelState } from './model_state.js';

/** @internal */
export function readAnthropic(state: ModelState, name: string, data: string): void {
  const event = parseData(state, name, data);
  const type = str(event, 'type') ?? name;
  switch (type) {
    case 'content_block_start': {
      const block = obj(event, 'content_block');
      const blockType = str(block, 'type');
      if (blockType === 'text') state.appendText(str(block, 'text') ?? '');
      else if (blockType === 'tool_use') {
        state.startToolCall(num(event, 'index') ?? state.toolCallCount, str(block, 'id'), str(block, 'name') ?? '');
      }
      return;
    }
    case 'content_block_delta': {
      const delta = obj(event, 'delta');
      const deltaType = str(delta, 'type');
      if (deltaType === 'text_delta') state.appendText(str(delta, 'text') ?? '');
      else if (deltaType === 'input_json_delta') {
        const entry = state.toolCall(num(event, 'index') ?? -1);
        if (entry !== undefined) state.appendArguments(entry, str(delta, 'partial_json') ?? '');
      }
      return;
    }
    case 'content_block_stop': {
      const entry = state.toolCall(num(event, 'index') ?? -1);
      if (entry !== undefined) state.completeToolCall(entry);
      return;
    }
    case 'message_delta':
      if (str(obj(event, 'delta'), 'stop_reason') !== undefined) state.ending = true;
      return;
    case 'message_stop':
      state.finish();
      return;
    case 'error': {
      const error = obj(event, 'error');
      state.fail(str(error, 'type') ?? 'error', undefined, str(error, 'message') ?? '');
    }
  }
}
