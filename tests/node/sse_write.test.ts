// Server-sent events out: EventStreamResponse, stringifyEventStream and sseEvent. What is written is read back
// with eventsource-parser (a reader independent of ours): random values and random texts with every line break
// round-trip; event, id and retry come back as given; every option; heartbeats while the source is silent and
// only then; the source is read no further ahead than the reader; cancelling runs the source's `finally`; errors.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, test } from 'vitest';
import {
  EventStreamResponse,
  JsonStringifyLimitError,
  rawJson,
  sseEvent,
  stringifyEventStream,
} from '../../dist/index.js';
import { createRng, randomDocument } from '../support/random_json.mjs';
import { readAll, settle } from '../support/stringify_read.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x55e0);

interface ReadBack {
  events: EventSourceMessage[];
  comments: string[];
  retries: number[];
  text: string;
  error: unknown;
}

/** Reads `stream` to its end (or error) and parses it with eventsource-parser. */
async function readBack(stream: ReadableStream<Uint8Array>): Promise<ReadBack> {
  const { text, error } = await readAll(stream);
  const out: ReadBack = { events: [], comments: [], retries: [], text, error };
  const parser = createParser({
    onEvent: (event) => out.events.push(event),
    onComment: (comment) => out.comments.push(comment),
    onRetry: (retry) => out.retries.push(retry),
  });
  parser.feed(text);
  return out;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function randomText(rng: ReturnType<typeof createRng>): string {
  const pieces = ['a', ' ', ':', 'data: x', '\n', '\r', '\r\n', '\n\n', 'é', '😀', '\u2028', '\t', '\0', ''];
  let text = '';
  for (let n = rng.int(8); n > 0; n--) text += rng.pick(pieces);
  return text;
}

function timeouts(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

describe('format', () => {
  test('JSON items round-trip, each on one data line', async () => {
    const rng = createRng(SEED);
    const values: unknown[] = [];
    for (let i = 0; i < 300; i++) values.push(JSON.parse(randomDocument(rng)));
    values.push('line\nbreak\r\u2028', -0, [], {}, null);
    const back = await readBack(stringifyEventStream(values, { chunkBytes: 64 }));
    expect(back.error).toBeUndefined();
    expect(back.events.map((event) => event.data)).toEqual(values.map((value) => JSON.stringify(value)));
    for (const line of back.text.split('\n')) expect(line === '' || line.startsWith('data: ')).toBe(true);
  });

  test('text items round-trip, CR, LF and CRLF each ending a data line', async () => {
    const rng = createRng(SEED + 1);
    const texts: string[] = [];
    for (let i = 0; i < 500; i++) texts.push(randomText(rng));
    const back = await readBack(stringifyEventStream(texts, { format: 'text' }));
    expect(back.events.map((event) => event.data)).toEqual(texts.map((text) => text.replace(/\r\n|\r/g, '\n')));
    expect(await readBack(stringifyEventStream(['a\r\nb'], { format: 'text' })).then((b) => b.text)).toBe(
      'data: a\ndata: b\n\n',
    );
  });

  test('sseEvent fields come back as given, whatever the format', async () => {
    const rng = createRng(SEED + 2);
    const items = [];
    const expected: EventSourceMessage[] = [];
    for (let i = 0; i < 200; i++) {
      const event = rng.chance(0.5) ? `type ${rng.int(5)}:é` : undefined;
      const id = rng.chance(0.5) ? ` id ${i}` : undefined;
      if (rng.chance(0.5)) {
        const text = randomText(rng);
        items.push(sseEvent({ event, id, text }));
        expected.push({ event, id, data: text.replace(/\r\n|\r/g, '\n') });
      } else {
        const data = { i, s: randomText(rng) };
        items.push(sseEvent({ event, id, data }));
        expected.push({ event, id, data: JSON.stringify(data) });
      }
    }
    for (const format of ['json', 'text'] as const) {
      const back = await readBack(stringifyEventStream(items, { format }));
      expect(back.events).toEqual(expected);
    }
    const retried = await readBack(stringifyEventStream([sseEvent({ retry: 2500 }), sseEvent({ retry: 0 })]));
    expect(retried.retries).toEqual([2500, 0]);
    expect(retried.events).toEqual([]);
    expect(retried.text).toBe('retry: 2500\n\nretry: 0\n\n');
  });

  test('rawJson with line breaks stays on its data line; sources inside items; replacer, bigint', async () => {
    const rows = async function* () {
      yield 1;
      yield { b: 2n };
    };
    const items = [rawJson('{\n"a":\r\n[1,\r2]\n}'), { rows: rows() }, Promise.resolve('p')];
    const back = await readBack(stringifyEventStream(items, { bigint: 'number' }));
    expect(back.events.map((event) => JSON.parse(event.data))).toEqual([{ a: [1, 2] }, { rows: [1, { b: 2 }] }, 'p']);
    const replacer = (_key: string, value: unknown) => (typeof value === 'number' ? value * 10 : value);
    const replaced = await readBack(stringifyEventStream([{ n: 1 }, 2], { replacer }));
    expect(replaced.events.map((event) => event.data)).toEqual(['{"n":10}', '20']);
  });

  test('every source kind, and a promise of one', async () => {
    const make = [
      () => [1, 2, 3],
      () => new Set([1, 2, 3]).values(),
      async function* () {
        yield* [1, 2, 3];
      },
      () =>
        new ReadableStream({
          start(c) {
            for (const n of [1, 2, 3]) c.enqueue(n);
            c.close();
          },
        }),
    ];
    for (const source of make) {
      for (const wrapped of [source(), Promise.resolve(source())]) {
        const back = await readBack(stringifyEventStream(wrapped as never));
        expect(back.events.map((event) => event.data)).toEqual(['1', '2', '3']);
      }
    }
  });
});

describe('misuse', () => {
  test('sseEvent fields are checked, each error naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [{ event: 'a\nb' }, /^sseEvent\(\): event\.event must not contain CR or LF/],
      [{ event: 'a\rb' }, /event\.event must not contain CR or LF/],
      [{ id: 'a\r\n' }, /event\.id must not contain CR or LF/],
      [{ id: 'a\0' }, /event\.id must not contain NUL/],
      [{ event: 1 }, /event\.event must be a string, got 1/],
      [{ retry: -1 }, /event\.retry must be an integer from 0 to 9007199254740991, got -1/],
      [{ retry: 1.5 }, /event\.retry must be an integer/],
      [{ retry: '5' }, /event\.retry must be an integer/],
      [{ text: 5 }, /event\.text must be a string, got 5/],
      [{ text: 'a', data: 1 }, /event\.data and event\.text cannot both be given/],
      [{ name: 'x' }, /event\.name is not a field; the fields are event, id, retry, data, text/],
      [null, /^sseEvent\(\): event must be an object, got null/],
    ];
    for (const [init, message] of cases) expect(() => sseEvent(init as never), String(init)).toThrow(message);
    for (const [init] of cases) expect(() => sseEvent(init as never)).toThrow(TypeError);
  });

  test('options and sources are checked at the call', () => {
    const cases: [unknown, unknown, RegExp][] = [
      [[], { space: 2 }, /options\.space is not supported/],
      [[], { formt: 'text' }, /options\.formt is not an option/],
      [[], { format: 'xml' }, /options\.format must be 'json' or 'text', got "xml"/],
      [[], { heartbeatMs: -1 }, /options\.heartbeatMs must be an integer from 0 to 2147483647, got -1/],
      [[], { heartbeatMs: 2 ** 31 }, /options\.heartbeatMs must be an integer/],
      [[], { errorEvent: 'x' }, /options\.errorEvent must be a function/],
      [[], { maxDepth: 0 }, /options\.maxDepth must be an integer/],
      ['abc', undefined, /source must be an iterable, an async iterable or a ReadableStream, or a promise of one/],
      [null, undefined, /source must be/],
    ];
    for (const [source, options, message] of cases) {
      expect(() => stringifyEventStream(source as never, options as never)).toThrow(message);
      expect(() => new EventStreamResponse(source as never, undefined, options as never)).toThrow(TypeError);
    }
    expect(() => stringifyEventStream([], { heartbeatMs: 1 } as never)).not.toThrow();
  });

  test('a promise of something else, or a text item that is not a string, errors the stream', async () => {
    const bad = await readBack(stringifyEventStream(Promise.resolve(5) as never));
    expect(bad.error).toBeInstanceOf(TypeError);
    expect(String(bad.error)).toMatch(/source must be an iterable/);
    let closed = false;
    const gen = (function* () {
      try {
        yield 'ok';
        yield 7;
      } finally {
        closed = true;
      }
    })();
    const back = await readBack(stringifyEventStream(gen, { format: 'text' }));
    expect(back.events.map((event) => event.data)).toEqual(['ok']);
    expect(back.error).toBeInstanceOf(TypeError);
    expect(String(back.error)).toMatch(
      /stringifyEventStream\(\): item 1 must be a string \(options\.format is 'text'\), got 7/,
    );
    expect(closed).toBe(true);
  });
});

describe('flow', () => {
  test('heartbeats while the source is silent, none with heartbeatMs 0, timers cleared', async () => {
    const before = timeouts();
    async function* slow() {
      yield 1;
      await wait(130);
      yield 2;
    }
    const back = await readBack(stringifyEventStream(slow(), { heartbeatMs: 25 }));
    expect(back.events.map((event) => event.data)).toEqual(['1', '2']);
    expect(back.comments.length).toBeGreaterThanOrEqual(2);
    expect(back.comments.length).toBeLessThanOrEqual(6);
    // Between events only: the text is events and ':' lines.
    expect(back.text).toMatch(/^data: 1\n\n(:\n\n)+data: 2\n\n$/);
    expect((await readBack(stringifyEventStream(slow(), { heartbeatMs: 0 }))).comments).toEqual([]);
    await settle();
    expect(timeouts()).toBeLessThanOrEqual(before);
  });

  test('no heartbeat piles up while nobody reads', async () => {
    let release!: () => void;
    async function* gated() {
      yield 1;
      await new Promise<void>((resolve) => (release = resolve));
      yield 2;
    }
    const reader = stringifyEventStream(gated(), { heartbeatMs: 10 }).getReader();
    expect((await reader.read()).value?.length).toBe('data: 1\n\n'.length);
    await wait(120);
    release();
    const rest = await readAll(
      new ReadableStream({
        pull: async (c) => {
          const { done, value } = await reader.read();
          if (done) c.close();
          else c.enqueue(value);
        },
      }),
    );
    expect(rest.text).toBe('data: 2\n\n');
  });

  test('the source is read no further ahead than the reader', async () => {
    let produced = 0;
    function* endless() {
      for (;;) yield produced++;
    }
    const reader = stringifyEventStream(endless(), { chunkBytes: 16 }).getReader();
    for (let i = 0; i < 5; i++) await reader.read();
    await settle();
    // 5 chunks of 16 bytes hold about 8 events of 10 bytes; one more chunk is being filled.
    expect(produced).toBeLessThanOrEqual(12);
    await reader.cancel();
    let asyncProduced = 0;
    async function* endlessAsync() {
      for (;;) yield asyncProduced++;
    }
    const asyncReader = stringifyEventStream(endlessAsync(), { chunkBytes: 16 }).getReader();
    await asyncReader.read();
    await settle();
    expect(asyncProduced).toBeLessThanOrEqual(4);
    await asyncReader.cancel();
  });

  test('cancelling runs the source finally, cancels a stream source with the reason, also before reading', async () => {
    const before = timeouts();
    let finallyRan = false;
    async function* ticks() {
      try {
        for (let i = 0; ; i++) {
          yield { i };
          await wait(5);
        }
      } finally {
        finallyRan = true;
      }
    }
    const response = new EventStreamResponse(ticks(), undefined, { heartbeatMs: 1000 });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel('gone');
    expect(finallyRan).toBe(true);
    let reason: unknown;
    const stream = new ReadableStream({ pull: (c) => c.enqueue(1), cancel: (r) => void (reason = r) });
    const streamReader = stringifyEventStream(stream).getReader();
    await streamReader.read();
    await streamReader.cancel('bye');
    expect(reason).toBe('bye');
    let bodyRan = false;
    const unstarted = (async function* () {
      bodyRan = true;
      yield 1;
    })();
    await stringifyEventStream(unstarted).cancel();
    expect(await unstarted.next()).toEqual({ done: true, value: undefined });
    expect(bodyRan).toBe(false);
    await settle();
    expect(timeouts()).toBeLessThanOrEqual(before);
  });

  test('a failing source errors the stream, or ends it with options.errorEvent', async () => {
    const failure = new Error('db down');
    async function* failing() {
      yield 1;
      throw failure;
    }
    const plain = await readBack(stringifyEventStream(failing()));
    expect(plain.events.map((event) => event.data)).toEqual(['1']);
    expect(plain.error).toBe(failure);
    const handled = await readBack(
      stringifyEventStream(failing(), {
        errorEvent: (error) => sseEvent({ event: 'error', data: { message: (error as Error).message } }),
      }),
    );
    expect(handled.error).toBeUndefined();
    expect(handled.events).toEqual([{ data: '1' }, { event: 'error', data: '{"message":"db down"}' }]);
    const silent = await readBack(stringifyEventStream(failing(), { errorEvent: () => undefined }));
    expect(silent).toMatchObject({ error: undefined, text: 'data: 1\n\n' });
    const rethrown = new Error('handler');
    const thrown = await readBack(
      stringifyEventStream(failing(), {
        errorEvent: () => {
          throw rethrown;
        },
      }),
    );
    expect(thrown.error).toBe(rethrown);
  });

  test('an item that cannot be written errors the stream and closes the source', async () => {
    for (const [item, type] of [
      [1n, TypeError],
      [undefined, TypeError],
      [[[[[1]]]], JsonStringifyLimitError],
    ] as const) {
      let closed = false;
      const gen = (function* () {
        try {
          yield 'first';
          yield item;
          yield 'never';
        } finally {
          closed = true;
        }
      })();
      const back = await readBack(stringifyEventStream(gen, { maxDepth: 3 }));
      expect(back.error).toBeInstanceOf(type);
      expect(back.events.map((event) => event.data)).toEqual(['"first"']);
      expect(closed).toBe(true);
    }
  });
});

describe('EventStreamResponse', () => {
  test('headers, status and body', async () => {
    const response = new EventStreamResponse([{ a: 1 }], { status: 201, statusText: 'Made', headers: { 'x-a': 'b' } });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'x-a': 'b',
    });
    expect(await response.text()).toBe('data: {"a":1}\n\n');
    const custom = new EventStreamResponse([], {
      headers: [
        ['Cache-Control', 'no-store'],
        ['content-type', 'text/event-stream'],
      ],
    });
    expect(custom.headers.get('cache-control')).toBe('no-store');
    expect(custom.headers.get('content-type')).toBe('text/event-stream');
    expect(custom.headers.get('x-accel-buffering')).toBe('no');
  });
});
