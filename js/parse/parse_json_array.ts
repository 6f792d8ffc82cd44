// parseJsonArray: a pull-based async iterator. A chunk is read only when the consumer asks for an element and
// the elements of the chunks read so far are used up, so a slow consumer slows the producer (backpressure).
import { RAW_ELEMENTS } from '../encode/raw_json.js';
import { loadRuntime } from '../native/loader.js';
import { MODE_BYTES, lowerPaths, resolveOptions, type ResolvedOptions } from './options.js';
import type {
  BareOptions,
  ElementWithPath,
  ExactOptions,
  ParsedElement,
  ParserOptions,
  ElementWithOffset,
  NoNormalizedPathOptions,
  NoOffsetOptions,
  NoPathOptions,
  ValueOptions,
  WithOffsetOptions,
  WithPathOptions,
} from './option_types.js';
import { ParserCore, type JsonChunk } from './parser.js';
import { SourceIterator } from '../source_iterator.js';
import { checkSource, type JsonSource } from '../sources.js';

/** With an explicit element type `T`, `withPath: true` or `paths`, and `withOffset: true`. */
export function parseJsonArray<T = unknown>(
  source: JsonSource,
  options: ValueOptions & NoNormalizedPathOptions & WithPathOptions & WithOffsetOptions,
): AsyncIterableIterator<ElementWithPath<T> & ElementWithOffset<T>>;
/** With an explicit element type `T` and `withOffset: true`: elements are `{ value: T, offset, length }`. */
export function parseJsonArray<T = unknown>(
  source: JsonSource,
  options: ValueOptions & NoNormalizedPathOptions & NoPathOptions & WithOffsetOptions,
): AsyncIterableIterator<ElementWithOffset<T>>;
/** With an explicit element type `T` and `withPath: true` or `paths`: elements are `{ path, key, value: T }`. */
export function parseJsonArray<T = unknown>(
  source: JsonSource,
  options: ValueOptions & NoNormalizedPathOptions & WithPathOptions & NoOffsetOptions,
): AsyncIterableIterator<ElementWithPath<T>>;
/**
 * Parses a JSON document (or NDJSON) as a stream and yields each complete selected element the moment its last
 * byte arrives. Memory stays at one chunk plus the largest element. The element type follows the options
 * ({@link ParsedElement}); `T` is the type of a parsed value.
 *
 * `source` is a `ReadableStream` (e.g. `response.body`; `null` is an empty body), a `Response`, an
 * `AsyncIterable` of `Uint8Array` or string chunks (e.g. a Node stream), or the whole input as a `Uint8Array` or
 * string. Breaking out of the loop cancels the source and frees the parser. Loads the WebAssembly module on first
 * use (see {@link init}).
 *
 * @example
 * for await (const article of parseJsonArray<Article>(res.body, { path: '$._embedded.articles[*]' })) {
 *   render(article);
 * }
 *
 * @throws {TypeError} at once for invalid options (a path that is no RFC 9535 query or does not stream included) or a source of
 * another type. The iteration rejects with {@link JsonSyntaxError} or {@link JsonLimitError} on invalid input
 * (after the elements completed before the error), with the source's own error if it fails, and with
 * {@link SluiceLoadError} if the module cannot be loaded.
 */
export function parseJsonArray<T = unknown, O extends ParserOptions = ValueOptions & BareOptions>(
  source: JsonSource,
  options?: ExactOptions<O>,
): AsyncIterableIterator<ParsedElement<O, T>>;
export function parseJsonArray(source: JsonSource, options?: ParserOptions): AsyncIterableIterator<unknown> {
  const api = 'parseJsonArray()';
  const resolved = resolveOptions(api, options, lowerPaths);
  checkSource(source, api);
  return new JsonArrayIterator(source, resolved);
}

/** What parseJsonArray returns: the elements of the chunks read, one chunk when they are used up. */
class JsonArrayIterator<T> extends SourceIterator<T> {
  private readonly options_: ResolvedOptions;
  private core_: ParserCore<T> | null = null;

  /**
   * @internal Bare `output: 'bytes'` elements are validated JSON values: the encoders (stringifyStream,
   * StreamedJsonResponse) write them byte for byte instead of as objects.
   */
  get [RAW_ELEMENTS](): boolean {
    const o = this.options_;
    return o.mode === MODE_BYTES && !o.wrap && !o.withOffset && o.normalized_ === null;
  }

  constructor(source: JsonSource, options: ResolvedOptions) {
    super(source);
    this.options_ = options;
  }

  protected async *items_(): AsyncGenerator<T, undefined, undefined> {
    try {
      const runtime = await loadRuntime();
      if (this.stopped_) return;
      const core = new ParserCore<T>(runtime, this.options_);
      this.core_ = core;
      const reader = this.open_();
      for (;;) {
        const result = await reader.read();
        if (this.stopped_) return;
        let items: T[];
        if (result.done) {
          this.drained_ = true;
          items = core.finishInput_();
        } else {
          items = core.push(result.value as JsonChunk);
        }
        for (let i = 0; i < items.length; i++) yield items[i]!;
        // Elements completed before an error were handed out above; now the error.
        if (core.failure_ !== null) throw core.failure_;
        if (result.done) return;
      }
    } catch (error) {
      await this.stop_(error);
      throw error;
    } finally {
      // Ended, failed, or stopped at a yield by return()/throw(): free the parser, cancel the source.
      await this.stop_(undefined);
    }
  }

  protected override release_(): void {
    const core = this.core_;
    this.core_ = null;
    core?.close();
  }
}
