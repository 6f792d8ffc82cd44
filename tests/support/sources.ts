// Sources and sinks for the stream suites: a ReadableStream that records how often it was pulled and why it was
// cancelled, and collectors that keep the elements delivered before an error.

export interface CountingSource<T> {
  stream: ReadableStream<T>;
  /** How many times the stream's pull() ran: how far the consumer made it read. */
  readonly pulls: number;
  /** The reason given to cancel(), or undefined while not cancelled. */
  readonly cancelReason: unknown;
  readonly cancelled: boolean;
}

/**
 * A pull source over `chunks`, one chunk per pull; with highWaterMark 0 it reads nothing ahead, so `pulls` counts
 * exactly the reads the consumer asked for. `fail`, if given, is thrown by the pull after the last chunk.
 */
export function countingSource<T>(
  chunks: readonly T[],
  options: { highWaterMark?: number; fail?: Error } = {},
): CountingSource<T> {
  let pulls = 0;
  let cancelled = false;
  let cancelReason: unknown;
  const stream = new ReadableStream<T>(
    {
      pull(controller) {
        pulls++;
        if (pulls <= chunks.length) controller.enqueue(chunks[pulls - 1]);
        else if (options.fail) throw options.fail;
        else controller.close();
      },
      cancel(reason) {
        cancelled = true;
        cancelReason = reason;
      },
    },
    { highWaterMark: options.highWaterMark ?? 0 },
  );
  return {
    stream,
    get pulls() {
      return pulls;
    },
    get cancelReason() {
      return cancelReason;
    },
    get cancelled() {
      return cancelled;
    },
  };
}

export async function* asyncIterableOf<T>(chunks: readonly T[]): AsyncGenerator<T> {
  for (const chunk of chunks) {
    await Promise.resolve();
    yield chunk;
  }
}

export interface Collected<T> {
  values: T[];
  error: unknown;
}

/** Iterates to the end or to the first error, keeping what arrived before it. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<Collected<T>> {
  const values: T[] = [];
  try {
    for await (const value of iterable) values.push(value);
    return { values, error: undefined };
  } catch (error) {
    return { values, error };
  }
}

/** Reads a stream with getReader() to the end or to the first error. */
export async function collectStream<T>(stream: ReadableStream<T>): Promise<Collected<T>> {
  const reader = stream.getReader();
  const values: T[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { values, error: undefined };
      values.push(value);
    }
  } catch (error) {
    return { values, error };
  } finally {
    reader.releaseLock();
  }
}
