// Every source parseJsonArray accepts, as one pull reader shaped like ReadableStreamDefaultReader: read() one
// chunk when asked, cancel() to stop the producer. Streams are read with getReader(), never `for await` (Safari
// has no async iteration of ReadableStream).
import { destroyNodeReadable } from './node_readable.js';
import { isResponse, isUint8Array } from './realm.js';
import { misuse, mustBe, type ApiName } from './validate.js';

/** What {@link parseJsonArray} reads: a stream, a `Response`, an async iterable of chunks, or the whole input. */
export type JsonSource =
  | ReadableStream<Uint8Array | string>
  | Response
  | AsyncIterable<Uint8Array | string>
  | Uint8Array
  | string
  | null;

/** @internal One read: a chunk, or the end. */
export type ReadResult = { done?: false; value: unknown } | { done: true; value?: unknown };

/** @internal A pull reader over any source. */
export interface PullReader {
  read(): Promise<ReadResult>;
  /**
   * Stops the producer (cancels the stream, returns the iterator); never rejects. Resolves once it stopped, or at
   * once while a read is under way on an iterator (an async generator runs return() only after its pending next()).
   */
  cancel(reason: unknown): Promise<void>;
}

// A whole input in memory is handed to the parser in pieces of this size, so that elements are still
// materialised on demand (a 1 GB string would otherwise become all its objects at once).
const PIECE = 64 * 1024;

const DONE: ReadResult = { done: true };

function swallow(): void {}

/** @internal Checks the source's type now (a TypeError naming `api` at the call), opens it on the first read. */
export function checkSource(source: unknown, api: ApiName): void {
  if (source === null || typeof source === 'string' || isUint8Array(source)) return;
  if (typeof source === 'object') {
    if (typeof (source as ReadableStream).getReader === 'function') {
      if ((source as ReadableStream).locked) {
        throw misuse(api, 'source is a locked ReadableStream (another reader holds it)');
      }
      return;
    }
    if (isResponse(source)) {
      if (source.bodyUsed) throw misuse(api, 'source is a Response whose body was already read');
      return;
    }
    if (typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') return;
  }
  throw mustBe(
    api,
    'source',
    'a ReadableStream, a Response, an AsyncIterable of Uint8Array or string chunks, a Uint8Array or a string',
    source,
  );
}

/** @internal Opens a reader over a source that passed checkSource(). */
export function openSource(source: JsonSource): PullReader {
  if (source === null) return new PiecesReader(new Uint8Array(0));
  if (typeof source === 'string' || isUint8Array(source)) return new PiecesReader(source);
  if (typeof (source as ReadableStream).getReader === 'function') {
    return new StreamReader((source as ReadableStream<Uint8Array | string>).getReader());
  }
  if (isResponse(source)) {
    // A Response without a body (204, HEAD) is empty input; a body already read makes getReader() throw.
    return source.body === null ? new PiecesReader(new Uint8Array(0)) : new StreamReader(source.body.getReader());
  }
  return new IteratorReader(source, (source as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]());
}

class StreamReader implements PullReader {
  private readonly reader_: ReadableStreamDefaultReader<Uint8Array | string>;

  constructor(reader: ReadableStreamDefaultReader<Uint8Array | string>) {
    this.reader_ = reader;
  }

  read(): Promise<ReadResult> {
    return this.reader_.read();
  }

  cancel(reason: unknown): Promise<void> {
    return this.reader_.cancel(reason).then(swallow, swallow);
  }
}

class IteratorReader implements PullReader {
  /** The iterable, destroyed after return() if it is a Node.js stream (node_readable.ts). */
  private readonly source_: object;
  private readonly iterator_: AsyncIterator<Uint8Array | string>;
  private done_ = false;
  private reading_ = false;

  constructor(source: object, iterator: AsyncIterator<Uint8Array | string>) {
    this.source_ = source;
    this.iterator_ = iterator;
  }

  async read(): Promise<ReadResult> {
    if (this.done_) return DONE;
    this.reading_ = true;
    try {
      const result = await this.iterator_.next();
      if (result.done === true) this.done_ = true;
      return result;
    } catch (error) {
      // An iterator that threw is finished: cancel() must not call its return().
      this.done_ = true;
      throw error;
    } finally {
      this.reading_ = false;
    }
  }

  async cancel(): Promise<void> {
    // An iterator that ended or threw is finished already; return() is only for one still producing.
    if (this.done_) return;
    this.done_ = true;
    let stopped: Promise<unknown>;
    try {
      stopped = Promise.resolve(this.iterator_.return?.());
    } catch {
      return;
    }
    // The consumer stopped reading; a failure to stop the producer is not theirs to handle. While a next() is
    // pending, an async generator queues return() behind it, which may take as long as the producer likes (and a
    // started Node stream's iterator destroys it then).
    if (this.reading_) {
      stopped.catch(swallow);
      return;
    }
    await stopped.catch(swallow);
    destroyNodeReadable(this.source_);
  }
}

/** The whole input at once, handed out in PIECE-sized parts (strings never split inside a surrogate pair). */
class PiecesReader implements PullReader {
  private readonly input_: Uint8Array | string;
  private offset_ = 0;

  constructor(input: Uint8Array | string) {
    this.input_ = input;
  }

  read(): Promise<ReadResult> {
    const input = this.input_;
    const start = this.offset_;
    if (start >= input.length) return Promise.resolve(DONE);
    let end = Math.min(input.length, start + PIECE);
    if (typeof input === 'string') {
      const last = input.charCodeAt(end - 1);
      if (end < input.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    }
    this.offset_ = end;
    const value =
      start === 0 && end === input.length
        ? input
        : typeof input === 'string'
          ? input.substring(start, end)
          : input.subarray(start, end);
    return Promise.resolve({ done: false, value });
  }

  cancel(): Promise<void> {
    this.offset_ = this.input_.length;
    return Promise.resolve();
  }
}
