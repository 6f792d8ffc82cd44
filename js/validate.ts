// How every public API checks its arguments and reports misuse: one TypeError, one message grammar,
//
//   <api>: <subject> must be <expected>, got <actual>
//   <api>: <subject> is not an option; the options are <name>, <name>...
//   <api>: <subject> <what is wrong with it>
//
// `api` is the call as users write it (`createParser()`, `new JsonArrayStream()`, `parser.push()`, `doc.get()`),
// `subject` what it got wrong (`options`, `options.maxDepth`, `options.paths[2]`, `source`, `chunk`), `actual`
// the value as describeValue() shows it. A call in the wrong state (`createParser()` before `init()`, `push()`
// after `end()`) is misuse too. Each API passes its own name, so no message is ever rewritten for another API.
import { MAX_DEPTH, MAX_ELEMENT_BYTES } from './native/contract.js';
import type { ParserLimits } from './errors.js';

/** @internal The call a message names, as users write it: `createParser()`, `new JsonArrayStream()`, `doc.get()`. */
export type ApiName = string;

/** @internal Names a value's type for an error message: `null`, `number`, `Array`, `Uint16Array`, `object`... */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'Array';
  if (typeof value !== 'object') return typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : 'object';
}

/** @internal Names a value for an error message: strings quoted, numbers, booleans and BigInts as written, else its type. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  return describeType(value);
}

/** @internal Misuse of `api`: `${api}: ${problem}`. The one constructor of every misuse error. */
export function misuse(api: ApiName, problem: string): TypeError {
  return new TypeError(`${api}: ${problem}`);
}

/** @internal `${api}: ${subject} must be ${expected}, got ${describeValue(value)}`. */
export function mustBe(api: ApiName, subject: string, expected: string, value: unknown): TypeError {
  return misuse(api, `${subject} must be ${expected}, got ${describeValue(value)}`);
}

/** @internal An options object as the checks below read it. */
export type OptionsRecord<K extends string> = { readonly [P in K]?: unknown };

const NO_OPTIONS: OptionsRecord<never> = Object.freeze(Object.create(null) as OptionsRecord<never>);

/**
 * @internal The own enumerable string-keyed properties of `object`, each read once, in an object without a
 * prototype: what an API reads of a caller's object. A name missing there is `undefined`, whatever
 * Object.prototype holds (`Object.prototype.path = '$.x'` by some other code must not select for every parser).
 */
export function ownProperties(object: object): Record<string, unknown> {
  const own: Record<string, unknown> = Object.create(null);
  const keys = Object.keys(object);
  for (let i = 0; i < keys.length; i++) own[keys[i]!] = (object as Record<string, unknown>)[keys[i]!];
  return own;
}

/**
 * @internal Checks that `options` is `undefined` or an object (not `null`, not an array) whose own enumerable
 * keys are all in `known`, and returns them as {@link ownProperties} (no prototype, so nothing inherited is read;
 * an empty one for `undefined`). Every API reads its options through this, once, at the call. An unknown key (a
 * typo such as `outptu`) is a TypeError naming it and the options that exist: silently ignoring it would run with
 * a default the caller did not mean.
 */
export function checkOptions<K extends string>(api: ApiName, options: unknown, known: readonly K[]): OptionsRecord<K> {
  if (options === undefined) return NO_OPTIONS;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw mustBe(api, 'options', 'an object', options);
  }
  const keys = Object.keys(options);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (!(known as readonly string[]).includes(key)) {
      throw misuse(api, `options.${key} is not an option; the options are ${known.join(', ')}`);
    }
  }
  return ownProperties(options) as OptionsRecord<K>;
}

/** @internal `options[name]`: `undefined`, or a boolean. */
export function optionalBoolean<K extends string>(
  api: ApiName,
  options: OptionsRecord<K>,
  name: K,
): boolean | undefined {
  const value: unknown = options[name];
  if (value === undefined || typeof value === 'boolean') return value;
  throw mustBe(api, `options.${name}`, 'a boolean', value);
}

/** @internal `options[name]`: `undefined`, or a function. */
export function optionalFunction<K extends string>(
  api: ApiName,
  options: OptionsRecord<K>,
  name: K,
): ((...args: never[]) => unknown) | undefined {
  const value = options[name];
  if (value === undefined || typeof value === 'function') return value as ((...args: never[]) => unknown) | undefined;
  throw mustBe(api, `options.${name}`, 'a function', value);
}

/** @internal `options[name]`: `undefined`, or one of `allowed` (written `'a', 'b' or 'c'` in the message). */
export function optionalOneOf<K extends string, V extends string>(
  api: ApiName,
  options: OptionsRecord<K>,
  name: K,
  allowed: readonly V[],
): V | undefined {
  const value = options[name];
  if (value === undefined || (allowed as readonly unknown[]).includes(value)) return value as V | undefined;
  throw mustBe(
    api,
    `options.${name}`,
    listOf(
      allowed.map((v) => `'${v}'`),
      'or',
    ),
    value,
  );
}

/** @internal `value` (named `subject`) when it is an integer from `min` to `max`; otherwise a TypeError. */
export function integerIn(api: ApiName, subject: string, value: unknown, min: number, max: number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  throw mustBe(api, subject, `an integer from ${min} to ${max}`, value);
}

/** The limits every parser of the library shares: one default and one range each. */
export const LIMITS = {
  /** Deepest nesting (the root value is depth 0). The native parser clamps to the same range. */
  maxDepth: { min: 1, max: MAX_DEPTH, fallback: 1024 },
  /** Largest element (and retained object key), in bytes: what a u32 length in an element record holds. */
  maxElementBytes: { min: 1, max: MAX_ELEMENT_BYTES, fallback: 256 * 1024 * 1024 },
} as const;

/** @internal The name of one of {@link LIMITS}. */
export type LimitName = keyof typeof LIMITS;

/** @internal `options[name]`, validated against {@link LIMITS}, or its default when unset. */
export function resolveLimit(api: ApiName, options: OptionsRecord<LimitName>, name: LimitName): number {
  const value = options[name];
  const limit = LIMITS[name];
  if (value === undefined) return limit.fallback;
  return integerIn(api, `options.${name}`, value, limit.min, limit.max);
}

/** @internal Both limits of a parser (`maxDepth`, `maxElementBytes`) from `options`, with their defaults. */
export function resolveLimits(api: ApiName, options: OptionsRecord<LimitName>): ParserLimits {
  return {
    maxDepth: resolveLimit(api, options, 'maxDepth'),
    maxElementBytes: resolveLimit(api, options, 'maxElementBytes'),
  };
}

/** @internal `a, b or c`. */
export function listOf(items: readonly string[], last: 'or' | 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`;
}
