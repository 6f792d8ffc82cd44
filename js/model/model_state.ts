// What a model stream said so far, kept mutable between events, and the frozen snapshots made of it. Each tool
// call's arguments go through one partial parser, delta by delta (never re-parsed whole: linear in the text), and
// a snapshot is rebuilt only along what an event changed: an unchanged tool call keeps its object. A call whose
// name options.tools lists gets a parser with that schema (checked value by value, its output once complete).
import { JsonLimitError, JsonSchemaError, JsonSyntaxError } from '../errors.js';
import type { PartialJsonOptions } from '../partial/partial_options.js';
import { PartialCore } from '../partial/partial_parser.js';
import { ASYNC_SCHEMA, resolveSchema, validateFinal } from '../partial/schema.js';
import type { StandardSchemaV1 } from '../partial/standard_schema.js';
import type { ApiName } from '../validate.js';
import { ModelStreamError } from './model_error.js';
import type { ModelSnapshot, ModelStreamFormat, ModelToolCall } from './model_types.js';

const EMPTY_ARGUMENTS = Object.freeze({});
/** No value yet (`undefined` is one). */
const NONE: unique symbol = Symbol('none');
const NO_CALLS: readonly ModelToolCall[] = Object.freeze([]);

/** @internal A tool call while it streams. */
export interface ToolEntry {
  readonly index: number;
  id: string | undefined;
  name: string;
  parser: PartialCore<unknown>;
  /** The schema options.tools lists for its name, once the name is known. */
  schema_: StandardSchemaV1 | undefined;
  /** The argument text so far, kept while a call has no name yet and options.tools may list the one it gets. */
  text_: string | null;
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
  private readonly partialOptions_: PartialJsonOptions;
  /** The 1-based number of the event being read (named by errors). */
  event = 0;
  /** The provider said the response ends (a finish reason); its last event may still follow. */
  ending = false;
  done = false;
  /** The format's reader's own memory between events (openai_chat.ts: its envelope), null until it sets one. */
  memo_: unknown = null;
  private text_ = '';
  private readonly textParser_: PartialCore<unknown> | null;
  private readonly calls_: ToolEntry[] = [];
  private readonly byKey_ = new Map<string | number, ToolEntry>();
  private changed_ = false;
  private callsChanged_ = false;
  private toolCalls_: readonly ModelToolCall[] = NO_CALLS;
  private last_: ModelSnapshot | null = null;
  /** The tools' schemas by name (options.tools), or null. */
  private readonly tools_: ReadonlyMap<string, StandardSchemaV1> | null;
  /** With options.schema, the text's final value (the schema's output) once finish() ended it. */
  private textOutput_: unknown = NONE;

  constructor(
    api: ApiName,
    format: ModelStreamFormat,
    json: boolean,
    partialOptions: PartialJsonOptions,
    textSchema: StandardSchemaV1 | undefined,
    tools: ReadonlyMap<string, StandardSchemaV1> | null,
  ) {
    this.api = api;
    this.format = format;
    this.partialOptions_ = partialOptions;
    this.textParser_ = json ? this.parserFor_(textSchema) : null;
    this.tools_ = tools;
  }

  appendText(delta: string): void {
    if (delta === '') return;
    this.text_ += delta;
    this.changed_ = true;
    if (this.textParser_ !== null) this.guard_('the text', () => this.textParser_!.push(delta));
  }

  /** The tool call the provider names `key` (an index, an item or block id), or `undefined`. */
  toolCall(key: string | number): ToolEntry | undefined {
    return this.byKey_.get(key);
  }

  /** A new tool call, known to the provider as `key`. */
  startToolCall(key: string | number, id: string | undefined, name: string): ToolEntry {
    const schema = this.schemaOf_(name);
    const entry: ToolEntry = {
      index: this.calls_.length,
      id,
      name,
      parser: this.parserFor_(schema),
      schema_: schema,
      // Only while the name may still come (OpenAI Chat sends it in a later delta on some servers).
      text_: name === '' && this.tools_ !== null ? '' : null,
      empty: true,
      complete: false,
      value: undefined,
      snapshot: null,
    };
    this.calls_.push(entry);
    this.byKey_.set(key, entry);
    this.touch_(entry);
    return entry;
  }

  /** Another name the provider uses for the same call (OpenAI Responses: an item id and an output index). */
  alias(entry: ToolEntry, key: string | number): void {
    this.byKey_.set(key, entry);
  }

  get toolCallCount(): number {
    return this.calls_.length;
  }

  /** Every call ended (a finish reason): their arguments must be whole. */
  completeToolCalls(): void {
    for (const entry of this.calls_) this.completeToolCall(entry);
  }

  setIdentity(entry: ToolEntry, id: string | undefined, name: string | undefined): void {
    if (id !== undefined && entry.id === undefined) {
      entry.id = id;
      this.touch_(entry);
    }
    if (name !== undefined && name !== '' && entry.name === '') {
      entry.name = name;
      this.touch_(entry);
      const text = entry.text_;
      entry.text_ = null;
      const schema = this.schemaOf_(name);
      if (text !== null && schema !== undefined) this.replay_(entry, schema, text);
    }
  }

  /** The name came after the arguments started: they are read again, from the start, by a checked parser. */
  private replay_(entry: ToolEntry, schema: StandardSchemaV1, text: string): void {
    const ended = entry.complete;
    entry.schema_ = schema;
    entry.parser = this.parserFor_(schema);
    entry.empty = true;
    entry.complete = false;
    entry.value = undefined;
    this.appendArguments(entry, text);
    if (ended) this.completeToolCall(entry);
  }

  private schemaOf_(name: string): StandardSchemaV1 | undefined {
    const tools = this.tools_;
    return tools === null || name === '' ? undefined : tools.get(name);
  }

  private parserFor_(schema: StandardSchemaV1 | undefined): PartialCore<unknown> {
    return new PartialCore(this.api, schema === undefined ? this.partialOptions_ : { ...this.partialOptions_, schema });
  }

  appendArguments(entry: ToolEntry, delta: string): void {
    if (delta === '') return;
    if (entry.text_ !== null) entry.text_ += delta;
    if (entry.complete) {
      // After the close only whitespace may follow: anything else is the parser's TRAILING_DATA error.
      if (delta.trim() !== '') this.pushArguments_(entry, delta);
      return;
    }
    if (entry.empty && delta.trim() !== '') entry.empty = false;
    const value = this.pushArguments_(entry, delta);
    if (value !== entry.value) {
      entry.value = value;
      this.touch_(entry);
    }
    if (value !== undefined && entry.parser.pending === null) {
      // The root closed: the value is final (end() would return the same root, or with a schema its output).
      if (entry.schema_ !== undefined)
        entry.value = freezePlain(this.guard_(describeCall(entry), () => entry.parser.output_()));
      entry.complete = true;
      this.touch_(entry);
    }
  }

  /** A call given whole, its arguments a value (Gemini): final at once. With a schema, checked before it shows. */
  wholeToolCall(id: string | undefined, name: string, value: unknown): void {
    const schema = this.schemaOf_(name);
    let args: unknown;
    if (schema === undefined) args = deepFreeze(value);
    else {
      // Checked as the other formats' arguments are, as their JSON text (positions are in that text); `integers`
      // does not apply to a value parsed already.
      const parser = new PartialCore(this.api, { ...this.partialOptions_, integers: undefined, schema });
      const what = describeCall({ index: this.calls_.length, name });
      args = freezePlain(
        this.guard_(what, () => {
          parser.push(JSON.stringify(value));
          return parser.end();
        }),
      );
    }
    const entry = this.startToolCall(this.calls_.length, id, name);
    entry.value = args;
    entry.empty = false;
    entry.complete = true;
  }

  /** The provider ended the call: its arguments must be whole. */
  completeToolCall(entry: ToolEntry): void {
    if (entry.complete) return;
    const what = describeCall(entry);
    if (!entry.empty) {
      const value = this.guard_(what, () => entry.parser.end());
      entry.value = entry.schema_ === undefined ? value : freezePlain(value);
    } else if (entry.schema_ === undefined) entry.value = EMPTY_ARGUMENTS;
    else {
      // No text to point into: the schema's own check of {}, at the arguments' start.
      const schema = resolveSchema(this.api, entry.schema_)!;
      const where = { offset: 0, line: 1, column: 1 };
      entry.value = freezePlain(this.guard_(what, () => validateFinal(schema, EMPTY_ARGUMENTS, where, false)));
    }
    entry.complete = true;
    this.touch_(entry);
  }

  /** The provider's last event: every call and the text are ended. */
  finish(): void {
    this.completeToolCalls();
    if (this.textParser_ !== null && this.text_.trim() !== '') {
      const output = this.guard_('the text', () => this.textParser_!.end());
      // With options.schema, the final value is the schema's output (transforms applied), as end() gives it.
      if (output !== this.textParser_.value) this.textOutput_ = freezePlain(output);
    }
    this.done = true;
    this.changed_ = true;
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
    if (!this.changed_) return null;
    this.changed_ = false;
    if (this.callsChanged_) {
      this.callsChanged_ = false;
      const calls = this.calls_.map((entry) => {
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
      this.toolCalls_ = Object.freeze(calls);
    }
    const snapshot: ModelSnapshot = Object.freeze({
      text: this.text_,
      value: (this.textOutput_ !== NONE
        ? this.textOutput_
        : this.textParser_ === null
          ? undefined
          : this.textParser_.value) as ModelSnapshot['value'],
      toolCalls: this.toolCalls_,
      done: this.done,
    });
    const last = this.last_;
    if (
      last !== null &&
      last.text === snapshot.text &&
      last.value === snapshot.value &&
      last.toolCalls === snapshot.toolCalls &&
      last.done === snapshot.done
    ) {
      return null;
    }
    this.last_ = snapshot;
    return snapshot;
  }

  private touch_(entry: ToolEntry): void {
    entry.snapshot = null;
    this.callsChanged_ = true;
    this.changed_ = true;
  }

  /** guard() inlined: once per delta, where a closure and the call's description would cost what the push does. */
  private pushArguments_(entry: ToolEntry, delta: string): unknown {
    try {
      return entry.parser.push(delta);
    } catch (error) {
      throw this.named_(describeCall(entry), error);
    }
  }

  /** Runs a partial parser's call; its syntax or limit error names what it was reading and the event. */
  private guard_<R>(what: string, run: () => R): R {
    try {
      return run();
    } catch (error) {
      throw this.named_(what, error);
    }
  }

  private named_(what: string, error: unknown): unknown {
    const prefix = `${this.api}: ${what} at event ${this.event}: `;
    if (error instanceof TypeError && !(error instanceof JsonSchemaError) && error.message.includes(ASYNC_SCHEMA)) {
      return new TypeError(`${prefix}${ASYNC_SCHEMA}; readModelStream() needs a synchronous one`);
    }
    return renamed(error, prefix);
  }
}

function describeCall(entry: Pick<ToolEntry, 'index' | 'name'>): string {
  return `the arguments of tool call ${entry.index} (${JSON.stringify(entry.name)})`;
}

/** @internal The same syntax or limit error (code, position) with its message prefixed; any other error as it is. */
export function renamed(error: unknown, prefix: string): unknown {
  if (error instanceof JsonSyntaxError) return new JsonSyntaxError(prefix + error.message, error.code, error);
  if (error instanceof JsonLimitError) return new JsonLimitError(prefix + error.message, error.code, error);
  if (error instanceof JsonSchemaError) return new JsonSchemaError(error.issues, error, prefix);
  return error;
}

/** A schema's output frozen as snapshots are: its plain objects and arrays (a transform's Date or class is left). */
function freezePlain(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
  for (const key of Object.keys(value)) freezePlain((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}
