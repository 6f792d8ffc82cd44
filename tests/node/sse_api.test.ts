// parseEventStream and EventStreamParser as APIs: every source type, backpressure and cancellation, misuse
// (TypeErrors at the call), the source's own errors, and maxEventBytes (EventStreamLimitError, its offset).
import { describe, expect, test } from 'vitest';
import { EventStreamLimitError, EventStreamParser, parseEventStream, type ServerSentEvent } from '../../dist/index.js';
import { asyncIterableOf, collect, collectStream, countingSource } from '../support/sources.js';
import { ev } from '../support/sse_cases.js';

const encoder = new TextEncoder();
const TEXT = 'data: a\n\nevent: e\ndata: b\n\n';
const EVENTS = [ev('a'), ev('b', { event: 'e' })];

describe('sources', () => {
  test('a string, bytes, a Response, a ReadableStream, an AsyncIterable, ArrayBuffer chunks, null', async () => {
    const bytes = encoder.encode(TEXT);
    const sources = [
      TEXT,
      bytes,
      new Response(TEXT),
      new Response(TEXT).body,
      asyncIterableOf([TEXT.slice(0, 5), bytes.subarray(5)]),
      asyncIterableOf([bytes.buffer.slice(0, 12), bytes.buffer.slice(12)]) as AsyncIterable<never>,
    ];
    for (const source of sources) expect((await collect(parseEventStream(source))).values).toEqual(EVENTS);
    expect((await collect(parseEventStream(null))).values).toEqual([]);
    expect((await collect(parseEventStream(new Response(null, { status: 204 })))).values).toEqual([]);
  });

  test('reads no further than the consumer asks', async () => {
    const source = countingSource(['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n']);
    const iterator = parseEventStream(source.stream);
    expect((await iterator.next()).value).toEqual(ev('1'));
    expect(source.pulls).toBe(1);
    expect((await iterator.next()).value).toEqual(ev('2'));
    expect(source.pulls).toBe(2);
  });

  test('break cancels a ReadableStream and returns an async iterable', async () => {
    const stream = countingSource(['data: 1\n\n', 'data: 2\n\n']);
    for await (const _ of parseEventStream(stream.stream)) break;
    expect(stream.cancelled).toBe(true);
    let finished = false;
    async function* chunks() {
      try {
        yield 'data: 1\n\n';
        yield 'data: 2\n\n';
      } finally {
        finished = true;
      }
    }
    for await (const _ of parseEventStream(chunks())) break;
    expect(finished).toBe(true);
  });

  test("the source's own error ends the iteration after the events before it", async () => {
    const failure = new Error('network');
    const source = countingSource(['data: 1\n\ndata: 2'], { fail: failure });
    const { values, error } = await collect(parseEventStream(source.stream));
    expect(values).toEqual([ev('1')]);
    expect(error).toBe(failure);
  });
});

describe('misuse', () => {
  test('a TypeError at the call for a source of another type or invalid options', () => {
    expect(() => parseEventStream(42 as never)).toThrow(
      new TypeError(
        'parseEventStream(): source must be a ReadableStream, a Response, an AsyncIterable of Uint8Array or ' +
          'string chunks, a Uint8Array or a string, got 42',
      ),
    );
    expect(() => parseEventStream('', { maxEventBytes: 0 })).toThrow(
      'parseEventStream(): options.maxEventBytes must be an integer from 1 to 9007199254740991, got 0',
    );
    expect(() => parseEventStream('', { maxEventBytes: 1.5 })).toThrow(TypeError);
    expect(() => parseEventStream('', { maxEventByte: 5 } as never)).toThrow(
      'parseEventStream(): options.maxEventByte is not an option; the options are maxEventBytes',
    );
    expect(() => new EventStreamParser({ maxEventBytes: '1' as never })).toThrow(
      'new EventStreamParser(): options.maxEventBytes must be an integer from 1 to 9007199254740991, got "1"',
    );
  });

  test('a chunk of another type: a TypeError naming it', async () => {
    const { values, error } = await collect(parseEventStream(asyncIterableOf<unknown>(['data: 1\n\n', 7]) as never));
    expect(values).toEqual([ev('1')]);
    expect(error).toEqual(
      new TypeError('parseEventStream(): each chunk of source must be a Uint8Array, ArrayBuffer or string, got 7'),
    );
    const parser = new EventStreamParser();
    const read = parser.readable.getReader().read();
    const message = 'EventStreamParser.writable: each chunk must be a Uint8Array, ArrayBuffer or string, got object';
    await expect(parser.writable.getWriter().write({} as never)).rejects.toThrow(message);
    await expect(read).rejects.toThrow(message);
  });
});

/** The events and the error of `input` through parseEventStream, cut in pieces at `cuts`. */
async function limited(input: Uint8Array, max: number, cuts: readonly number[] = []) {
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (const to of [...cuts, input.length]) {
    pieces.push(input.subarray(at, to));
    at = to;
  }
  return collect(parseEventStream(asyncIterableOf(pieces), { maxEventBytes: max }));
}

describe('maxEventBytes', () => {
  test('the default is 16 MiB: an event of 16 MiB of data passes, one byte more fails', async () => {
    const line = (n: number) => `data: ${'x'.repeat(n - 6)}\n`;
    const ok = await collect(parseEventStream(`${line(16 * 1024 * 1024)}\n`));
    expect(ok.error).toBeUndefined();
    expect(ok.values[0]!.data.length).toBe(16 * 1024 * 1024 - 6);
    const over = await collect(parseEventStream(`${line(16 * 1024 * 1024 + 1)}\n`));
    expect(over.error).toBeInstanceOf(EventStreamLimitError);
  });

  test('data lines count without their line ends; the limit holds whatever the chunking, the offset is the event', async () => {
    // "é" is 2 bytes: the second event starts at byte 3 (BOM) + 10.
    const head = '\uFEFFdata: é\n\n';
    const body = 'data: 12345\r\ndata: 6\n';
    const bytes = encoder.encode(`${head}${body}\n: after\n`);
    const size = 'data: 12345'.length + 'data: 6'.length;
    for (let i = 0; i <= bytes.length; i++) {
      const fits = await limited(bytes, size, [i]);
      expect(fits.error, `cut at ${i}`).toBeUndefined();
      expect(fits.values).toEqual([ev('é'), ev('12345\n6')]);
      const over = await limited(bytes, size - 1, [i]);
      expect(over.values, `cut at ${i}`).toEqual([ev('é')]);
      const error = over.error as EventStreamLimitError;
      expect(error).toBeInstanceOf(EventStreamLimitError);
      expect(error).toBeInstanceOf(RangeError);
      expect([error.name, error.code, error.maxEventBytes, error.offset]).toEqual([
        'EventStreamLimitError',
        'EVENT_TOO_LARGE',
        size - 1,
        13,
      ]);
      expect(error.message).toBe(
        `Cannot parse event stream: an event larger than maxEventBytes (${size - 1}), the event starting at byte 13`,
      );
    }
    // The same offsets from string chunks (their UTF-8 length).
    const fromText = await collect(parseEventStream(asyncIterableOf([head, body]), { maxEventBytes: size - 1 }));
    expect((fromText.error as EventStreamLimitError).offset).toBe(13);
  });

  test('a line longer than the limit fails before its end arrives; comments between events never add up', async () => {
    const source = countingSource(['data: ok\n\n', `: ${'x'.repeat(100)}`, 'x'.repeat(100), '\n\n']);
    const { values, error } = await collect(parseEventStream(source.stream, { maxEventBytes: 64 }));
    expect(values).toEqual([ev('ok')]);
    expect((error as EventStreamLimitError).offset).toBe(10);
    expect(source.pulls).toBe(2);
    expect(source.cancelled).toBe(true);
    const pings = ': ping\n'.repeat(1000) + 'retry: 5\nid: 1\n'.repeat(100);
    expect((await collect(parseEventStream(`${pings}data: a\n\n`, { maxEventBytes: 16 }))).values).toEqual([
      ev('a', { id: '1', retry: 5 }),
    ]);
  });

  test('EventStreamParser: the events before the error are read, then the error', async () => {
    const stream = new Response('data: 1\n\ndata: 2\n\ndata: 3456789\n\n').body!.pipeThrough(
      new EventStreamParser({ maxEventBytes: 10 }),
    );
    const { values, error } = await collectStream<ServerSentEvent>(stream);
    expect(values).toEqual([ev('1'), ev('2')]);
    expect((error as EventStreamLimitError).offset).toBe(18);
  });
});
