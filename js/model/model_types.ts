// The public shapes of readModelStream: its options, the events it reads and the snapshots it yields.
import type { PartialJsonOptions, PartialValue } from '../partial/partial_options.js';
import type { StandardSchemaV1 } from '../partial/standard_schema.js';

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
  /**
   * With `text: 'json'`: a Standard Schema (zod 4, valibot 1, arktype...) of the text's value, checked as
   * createPartialParser's `schema` (each value when it ends; a violation is a {@link JsonSchemaError}). The last
   * snapshot's `value` is the schema's output.
   */
  readonly schema?: StandardSchemaV1;
  /**
   * A Standard Schema per tool name: a call of a listed tool has its arguments checked as createPartialParser's
   * `schema` checks (a violation is a {@link JsonSchemaError} naming the call), and once `complete` they are the
   * schema's output. Calls of other tools are not checked. Their `arguments` stay typed `unknown`.
   */
  readonly tools?: { readonly [name: string]: StandardSchemaV1 };
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

/**
 * What the response said so far. Frozen, structurally shared: a part that did not change keeps its identity.
 * `T` is the text's value (with `text: 'json'`), `R` its final value where that differs (a schema's output).
 */
export interface ModelSnapshot<T = unknown, R = never> {
  /** The text output so far (every text delta, joined). */
  readonly text: string;
  /**
   * With `text: 'json'`: the partial value of `text` (`undefined` until it starts); with a `schema`, in the last
   * snapshot, the schema's output. Otherwise `undefined`.
   */
  readonly value: PartialValue<T> | R | undefined;
  /** The tool calls so far, by `index`. */
  readonly toolCalls: readonly ModelToolCall[];
  /** The provider's last event came: every value above is final. */
  readonly done: boolean;
}
