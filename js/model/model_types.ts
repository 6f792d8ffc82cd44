// The public shapes of readModelStream: its options, the events it reads and the snapshots it yields.
import type { PartialJsonOptions, PartialValue } from '../partial/partial_parser.js';

/** A provider's streaming format (docs/model.md lists the events each one reads). */
export type ModelStreamFormat = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** One server-sent event: its `event` field (`'message'` when absent) and its `data`. */
export interface ModelEvent {
  readonly event?: string;
  readonly data: string;
}

/** Options of {@link readModelStream}: the format, how text reads, and the partial parser's options. */
export interface ModelStreamOptions extends PartialJsonOptions {
  /** The provider's streaming format. */
  readonly format: ModelStreamFormat;
  /**
   * `'json'`: the text output is JSON (OpenAI's `response_format` / `text.format` json_schema, Gemini's
   * `responseSchema`, a prefilled Anthropic answer) and each snapshot's `value` is its partial value.
   * @default 'string'
   */
  readonly text?: 'string' | 'json';
  /** The most bytes one event may hold, as {@link parseEventStream}'s option (a body read here). @default 16 MiB */
  readonly maxEventBytes?: number;
}

/** One tool (function) call of a snapshot. Frozen; unchanged from one snapshot to the next, it is the same object. */
export interface ModelToolCall {
  /** Its position among the response's tool calls, from 0 (OpenAI Chat Completions: the provider's `index`). */
  readonly index: number;
  /** The provider's id of the call (what a tool result names), or `undefined` where the provider gives none. */
  readonly id: string | undefined;
  /** The tool's name. */
  readonly name: string;
  /**
   * The partial value of its arguments so far, as createPartialParser shows it (`undefined` until the first
   * character of the JSON text); once `complete`, the final value (`{}` for arguments left empty).
   */
  readonly arguments: PartialValue<unknown> | undefined;
  /** Its arguments are whole: the JSON text closed, or the provider ended the call. */
  readonly complete: boolean;
}

/** What the response said so far. Frozen, structurally shared: a part that did not change keeps its identity. */
export interface ModelSnapshot<T = unknown> {
  /** The text output so far (every text delta, joined). */
  readonly text: string;
  /** With `text: 'json'`: the partial value of `text` (`undefined` until it starts); otherwise `undefined`. */
  readonly value: PartialValue<T> | undefined;
  /** The tool calls so far, by `index`. */
  readonly toolCalls: readonly ModelToolCall[];
  /** The provider's last event came: every value above is final. */
  readonly done: boolean;
}
