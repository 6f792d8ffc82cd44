// Sources for the encoder's flow tests that record what was asked of them: how many steps a generator took,
// whether its `finally` ran (and in which order), how often a stream was pulled and why it was cancelled.

export interface Probe {
  /** Elements produced so far. */
  steps: number;
  /** The generator's `finally` ran / the stream was cancelled. */
  closed: boolean;
  /** The reason given to a stream's cancel(). */
  reason: unknown;
}

export function probe(): Probe {
  return { steps: 0, closed: false, reason: undefined };
}

/** Names pushed in the order the sources' finally blocks (or cancels) ran. */
export type CloseLog = string[];

/** A sync generator of `count` rows `make(i)`; `fail` throws instead of producing row number `fail`. */
export function* countedRows<T>(
  p: Probe,
  count: number,
  make: (i: number) => T,
  log?: CloseLog,
  name = 'sync',
  fail?: number,
): Generator<T> {
  try {
    for (let i = 0; i < count; i++) {
      if (i === fail) throw new Error(`${name} failed at ${i}`);
      p.steps++;
      yield make(i);
    }
  } finally {
    p.closed = true;
    log?.push(name);
  }
}

/** An async generator of `count` rows; `delayMs` waits a timer before each row (a slow database). */
export async function* countedAsyncRows<T>(
  p: Probe,
  count: number,
  make: (i: number) => T,
  options: {
    log?: CloseLog;
    name?: string;
    fail?: number;
    delayMs?: number;
  } = {},
): AsyncGenerator<T> {
  const name = options.name ?? 'async';
  try {
    for (let i = 0; i < count; i++) {
      if (options.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      else await null;
      if (i === options.fail) throw new Error(`${name} failed at ${i}`);
      p.steps++;
      yield make(i);
    }
  } finally {
    p.closed = true;
    options.log?.push(name);
  }
}

/** A ReadableStream of `count` values, one per pull, that records its pulls and its cancellation. */
export function countedStream<T>(
  p: Probe,
  count: number,
  make: (i: number) => T,
  log?: CloseLog,
  name = 'stream',
  fail?: number,
): ReadableStream<T> {
  return new ReadableStream<T>(
    {
      pull(controller) {
        if (p.steps === fail) throw new Error(`${name} failed at ${p.steps}`);
        if (p.steps < count) controller.enqueue(make(p.steps++));
        else controller.close();
      },
      cancel(reason) {
        p.closed = true;
        p.reason = reason;
        log?.push(name);
      },
    },
    { highWaterMark: 0 },
  );
}
