// The options and public types of createPartialParser and partialJson, and the options once checked.
import { checkOptions, optionalOneOf, resolveLimits, type ApiName } from '../validate.js';
import { resolveIntegers, type IntegersMode, type IntegersOption } from '../parse/integers.js';
import { resolveSchema, type ResolvedSchema } from './schema.js';
import type { StandardSchemaV1 } from './standard_schema.js';

/** Options of {@link createPartialParser} and {@link partialJson}. */
export interface PartialJsonOptions {
  /**
   * Deepest nesting allowed, 1 to 1,000,000.
   * @default 1024
   */
  readonly maxDepth?: number;
  /**
   * Largest document (the root value's bytes, as UTF-8) allowed, 1 to 4,294,967,295.
   * @default 268435456 (256 MiB)
   */
  readonly maxElementBytes?: number;
  /**
   * `'complete'`: a number appears once it is complete (a delimiter or the end follows it). `'partial'`: as soon
   * as its text starts with a number, as the longest such prefix (`1.5e-` shows 1.5); it stays a number.
   * @default 'complete'
   */
  readonly numbers?: 'complete' | 'partial';
  /**
   * How integers outside ±(2^53 - 1) are read, as the push parser's `integers`: `'number'` rounded, as
   * `JSON.parse` reads them; `'bigint'` as a `BigInt` with every digit; `'string'` as their digits. In snapshots
   * too (with `numbers: 'partial'`, an unfinished integer's digits so far).
   * @default 'number'
   */
  readonly integers?: IntegersOption;
  /**
   * A Standard Schema (zod 4, valibot 1, arktype...) the value must match. With a JSON Schema of it (the Standard
   * JSON Schema interface, `~standard.jsonSchema`: zod 4, arktype), each value is checked once, when it ends, and a
   * violation throws a {@link JsonSchemaError} from the push holding the byte that ends it. Without one (valibot),
   * only the final value is checked. `end()` returns the schema's own `validate()` output.
   */
  readonly schema?: StandardSchemaV1;
}

/** The input type of a Standard Schema: what its JSON text holds. */
export type SchemaInput<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly input: infer I }
    ? I
    : unknown
  : unknown;

/** The output type of a Standard Schema: what its validate() returns. */
export type SchemaOutput<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly output: infer O }
    ? O
    : unknown
  : unknown;

/** A snapshot of a `T` still being written: any member may be missing yet, and nothing can be changed. */
export type PartialValue<T> = T extends readonly (infer E)[]
  ? readonly PartialValue<E>[]
  : T extends object
    ? { readonly [K in keyof T]?: PartialValue<T[K]> }
    : T;

/** A chunk of a partial document: text (a model's text delta) or bytes (a response body's chunk). */
export type PartialChunk = string | Uint8Array | ArrayBuffer;

/** A synchronous partial JSON parser; see {@link createPartialParser}. */
export interface PartialParser<T = unknown, R = T> {
  /**
   * Reads the next piece of the text; returns the snapshot of the root, or `undefined` until the root's type is
   * known. A push that changes nothing returns the same snapshot (`===`).
   * @throws {JsonSyntaxError | JsonLimitError} as soon as no continuation could make the text valid; `value` keeps
   * the snapshot of the text before the error. {TypeError} for a chunk of another type.
   */
  push(delta: PartialChunk): PartialValue<T> | undefined;
  /**
   * Ends the text; returns the final value (equal to `JSON.parse` of the whole text; with a `schema`, its
   * `validate()` output).
   * @throws {JsonSyntaxError} `UNEXPECTED_END` if the text stops short of a whole value. {JsonSchemaError} if the
   * schema rejects the value. {TypeError} if the schema validates asynchronously (`partialJson` awaits it).
   */
  end(): R;
  /** The latest snapshot. */
  readonly value: PartialValue<T> | undefined;
  /**
   * The path (keys and indices) of the innermost value still being written, or `null` before the root starts and
   * after it ends. Its last key may not be in `value` yet: a number (by default) or a literal shows once complete.
   */
  readonly pending: readonly (string | number)[] | null;
}

/** @internal The options {@link PartialJsonOptions} defines, in the order messages list them. */
const PARTIAL_OPTIONS = ['numbers', 'integers', 'maxDepth', 'maxElementBytes', 'schema'] as const;

/** @internal */
export interface ResolvedPartialOptions {
  readonly maxDepth: number;
  readonly maxElementBytes: number;
  readonly numbers: 'complete' | 'partial';
  readonly integers: IntegersMode;
  readonly schema: ResolvedSchema | null;
}

/** @internal */
export function resolvePartialOptions(api: ApiName, input: PartialJsonOptions | undefined): ResolvedPartialOptions {
  const options = checkOptions(api, input, PARTIAL_OPTIONS);
  // The limits mean and validate what they do for the other parsers.
  const { maxDepth, maxElementBytes } = resolveLimits(api, options);
  const numbers = optionalOneOf(api, options, 'numbers', ['complete', 'partial'] as const) ?? 'complete';
  const integers = resolveIntegers(api, options, 'integers');
  return { maxDepth, maxElementBytes, numbers, integers, schema: resolveSchema(api, options.schema) };
}
