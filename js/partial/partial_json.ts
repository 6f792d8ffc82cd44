// partialJson: the snapshots of createPartialParser over a stream, one per chunk that changed the value. A chunk is
// read only when the consumer asks for the next snapshot (backpressure); return() and throw() cancel the source.
import { SourceIterator } from '../source_iterator.js';
import { checkSource, type JsonSource } from '../sources.js';
import type { PartialChunk, PartialJsonOptions, PartialValue, SchemaInput, SchemaOutput } from './partial_options.js';
import { PartialCore } from './partial_parser.js';
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

class PartialJsonIterator<T> extends SourceIterator<PartialValue<T>> {
  private readonly parser_: PartialCore<T>;

  constructor(source: JsonSource, parser: PartialCore<T>) {
    super(source);
    this.parser_ = parser;
  }

  protected async *items_(): AsyncGenerator<PartialValue<T>, undefined, undefined> {
    const parser = this.parser_;
    let last: unknown;
    try {
      const reader = this.open_();
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
      await this.stop_(error);
      throw error;
    } finally {
      await this.stop_(undefined);
    }
  }
}
