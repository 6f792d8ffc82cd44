// createParser, the public entry to the synchronous push parser (parser.ts): its typed overloads over the options.
import { requireRuntime } from '../native/loader.js';
import { lowerPaths, resolveOptions } from './options.js';
import type {
  BareOptions,
  ElementWithOffset,
  ElementWithPath,
  ExactOptions,
  NoNormalizedPathOptions,
  NoOffsetOptions,
  NoPathOptions,
  ParsedElement,
  ParserOptions,
  ValueOptions,
  WithOffsetOptions,
  WithPathOptions,
} from './option_types.js';
import { ParserCore, type PushParser } from './parser.js';

/** With an explicit element type `T`, `withPath: true` or `paths`, and `withOffset: true`. */
export function createParser<T = unknown>(
  options: ValueOptions & NoNormalizedPathOptions & WithPathOptions & WithOffsetOptions,
): PushParser<ElementWithPath<T> & ElementWithOffset<T>>;
/** With an explicit element type `T` and `withOffset: true`: elements are `{ value: T, offset, length }`. */
export function createParser<T = unknown>(
  options: ValueOptions & NoNormalizedPathOptions & NoPathOptions & WithOffsetOptions,
): PushParser<ElementWithOffset<T>>;
/** With an explicit element type `T` and `withPath: true` or `paths`: elements are `{ path, key, value: T }`. */
export function createParser<T = unknown>(
  options: ValueOptions & NoNormalizedPathOptions & WithPathOptions & NoOffsetOptions,
): PushParser<ElementWithPath<T>>;
/**
 * Creates a synchronous push parser. Needs the WebAssembly module loaded: `await init()` first. The element type
 * follows the options ({@link ParsedElement}); `T` is the type of a parsed value.
 *
 * @example
 * await init();
 * const parser = createParser<{ id: number }>({ path: '$.data[*]' });
 * for (const chunk of chunks) for (const item of parser.push(chunk)) use(item.id);
 * parser.end();
 *
 * @throws {TypeError} for invalid options (including a path that is no RFC 9535 query or does not stream), and when the module is
 * not loaded yet.
 */
export function createParser<T = unknown, O extends ParserOptions = ValueOptions & BareOptions>(
  options?: ExactOptions<O>,
): PushParser<ParsedElement<O, T>>;
export function createParser(options?: ParserOptions): PushParser<unknown> {
  const api = 'createParser()';
  const resolved = resolveOptions(api, options, lowerPaths);
  return new ParserCore(requireRuntime(api), resolved);
}
