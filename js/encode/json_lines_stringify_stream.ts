// JsonLinesStringifyStream: values in, NDJSON (JSON Lines) bytes out.
import { misuse } from '../validate.js';
import { OMITTED_IS_ERROR } from './frames.js';
import { openElementStream } from './element_stream.js';
import { resolveStringifyOptions, type StringifyOptions } from './options.js';

/** Options of {@link JsonLinesStringifyStream}: a line cannot be indented. */
export type JsonLinesStringifyOptions = Omit<StringifyOptions, 'space'>;

/**
 * A transform stream (a `{ writable, readable }` pair for `pipeThrough`) from values to NDJSON: each value's
 * `JSON.stringify` text followed by `\n`, in chunks of `options.chunkBytes`, flushed when no value follows within
 * a task. Values may hold sources (see {@link stringifyStream}). A value without JSON text (`undefined`, a
 * function, a symbol) errors the stream.
 *
 * @example
 * await events.pipeThrough(new JsonLinesStringifyStream()).pipeTo(socket);
 *
 * @throws {TypeError} at once for invalid options.
 */
export class JsonLinesStringifyStream<T = unknown> implements TransformStream<T, Uint8Array> {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<T>;

  constructor(
    options?: JsonLinesStringifyOptions,
    writableStrategy?: QueuingStrategy<T>,
    readableStrategy?: QueuingStrategy<Uint8Array>,
  ) {
    const api = 'new JsonLinesStringifyStream()';
    const resolved = resolveStringifyOptions(api, options);
    if ((options as StringifyOptions | undefined)?.space !== undefined) {
      throw misuse(api, 'options.space is not supported: a line cannot be indented');
    }
    const pair = openElementStream<T>(
      resolved,
      {
        before: () => '',
        after: '\n',
        end: () => '',
        key: () => '',
        depth: 0,
        omitted: OMITTED_IS_ERROR,
      },
      writableStrategy,
      readableStrategy,
    );
    this.readable = pair.readable;
    this.writable = pair.writable;
  }
}
