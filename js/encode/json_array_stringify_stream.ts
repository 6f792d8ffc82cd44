// JsonArrayStringifyStream: values in, the bytes of one JSON array of them out.
import { OMITTED_AS_NULL } from './frames.js';
import { openElementStream } from './element_stream.js';
import { resolveStringifyOptions, type StringifyOptions } from './options.js';

/**
 * A transform stream (a `{ writable, readable }` pair for `pipeThrough`) from values to the UTF-8 bytes of
 * `[value1,value2,...]`, exactly as `JSON.stringify` of the array of them, in chunks of `options.chunkBytes`;
 * what is buffered is flushed as a shorter chunk whenever no value follows within a task. Values may hold sources
 * (see {@link stringifyStream}). Cancelling the readable side errors the writable side (a `pipeTo` upstream then
 * cancels its source) and closes the sources of the value being written.
 *
 * @example
 * await rows.pipeThrough(new JsonArrayStringifyStream()).pipeTo(file);
 *
 * @throws {TypeError} at once for invalid options.
 */
export class JsonArrayStringifyStream<T = unknown> implements TransformStream<T, Uint8Array> {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<T>;

  constructor(
    options?: StringifyOptions,
    writableStrategy?: QueuingStrategy<T>,
    readableStrategy?: QueuingStrategy<Uint8Array>,
  ) {
    const resolved = resolveStringifyOptions('new JsonArrayStringifyStream()', options);
    const gap = resolved.gap;
    const first = gap === '' ? '[' : `[\n${gap}`;
    const next = gap === '' ? ',' : `,\n${gap}`;
    const pair = openElementStream<T>(
      resolved,
      {
        before: (index) => (index === 0 ? first : next),
        after: '',
        end: (count) => (count === 0 ? '[]' : gap === '' ? ']' : '\n]'),
        key: String,
        depth: 1,
        omitted: OMITTED_AS_NULL,
      },
      writableStrategy,
      readableStrategy,
    );
    this.readable = pair.readable;
    this.writable = pair.writable;
  }
}
