// Google Gemini, `models/*:streamGenerateContent?alt=sse`
// (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent): every event's data is a
// GenerateContentResponse; of candidate 0, `content.parts[]` hold `text` (thought summaries, `thought: true`,
// are skipped) and `functionCall` (`name`, `args` whole, `id` where given), `finishReason` ends it. Gemini gives a
// call's arguments as a value in one part, so each call is complete when it appears. An `error` object (`code`,
// `message`, `status`) is the provider's error; a prompt blocked (`promptFeedback.blockReason`) too.
import { arr, num, obj, parseData, str } from './event_data.js';
import type { ModelState } from './model_state.js';

/** @internal */
export function readGemini(state: ModelState, name: string, data: string): void {
  const chunk = parseData(state, name, data);
  const error = obj(chunk, 'error');
  if (error !== undefined) {
    const code = num(error, 'code');
    state.fail(
      str(error, 'status') ?? (code === undefined ? 'error' : String(code)),
      code,
      str(error, 'message') ?? '',
    );
  }
  const blocked = str(obj(chunk, 'promptFeedback'), 'blockReason');
  if (blocked !== undefined) state.fail('blocked', blocked, `the prompt was blocked (${blocked})`);
  for (const candidate of arr(chunk, 'candidates')) {
    if ((num(candidate, 'index') ?? 0) !== 0) continue;
    for (const part of arr(obj(candidate, 'content'), 'parts')) {
      const text = str(part, 'text');
      if (text !== undefined && (part as { thought?: unknown }).thought !== true) state.appendText(text);
      const call = obj(part, 'functionCall');
      if (call !== undefined) {
        state.wholeToolCall(str(call, 'id'), str(call, 'name') ?? '', obj(call, 'args') ?? {});
      }
    }
    if (str(candidate, 'finishReason') !== undefined) state.ending = true;
  }
}
