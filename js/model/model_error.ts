// The error a model stream reports when the provider says it failed (an `error` event, a failed response) or when
// the stream stops before the provider's last event: the provider's own words, typed, with where it came.
import type { ModelStreamFormat } from './model_types.js';

/**
 * The provider reported an error in its stream (Anthropic's `error` event, OpenAI Responses' `error` or
 * `response.failed`, an `error` object in an OpenAI Chat Completions or Gemini chunk), or the stream ended before
 * the provider's last event (`type` `'truncated'`). The snapshots before it were delivered.
 *
 * @example
 * try { for await (const s of readModelStream(res, { format: 'anthropic' })) render(s); }
 * catch (e) { if (e instanceof ModelStreamError && e.type === 'overloaded_error') retryLater(); }
 */
export class ModelStreamError extends Error {
  /** The stream's format, as given in `options.format`. */
  readonly format: ModelStreamFormat;
  /**
   * The provider's error type (`'overloaded_error'`, `'server_error'`, `'INVALID_ARGUMENT'`...) or its code where
   * it gives no type; `'truncated'` when the stream ended before its last event; `'failed'` for a response that
   * failed without saying why.
   */
  readonly type: string;
  /** The provider's error code, where it gives one (`'rate_limit_exceeded'`, `429`), else `undefined`. */
  readonly code: string | number | undefined;
  /** The 1-based number of the event that reported it (the count of events read, for `'truncated'`). */
  readonly event: number;

  constructor(
    message: string,
    format: ModelStreamFormat,
    type: string,
    code: string | number | undefined,
    event: number,
  ) {
    super(message);
    this.name = 'ModelStreamError';
    this.format = format;
    this.type = type;
    this.code = code;
    this.event = event;
  }
}
