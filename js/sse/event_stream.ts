// stringifyEventStream(): the items of a source as server-sent events, a pull-based ReadableStream of bytes.
//
// The driver reads the source itself, one item per event, and hands each item's data to the encoder (JSON) or
// writes its lines (text). As the encoder's streams: nothing is read before the first pull, the next item is asked
// for only while the consumer wants bytes (events are packed into chunks of options.chunkBytes, flushed when the
// source makes the driver wait for a task), and cancelling closes the source (return(), cancel(reason)) and the
// sources inside the item being written. A heartbeat is written only while the driver waits for the source and
// the consumer is reading: between events, never inside one.
import { CANCELLED, Encoder } from '../encode/encoder.js';
import { OMITTED_IS_ERROR } from '../encode/frames.js';
import { PullChannel } from '../encode/pull_channel.js';
import { closeUnreached } from '../encode/source_closer.js';
import { isThenable, resultError } from '../encode/value_kinds.js';
import { mustBe, type ApiName } from '../validate.js';
import { HEARTBEAT, SseEvent, textLines } from './event_format.js';
import {
  resolveStringifyEventStreamOptions,
  type StringifyEventStreamOptions,
  type ResolvedStringifyEventStreamOptions,
} from './event_stream_options.js';

/** What an event stream reads its items from. */
export type EventStreamSource<T = unknown> =
  | Iterable<T>
  | AsyncIterable<T>
  | ReadableStream<T>
  | PromiseLike<Iterable<T> | AsyncIterable<T> | ReadableStream<T>>;

/** The source as the driver reads it. */
interface ItemSource {
  /** A result, or a promise of one. */
  next(): unknown;
  close(reason: unknown): Promise<void>;
}

const SOURCE_KINDS = 'an iterable, an async iterable or a ReadableStream, or a promise of one';

/** @internal Throws unless `source` may be one (a promise's value is checked when it comes). */
export function checkEventSource(api: ApiName, source: unknown): void {
  if (typeof source !== 'object' || source === null) throw mustBe(api, 'source', SOURCE_KINDS, source);
}

function openItems(api: ApiName, source: unknown): ItemSource {
  const marks = source as { getReader?: unknown; [Symbol.asyncIterator]?: unknown; [Symbol.iterator]?: unknown };
  if (typeof source === 'object' && source !== null) {
    if (typeof marks.getReader === 'function') {
      const reader = (source as ReadableStream<unknown>).getReader();
      return { next: () => reader.read(), close: (reason) => reader.cancel(reason) };
    }
    const method = marks[Symbol.asyncIterator] ?? marks[Symbol.iterator];
    if (typeof method === 'function') {
      const iterator = method.call(source) as Iterator<unknown> | AsyncIterator<unknown>;
      return {
        next: () => iterator.next(),
        close: async () => {
          if (typeof iterator.return === 'function') await iterator.return();
        },
      };
    }
  }
  throw mustBe(api, 'source', SOURCE_KINDS, source);
}

/**
 * The items of `source` as a `text/event-stream` body: each item one event, its `data` the item's
 * `JSON.stringify` text (`options.format: 'json'`) or the string itself (`'text'`); an {@link sseEvent} is
 * written with its fields. See {@link EventStreamResponse} for the response around it.
 *
 * @example
 * return new Response(stringifyEventStream(tokens()), { headers: { 'content-type': 'text/event-stream' } });
 *
 * @throws {TypeError} at once for invalid options or a source that cannot be one.
 */
export function stringifyEventStream(
  source: EventStreamSource,
  options?: StringifyEventStreamOptions,
): ReadableStream<Uint8Array> {
  const api = 'stringifyEventStream()';
  return openEventStream(api, source, resolveStringifyEventStreamOptions(api, options));
}

/** @internal */
export function openEventStream(
  api: ApiName,
  source: unknown,
  options: ResolvedStringifyEventStreamOptions,
): ReadableStream<Uint8Array> {
  checkEventSource(api, source);
  const { heartbeatMs, text, errorEvent } = options;
  const withHolder = options.stringify.replacer !== undefined;
  let started = false;
  let cancelled = false;
  let items: ItemSource | null = null;
  /** The source still needs closing if the stream stops early (not once it ended or failed). */
  let itemsOpen = false;
  let idle = false;
  let idleSince = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const closeContext = (reason: unknown) => ({ reason, propertyList_: undefined, closed: new WeakSet<object>() });
  const closeItems = async (reason: unknown): Promise<void> => {
    if (items === null || !itemsOpen) return;
    itemsOpen = false;
    try {
      await items.close(reason);
    } catch {
      // A source that fails to stop is not the consumer's error.
    }
  };

  const channel = new PullChannel(
    () => {
      started = true;
      void run();
    },
    async (reason) => {
      cancelled = true;
      stopHeartbeat();
      // Cancelled before the first read: the source is closed all the same.
      if (!started) return closeUnreached(source, closeContext(reason));
      await encoder.cancel(reason);
      await closeItems(reason);
    },
  );
  const encoder = new Encoder(options.stringify, channel, false, true);

  function stopHeartbeat(): void {
    idle = false;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  }

  /** The driver waits for the source from now on. */
  function beginIdle(): void {
    if (heartbeatMs === 0) return;
    idle = true;
    idleSince = Date.now();
    // A timer armed during an earlier wait stays: it fires, sees the wait is younger, and waits the rest.
    if (timer === undefined) timer = setTimeout(beat, heartbeatMs);
  }

  function beat(): void {
    timer = undefined;
    if (!idle || cancelled) return;
    const wait = idleSince + heartbeatMs - Date.now();
    if (wait > 0) {
      timer = setTimeout(beat, wait);
      return;
    }
    if (!channel.demand) {
      // Nobody reads (the queue is full, the client is slow or gone): no beat needed, no timer kept alive.
      return;
    }
    encoder.writeText_(HEARTBEAT);
    encoder.flush();
    idleSince = Date.now();
    timer = setTimeout(beat, heartbeatMs);
  }

  async function writeJson(value: unknown): Promise<void> {
    encoder.writeText_('data: ');
    await encoder.write(withHolder ? { '': value } : undefined, '', value, 0, OMITTED_IS_ERROR);
    encoder.writeText_('\n');
  }

  async function writeItem(item: unknown, index: number): Promise<void> {
    if (item instanceof SseEvent) {
      encoder.writeText_(item.head);
      if (item.kind === 'json') await writeJson(item.data);
      else if (item.kind === 'text') encoder.writeText_(textLines(item.data as string));
    } else if (text) {
      if (typeof item !== 'string') throw mustBe(api, `item ${index}`, "a string (options.format is 'text')", item);
      encoder.writeText_(textLines(item));
    } else {
      await writeJson(item);
    }
    encoder.writeText_('\n');
    encoder.flushWhenIdle_();
  }

  /** The source failed: the error event and the end, or the stream's error. */
  async function sourceFailed(error: unknown, index: number): Promise<void> {
    itemsOpen = false;
    stopHeartbeat();
    if (errorEvent === undefined) return fail(error);
    let item: unknown;
    try {
      item = errorEvent(error);
      if (item !== undefined) await writeItem(item, index);
    } catch (failure) {
      if (failure !== CANCELLED) await fail(failure);
      return;
    }
    encoder.flush();
    channel.close();
  }

  async function fail(error: unknown): Promise<void> {
    stopHeartbeat();
    await closeItems(error);
    // The events written before are sent first (an event cut short has no empty line: readers drop it), and
    // read: erroring a stream drops what its queue holds.
    encoder.flush();
    if (!channel.demand) await channel.waitForDemand_();
    channel.error(error);
  }

  async function run(): Promise<void> {
    let index = 0;
    let resolved: unknown = source;
    try {
      if (isThenable(source)) {
        beginIdle();
        resolved = await source;
        idle = false;
        if (cancelled) return void closeUnreached(resolved, closeContext(undefined));
      }
      items = openItems(api, resolved);
      itemsOpen = true;
    } catch (error) {
      return sourceFailed(error, index);
    }
    try {
      for (; ; index++) {
        if (!channel.demand) await channel.waitForDemand_();
        if (cancelled) return;
        let result: unknown;
        try {
          result = items.next();
          if (isThenable(result)) {
            beginIdle();
            result = await result;
            idle = false;
          }
          if (typeof result !== 'object' || result === null) throw resultError(result);
        } catch (error) {
          if (!cancelled) await sourceFailed(error, index);
          return;
        }
        const { done, value } = result as IteratorResult<unknown>;
        if (cancelled) {
          // Came after the consumer left: what it holds is closed too.
          if (!done) void closeUnreached(value, closeContext(undefined));
          return;
        }
        if (done) {
          itemsOpen = false;
          break;
        }
        await writeItem(value, index);
      }
      stopHeartbeat();
      encoder.flush();
      channel.close();
    } catch (error) {
      // An item that cannot be written (a cycle, a BigInt, a limit, a failing source inside it).
      if (error !== CANCELLED) await fail(error);
    }
  }

  return channel.stream;
}
