// StreamedJsonResponse: a Response whose body is the JSON text of a value with sources in it, as it is produced.
import { ownProperties } from '../validate.js';
import { resolveStringifyOptions, type StringifyOptions } from './options.js';
import { openStringifyStream } from './stringify_stream.js';

const CONTENT_TYPE = 'application/json; charset=utf-8';

/** A body made by from(): the constructor takes it as it is instead of encoding it as a value. */
class PreparedBody {
  readonly stream: ReadableStream<Uint8Array>;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.stream = stream;
  }
}

/** `init`'s own properties (Response reads inherited ones too: see ownProperties()) with the content type. */
function withContentType(init: ResponseInit | undefined): ResponseInit {
  const own = typeof init === 'object' && init !== null ? ownProperties(init) : Object.create(null);
  const headers = new Headers(own.headers as HeadersInit | undefined);
  if (!headers.has('content-type')) headers.set('content-type', CONTENT_TYPE);
  own.headers = headers;
  return own as ResponseInit;
}

/** A stream that delivers `first` (an already read result), then the rest of `reader`. */
function prepend(first: ReadableStreamReadResult<Uint8Array>, reader: ReadableStreamDefaultReader<Uint8Array>) {
  let pending: ReadableStreamReadResult<Uint8Array> | null = first;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const result = pending ?? (await reader.read());
        pending = null;
        if (result.done) controller.close();
        else controller.enqueue(result.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * A `Response` streaming the JSON text of `value` (see {@link stringifyStream} for what `value` may hold), with
 * `content-type: application/json; charset=utf-8` unless `init.headers` sets one. When the client goes away,
 * every source in the value is closed, reached or not (see {@link stringifyStream}).
 *
 * @example
 * export default {
 *   fetch: () => new StreamedJsonResponse({ _embedded: { articles: rowsFromDatabase() }, total: countRows() }),
 * };
 *
 * @throws {TypeError} at once for invalid options.
 */
export class StreamedJsonResponse extends Response {
  constructor(value: unknown, init?: ResponseInit, options?: StringifyOptions) {
    const body =
      value instanceof PreparedBody
        ? value.stream
        : openStringifyStream(value, resolveStringifyOptions('new StreamedJsonResponse()', options), false);
    super(body, withContentType(init));
  }

  /**
   * Produces the first chunk before answering: resolves with a response that streams it and the rest, or
   * rejects with the error of a source that fails before (a failing query), so the handler can still answer
   * with an error status. The first chunk is complete (`options.chunkBytes`), or the whole text, or what was
   * written when the encoder had to wait for a source that had already answered once.
   *
   * Rejects with a `TypeError` for invalid options.
   */
  static async from(value: unknown, init?: ResponseInit, options?: StringifyOptions): Promise<StreamedJsonResponse> {
    const stream = openStringifyStream(value, resolveStringifyOptions('StreamedJsonResponse.from()', options), true);
    const reader = stream.getReader();
    const first = await reader.read();
    return new this(new PreparedBody(prepend(first, reader)), init);
  }
}
