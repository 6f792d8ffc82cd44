// The options of the event stream writers: the encoder's (but `space`: data is one line) and their own.
import {
  resolveStringifyOptions,
  STRINGIFY_OPTIONS,
  type ResolvedStringifyOptions,
  type StringifyOptions,
} from '../encode/options.js';
import { checkOptions, integerIn, misuse, optionalFunction, optionalOneOf, type ApiName } from '../validate.js';

/** Options of {@link EventStreamResponse} and {@link stringifyEventStream}. */
export interface StringifyEventStreamOptions extends Omit<StringifyOptions, 'space'> {
  /**
   * How an item that is not an {@link sseEvent} is written: `'json'`, its `JSON.stringify` text on one `data:`
   * line; `'text'`, the string itself, one `data:` line per line (an item that is not a string errors the stream).
   * @default 'json'
   */
  readonly format?: 'json' | 'text';
  /**
   * Milliseconds the source may stay silent before a comment line (`:`) is written to keep proxies and the
   * client from closing an idle connection; again after each such interval. 0 disables it. From 0 to 2^31 - 1.
   * @default 15000
   */
  readonly heartbeatMs?: number;
  /**
   * Called with the error when the source fails (throws, rejects, a stream errors): what it returns is written as
   * the last event (a value, or an {@link sseEvent}; `undefined`: nothing) and the stream then ends normally. Unset,
   * or if it throws, the stream errors (the response is cut off: the client sees a network error, and reconnects).
   * @default undefined
   */
  readonly errorEvent?: (error: unknown) => unknown;
}

/** @internal */
export interface ResolvedStringifyEventStreamOptions {
  readonly stringify: ResolvedStringifyOptions;
  readonly text: boolean;
  readonly heartbeatMs: number;
  readonly errorEvent: ((error: unknown) => unknown) | undefined;
}

const OWN_OPTIONS = ['format', 'heartbeatMs', 'errorEvent'] as const;
const ENCODER_OPTIONS = STRINGIFY_OPTIONS.filter((name) => name !== 'space');
const OPTIONS = [...OWN_OPTIONS, ...ENCODER_OPTIONS];
const DEFAULT_HEARTBEAT_MS = 15_000;
/** setTimeout's largest delay. */
const MAX_HEARTBEAT_MS = 2 ** 31 - 1;

/** @internal Validates options eagerly (a TypeError naming the option) and applies the defaults. */
export function resolveStringifyEventStreamOptions(
  api: ApiName,
  input: StringifyEventStreamOptions | undefined,
): ResolvedStringifyEventStreamOptions {
  if ((input as StringifyOptions | undefined)?.space !== undefined && typeof input === 'object') {
    throw misuse(api, 'options.space is not supported: an event’s data is one line');
  }
  const options = checkOptions(api, input, OPTIONS);
  const encoderOptions: Record<string, unknown> = {};
  for (const name of ENCODER_OPTIONS) if (options[name] !== undefined) encoderOptions[name] = options[name];
  const format = optionalOneOf(api, options, 'format', ['json', 'text'] as const);
  const heartbeatMs = options.heartbeatMs;
  return {
    stringify: resolveStringifyOptions(api, encoderOptions as StringifyOptions),
    text: format === 'text',
    heartbeatMs:
      heartbeatMs === undefined
        ? DEFAULT_HEARTBEAT_MS
        : integerIn(api, 'options.heartbeatMs', heartbeatMs, 0, MAX_HEARTBEAT_MS),
    errorEvent: optionalFunction(api, options, 'errorEvent') as ((error: unknown) => unknown) | undefined,
  };
}
