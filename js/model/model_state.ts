// What a model stream said so far, kept mutable between events, and the frozen snapshots made of it. Each tool
// call's arguments go through one partial parser, delta by delta (never re-parsed whole: linear in the text), and
// a snapshot is rebuilt only along what an event changed: an unchanged tool call keeps its object.
import { JsonLimitError, JsonSyntaxError } from '../errors.js';
import { PartialCore, type PartialJsonOptions } from '../partial/partial_parser.js';
import type { ApiName } from '../validate.js';
import { ModelStreamError } from './model_error.js';
import type { ModelSnapshot, ModelStreamFormat, ModelToolCall } from './model_types.js';

const EMPTY_ARGUMENTS = Object.freeze({});
const NO_CALLS: readonly ModelToolCall[] = Object.freeze([]);

/** @internal A tool call while it streams. */
export interface ToolEntry {
  readonly index: number;
  id: string | undefined;
  name: string;
  readonly parser: PartialCore<unknown>;
  /** No character other than whitespace was pushed. */
  empty: boolean;
  complete: boolean;
  value: unknown;
  snapshot: ModelToolCall | null;
}

/** @internal The state of one stream; the format's reader calls it once per event. */
export class ModelState {
  readonly api: ApiName;
  readonly format: ModelStreamFormat;
  private readonly partialOptions: PartialJsonOptions;
  /** The 1-based number of the event being read (named by errors). */
  event = 0;
  /** The provider said the response ends (a finish reason); its last event may still follow. */
  ending = false;
  done = false;
  private text = '';
  private readonly textParser: PartialCore<unknown> | null;
  private readonly calls: ToolEntry[] = [];
  private readonly byKey = new Map<string | number, ToolEntry>();
  private changed = false;
  private callsChanged = false;
  private toolCalls: readonly ModelToolCall[] = NO_CALLS;
  private last: ModelSnapshot | null = null;

  constructor(api: ApiName, format: ModelStreamFormat, json: boolean, partialOptions: PartialJsonOptions) {
    this.api = api;
    this.format = format;
    this.partialOptions = partialOptions;
    this.textParser = json ? new PartialCore(api, partialOptions) : null;
  }

  appendText(delta: string): void {
    if (delta === '') return;
    this.text += delta;
    this.changed = true;
    if (this.textParser !== null) this.guard('the text', () => this.textParser!.push(delta));
  }

  /** The tool call the provider names `key` (an index, an item or block id), or `undefined`. */
  toolCall(key: string | number): ToolEntry | undefined {
    return this.byKey.get(key);
  }

  /** A new tool call, known to the provider as `key`. */
  startToolCall(key: string | number, id: string | undefined, name: string): ToolEntry {
    const entry: ToolEntry = {
      index: this.calls.length,
      id,
      name,
      parser: new PartialCore(this.api, this.partialOptions),
      empty: true,
      complete: false,
      value: undefined,
      snapshot: null,
    };
    this.calls.push(entry);
    this.byKey.set(key, entry);
    this.touch(entry);
    return entry;
  }

  /** Another name the provider uses for the same call (OpenAI Responses: an item id and an output index). */
  alias(entry: ToolEntry, key: string | number): void {
    this.byKey.set(key, entry);
  }

  get toolCallCount(): number {
    return this.calls.length;
  }

  /** Every call ended (a finish reason): their arguments must be whole. */
  completeToolCalls(): void {
    for (const entry of this.calls) this.completeToolCall(entry);
  }

  setIdentity(entry: ToolEntry, id: string | undefined, name: string | undefined): void {
    if (id !== undefined && entry.id === undefined) {
      entry.id = id;
      this.touch(entry);
    }
    if (name !== undefined && name !== '' && entry.name === '') {
      entry.name = name;
      this.touch(entry);
    }
  }

  appendArguments(entry: ToolEntry, delta: string): void {
    if (delta === '') return;
    if (entry.complete) {
      // After the close only whitespace may follow: anything else is the parser's TRAILING_DATA error.
      if (delta.trim() !== '') this.pushArguments(entry, delta);
      return;
    }
    if (entry.empty && delta.trim() !== '') entry.empty = false;
    const value = this.pushArguments(entry, delta);
    if (value !== entry.value) {
      entry.value = value;
      this.touch(entry);
    }
    if (value !== undefined && entry.parser.pending === null) {
      // The root closed: the value is final (end() would return the same root).
      entry.complete = true;
      this.touch(entry);
    }
  }

  /** Arguments given whole, as a value (Gemini): final at once. */
  setArguments(entry: ToolEntry, value: unknown): void {
    entry.value = deepFreeze(value);
    entry.empty = false;
    entry.complete = true;
    this.touch(entry);
  }

  /** The provider ended the call: its arguments must be whole. */
  completeToolCall(entry: ToolEntry): void {
    if (entry.complete) return;
    entry.value = entry.empty ? EMPTY_ARGUMENTS : this.guard(describeCall(entry), () => entry.parser.end());
    entry.complete = true;
    this.touch(entry);
  }

  /** The provider's last event: every call and the text are ended. */
  finish(): void {
    this.completeToolCalls();
    if (this.textParser !== null && this.text.trim() !== '') this.guard('the text', () => this.textParser!.end());
    this.done = true;
    this.changed = true;
  }

  /** The provider reported an error: `type` its type (or code), `message` its words. */
  fail(type: string, code: string | number | undefined, message: string): never {
    const what = code !== undefined && String(code) !== type ? `${type} (${code})` : type;
    throw new ModelStreamError(
      `${this.api}: the ${this.format} stream reported an error at event ${this.event}: ${what}: ${message}`,
      this.format,
      type,
      code,
      this.event,
    );
  }

  /** The snapshot after the events read so far, or `null` if the last one changed nothing. */
  take(): ModelSnapshot | null {
    if (!this.changed) return null;
    this.changed = false;
    if (this.callsChanged) {
      this.callsChanged = false;
      const calls = this.calls.map((entry) => {
        if (entry.snapshot === null) {
          entry.snapshot = Object.freeze({
            index: entry.index,
            id: entry.id,
            name: entry.name,
            arguments: entry.value as ModelToolCall['arguments'],
            complete: entry.complete,
          });
        }
        return entry.snapshot;
      });
      this.toolCalls = Object.freeze(calls);
    }
    const snapshot: ModelSnapshot = Object.freeze({
      text: this.text,
      value: (this.textParser === null ? undefined : this.textParser.value) as ModelSnapshot['value'],
      toolCalls: this.toolCalls,
      done: this.done,
    });
    const last = this.last;
    if (
      last !== null &&
      last.text === snapshot.text &&
      last.value === snapshot.value &&
      last.toolCalls === snapshot.toolCalls &&
      last.done === snapshot.done
    ) {
      return null;
    }
    this.last = snapshot;
    return snapshot;
  }

  private touch(entry: ToolEntry): void {
    entry.snapshot = null;
    this.callsChanged = true;
    this.changed = true;
  }

  private pushArguments(entry: ToolEntry, delta: string): unknown {
    return this.guard(describeCall(entry), () => entry.parser.push(delta));
  }

  /** Runs a partial parser's call; its syntax or limit error names what it was reading and the event. */
  private guard<R>(what: string, run: () => R): R {
    try {
      return run();
    } catch (error) {
      throw renamed(error, `${this.api}: ${what} at event ${this.event}: `);
    }
  }
}

function describeCall(entry: ToolEntry): string {
  return `the arguments of tool call ${entry.index} (${JSON.stringify(entry.name)})`;
}

/** @internal The same syntax or limit error (code, position) with its message prefixed; any other error as it is. */
export function renamed(error: unknown, prefix: string): unknown {
  if (error instanceof JsonSyntaxError) return new JsonSyntaxError(prefix + error.message, error.code, error);
  if (error instanceof JsonLimitError) return new JsonLimitError(prefix + error.message, error.code, error);
  return error;
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}
