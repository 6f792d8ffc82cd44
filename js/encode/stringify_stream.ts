// stringifyStream(): the JSON text of a value with sources in it, as a pull-based ReadableStream of bytes.
import { CANCELLED, Encoder } from './encoder.js';
import { OMITTED_IS_ERROR } from './frames.js';
import { resolveStringifyOptions, type ResolvedStringifyOptions, type StringifyOptions } from './options.js';
import { PullChannel } from './pull_channel.js';

/**
 * The JSON text of `value` as a `ReadableStream` of UTF-8 chunks of `options.chunkBytes`, produced as the
 * consumer reads. Anywhere in `value`, at any depth: promises (their value is written), sync iterables and
 * generators other than arrays, typed arrays and strings (written as arrays), async iterables and async generators
 * (arrays), `ReadableStream`s of values (arrays), {@link rawJson} (written verbatim after validation), and the
 * iterator of `parseJsonArray(..., { output: 'bytes' })` (each element written byte for byte). Everything else is
 * written exactly as `JSON.stringify(value, options.replacer, options.space)` writes it.
 *
 * No source is advanced while the consumer's queue is full; what is buffered is flushed as a shorter chunk when
 * the encoder waits for a source. A source that throws, a cycle, or a `BigInt` without `options.bigint` errors the
 * stream (it never ends normally after an error). Cancelling the stream, or an error, closes every source in the
 * value, reached or not, innermost first: streams are cancelled with the reason, iterators returned, Node streams
 * destroyed; the part of the value not written yet is searched through arrays and the own data members of
 * objects, without calling a getter, `toJSON`, the replacer or `then()`, and a promise's value once it fulfils.
 *
 * @example
 * return new Response(stringifyStream({ articles: db.rows(), total: db.count() }), {
 *   headers: { 'content-type': 'application/json' },
 * });
 *
 * @throws {TypeError} at once for invalid options.
 */
export function stringifyStream(value: unknown, options?: StringifyOptions): ReadableStream<Uint8Array> {
  return openStringifyStream(value, resolveStringifyOptions('stringifyStream()', options), false);
}

/**
 * @internal `holdFirstChunk`: the first chunk is not flushed early while a source has not answered yet
 * (StreamedJsonResponse.from waits for that first chunk, to see a failing query before answering).
 */
export function openStringifyStream(
  value: unknown,
  options: ResolvedStringifyOptions,
  holdFirstChunk: boolean,
): ReadableStream<Uint8Array> {
  let encoder: Encoder | undefined;
  let started = false;
  const channel: PullChannel = new PullChannel(
    () => {
      started = true;
      void run();
    },
    // Cancelled before the first read: the value's sources are closed all the same.
    (reason) => encoder!.cancel(reason, started ? undefined : value),
  );
  encoder = new Encoder(options, channel, holdFirstChunk);
  const root = { '': value };

  async function run(): Promise<void> {
    try {
      await encoder!.write(root, '', value, 0, OMITTED_IS_ERROR);
      encoder!.flush();
      channel.close();
    } catch (error) {
      if (error !== CANCELLED) channel.error(error);
    }
  }

  return channel.stream;
}
