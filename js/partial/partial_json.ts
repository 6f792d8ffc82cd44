// partialJson: the snapshots of createPartialParser over a stream, one per chunk that changed the value. A chunk is
// read only when the consumer asks for the next snapshot (backpressure); return() and throw() cancel the source at
// once, even while a read is pending, as parseJsonArray's iterator does.
import { checkSource, openSource, type JsonSource, type PullReader } from '../sources.js';
import {
  PartialCore,
  type PartialChunk,
  type PartialJsonOptions,
  type PartialValue,
  type SchemaInput,
  type SchemaOutput,
} from './partial_parser.js';
import type { StandardSchemaV1 } from './standard_schema.js';

/**
 * The growing value of a JSON text read from a stream: a `fetch()` body, a `ReadableStream` or `AsyncIterable` of
 * text deltas or bytes, or the whole text. Yields a snapshot after each chunk that changed the value (never
 * `undefined`); the last one is the final value. Snapshots are immutable and share unchanged subtrees, as
 * {@link createPartialParser} describes. Breaking out of the loop cancels the source.
 *
 * @example
 * for await (const args of partialJson<{ title: string }>(toolCallDeltas)) render(args.title ?? '');
 *
 * @throws {TypeError} at once for invalid options or a source of another type. The iteration rejects with
 * {@link JsonSyntaxError} or {@link JsonLimitError} on invalid input (after the snapshots before the error), and
 * with the source's own error if it fails.
 */
export function partialJson<S extends StandardSchemaV1>(
  source: JsonSource,
  options: PartialJsonOptions & { readonly schema: S },
): AsyncIterableIterator<PartialValue<SchemaInput<S>> | SchemaOutput<S>>;
export function partialJson<T = unknown>(
  source: JsonSource,
  options?: PartialJsonOptions,
): AsyncIterableIterator<PartialValue<T>>;
export function partialJson<T = unknown>(
  source: JsonSource,
  options?: PartialJsonOptions,
): AsyncIterableIterator<PartialValue<T>> {
  // Options first: their errors name the option, whatever the source.
  const parser = new PartialCore<T>('partialJson()', options);
  checkSource(source, 'partialJson()');
  return new PartialJsonIterator<T>(source, parser);
}

class PartialJsonIterator<T> implements AsyncIterableIterator<PartialValue<T>> {
  private readonly source: JsonSource;
  private readonly parser: PartialCore<T>;
  private readonly generator: AsyncGenerator<PartialValue<T>, undefined, undefined>;
  private reader: PullReader | null = null;
  /** The source was read to its end (nothing to cancel). */
  private drained_ = false;
  private stopped_ = false;

  constructor(source: JsonSource, parser: PartialCore<T>) {
    this.source = source;
    this.parser = parser;
    this.generator = this.snapshots();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<PartialValue<T>, undefined>> {
    return this.generator.next();
  }

  async return(value?: unknown): Promise<IteratorResult<PartialValue<T>, undefined>> {
    await this.stop(undefined);
    await this.generator.return(undefined);
    return { done: true, value: value as undefined };
  }

  async throw(error?: unknown): Promise<IteratorResult<PartialValue<T>, undefined>> {
    await this.stop(error);
    return this.generator.throw(error);
  }

  private async *snapshots(): AsyncGenerator<PartialValue<T>, undefined, undefined> {
    const parser = this.parser;
    let last: unknown;
    try {
      const reader = openSource(this.source);
      this.reader = reader;
      for (;;) {
        const result = await reader.read();
        if (this.stopped_) return;
        let snapshot: unknown;
        try {
          if (result.done) {
            this.drained_ = true;
            snapshot = await parser.endAsync();
          } else {
            snapshot = parser.push(result.value as PartialChunk);
          }
        } catch (error) {
          // What the chunk showed before its error comes first, as parseJsonArray delivers elements first.
          if (parser.value !== last && parser.value !== undefined) yield parser.value;
          throw error;
        }
        if (snapshot !== last && snapshot !== undefined) {
          last = snapshot;
          yield snapshot as PartialValue<T>;
        }
        if (result.done) return;
      }
    } catch (error) {
      await this.stop(error);
      throw error;
    } finally {
      await this.stop(undefined);
    }
  }

  /** Cancels the source (opening it if needed: this iterator owns it). Idempotent. */
  private async stop(reason: unknown): Promise<void> {
    if (this.stopped_ && this.reader === null) return;
    this.stopped_ = true;
    let reader = this.reader;
    this.reader = null;
    if (this.drained_) return;
    if (reader === null) {
      try {
        reader = openSource(this.source);
      } catch {
        return; // locked or used elsewhere: not ours to cancel
      }
    }
    await reader.cancel(reason);
  }
}
