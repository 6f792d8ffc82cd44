// JsonArrayStream: the push parser as a TransformStream, for pipeThrough().
import { loadRuntime } from '../native/loader.js';
import { lowerPaths, resolveOptions, type ResolvedOptions } from './options.js';
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
import { ParserCore } from './parser.js';

/**
 * A `TransformStream` from `Uint8Array` or string chunks to the selected elements.
 *
 * @example
 * const articles = res.body.pipeThrough(new JsonArrayStream<Article>({ path: '$._embedded.articles[*]' }));
 */
export interface JsonArrayStream<T = unknown> extends TransformStream<Uint8Array | string, T> {}

/**
 * The constructor of {@link JsonArrayStream}: the element type follows the options ({@link ParsedElement}); `T` is
 * the type of a parsed value.
 */
export interface JsonArrayStreamConstructor {
  /** With an explicit element type `T`, `withPath: true` or `paths`, and `withOffset: true`. */
  new <T = unknown>(
    options: ValueOptions & NoNormalizedPathOptions & WithPathOptions & WithOffsetOptions,
    writableStrategy?: QueuingStrategy<Uint8Array | string>,
    readableStrategy?: QueuingStrategy<ElementWithPath<T> & ElementWithOffset<T>>,
  ): JsonArrayStream<ElementWithPath<T> & ElementWithOffset<T>>;
  /** With an explicit element type `T` and `withOffset: true`: elements are `{ value: T, offset, length }`. */
  new <T = unknown>(
    options: ValueOptions & NoNormalizedPathOptions & NoPathOptions & WithOffsetOptions,
    writableStrategy?: QueuingStrategy<Uint8Array | string>,
    readableStrategy?: QueuingStrategy<ElementWithOffset<T>>,
  ): JsonArrayStream<ElementWithOffset<T>>;
  /** With an explicit element type `T` and `withPath: true` or `paths`: elements are `{ path, key, value: T }`. */
  new <T = unknown>(
    options: ValueOptions & NoNormalizedPathOptions & WithPathOptions & NoOffsetOptions,
    writableStrategy?: QueuingStrategy<Uint8Array | string>,
    readableStrategy?: QueuingStrategy<ElementWithPath<T>>,
  ): JsonArrayStream<ElementWithPath<T>>;
  new <T = unknown, O extends ParserOptions = ValueOptions & BareOptions>(
    options?: ExactOptions<O>,
    writableStrategy?: QueuingStrategy<Uint8Array | string>,
    readableStrategy?: QueuingStrategy<ParsedElement<O, T>>,
  ): JsonArrayStream<ParsedElement<O, T>>;
  readonly prototype: JsonArrayStream<unknown>;
}

class JsonArrayStreamImpl<T> extends TransformStream<Uint8Array | string, T> {
  constructor(
    options?: ParserOptions,
    writableStrategy?: QueuingStrategy<Uint8Array | string>,
    readableStrategy?: QueuingStrategy<T>,
  ) {
    const transformer = new JsonArrayTransformer<T>(
      resolveOptions('new JsonArrayStream()', options, lowerPaths),
      readableStrategy?.highWaterMark ?? 0,
    );
    super(transformer, writableStrategy, readableStrategy);
  }
}

/**
 * Parses a stream of `Uint8Array` or string chunks and enqueues each complete selected element (what
 * {@link parseJsonArray} yields). Loads the WebAssembly module on first use (see {@link init}). The native parser
 * is freed at the end of input, on error and on cancel.
 *
 * @example
 * const articles = res.body.pipeThrough(new JsonArrayStream({ path: '$._embedded.articles[*]' }));
 *
 * @throws {TypeError} at once for invalid options (a path that is no RFC 9535 query or does not stream included). The stream
 * errors with {@link JsonSyntaxError} or {@link JsonLimitError} on invalid input, after the elements completed
 * before the error were read.
 */
export const JsonArrayStream = JsonArrayStreamImpl as JsonArrayStreamConstructor;

class JsonArrayTransformer<T> implements Transformer<Uint8Array | string, T> {
  private readonly options_: ResolvedOptions;
  private readonly readableHighWaterMark_: number;
  private core_: ParserCore<T> | null = null;
  private cancelled_ = false;

  constructor(options: ResolvedOptions, readableHighWaterMark: number) {
    this.options_ = options;
    this.readableHighWaterMark_ = readableHighWaterMark;
  }

  async start(): Promise<void> {
    // Holding the parser here (not in a closure over the stream) lets the FinalizationRegistry in parser.ts
    // free it when a stream is dropped without end or cancel, e.g. where transformer.cancel is not supported.
    this.core_ = new ParserCore<T>(await loadRuntime(), this.options_);
  }

  transform(chunk: Uint8Array | string, controller: TransformStreamDefaultController<T>): Promise<void> | void {
    const core = this.core_!;
    let items: T[];
    try {
      items = core.push(chunk);
    } catch (error) {
      core.close();
      throw error;
    }
    for (let i = 0; i < items.length; i++) controller.enqueue(items[i]!);
    if (core.failure_ !== null) return this.failWhenRead_(controller, core.failure_);
  }

  flush(controller: TransformStreamDefaultController<T>): Promise<void> | void {
    const core = this.core_!;
    const items = core.finishInput_();
    for (let i = 0; i < items.length; i++) controller.enqueue(items[i]!);
    if (core.failure_ !== null) return this.failWhenRead_(controller, core.failure_);
  }

  cancel(): void {
    this.cancelled_ = true;
    this.core_?.close();
  }

  /**
   * Erroring a stream drops the elements still queued in it, so the error waits until the reader has taken them
   * (the queue is empty when desiredSize is back at the high-water mark) or the stream went away. Streams have
   * no event for that, hence the polling; it runs only on this error path. The timer must keep Node alive (the
   * reader may be awaiting this very error), so a reader that stops reading for READER_GONE_MS is taken as gone
   * and gets the error early rather than holding the process open.
   */
  private async failWhenRead_(controller: TransformStreamDefaultController<T>, error: Error): Promise<void> {
    let delay = 1;
    let last = controller.desiredSize;
    let idle = 0;
    for (;;) {
      const size = controller.desiredSize;
      if (this.cancelled_ || size === null || size >= this.readableHighWaterMark_) break;
      if (size !== last) {
        last = size;
        idle = 0;
      } else if (idle >= READER_GONE_MS) {
        break;
      }
      await sleep(delay);
      idle += delay;
      delay = Math.min(delay * 2, 100);
    }
    throw error;
  }
}

const READER_GONE_MS = 30_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
