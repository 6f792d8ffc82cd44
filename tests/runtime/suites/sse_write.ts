// The event stream writer behind the runtime's own HTTP server (tests/runtime/serve.ts: Deno.serve, Bun.serve,
// node:http), read back by a fetch() client with parseEventStream: JSON, text and sseEvent fields arrive as written;
// a heartbeat comment arrives while the source is idle; a client that goes away runs the source's `finally`; a
// client that stops reading stops an endless source (its count stays put, bounded by the buffers in between).
import { EventStreamResponse, parseEventStream, sseEvent } from '../../../dist/index.js';
import { createRng, randomDocument } from '../../support/random_json.mjs';
import { assert, assertEqual, group, test } from '../harness.ts';
import { serve, type Handler } from '../serve.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withServer(handler: Handler, body: (origin: string) => Promise<void>): Promise<void> {
  const served = await serve(handler);
  try {
    await body(served.origin);
  } finally {
    await served.close();
  }
}

interface Event {
  event: string;
  data: string;
  id: string;
  retry: number | undefined;
}

async function eventsOf(source: Response | string): Promise<Event[]> {
  const out: Event[] = [];
  for await (const { event, data, id, retry } of parseEventStream(source)) out.push({ event, data, id, retry });
  return out;
}

async function* slowly<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) {
    await null;
    yield item;
  }
}

/** Polls `condition` every 20 ms for up to `ms`; its last answer. */
async function eventually(condition: () => boolean, ms = 5000): Promise<boolean> {
  for (const end = Date.now() + ms; !condition() && Date.now() < end; ) await sleep(20);
  return condition();
}

/** An endless source of ~1 kB events that counts what it yielded and notes when its `finally` ran. */
function endless() {
  const state = { yielded: 0, closed: false };
  const pad = 'x'.repeat(1000);
  async function* source() {
    try {
      for (;;) {
        state.yielded++;
        yield { n: state.yielded, pad };
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, source: source() };
}

/**
 * Waits until `count()` holds still for 500 ms (or `ms` pass); the count it settled on, or null. Generous: on a
 * loaded CI machine (a native addon compiling beside the suite) the buffers in between fill slowly.
 */
async function settledCount(count: () => number, ms = 20_000): Promise<number | null> {
  let last = count();
  for (const end = Date.now() + ms; Date.now() < end; ) {
    await sleep(500);
    const now = count();
    if (now === last) return now;
    last = now;
  }
  return null;
}

group('sse writer over HTTP', () => {
  test('JSON items, text items and sseEvent fields come back as written', async () => {
    const rng = createRng(0x5e1);
    const values = Array.from({ length: 300 }, () => JSON.parse(randomDocument(rng)) as unknown);
    values.push('line\nbreak\r\u2028', { emoji: '😀', nul: '\0' }, [], null);
    const texts = ['one', 'two\nlines', 'cr\rlf\r\nend', ' a leading space', '', 'é中😀'];
    const explicit = [
      sseEvent({ event: 'price', id: '7', retry: 1500, data: { symbol: 'X', price: 1.5 } }),
      sseEvent({ event: 'note', text: 'a\nb' }),
      sseEvent({ text: '[DONE]' }),
    ];
    await withServer(
      (request) => {
        const path = new URL(request.url).pathname;
        if (path === '/json') return new EventStreamResponse(slowly(values), undefined, { chunkBytes: 512 });
        if (path === '/text') return new EventStreamResponse(texts, undefined, { format: 'text' });
        return new EventStreamResponse(explicit, { headers: { 'x-test': 'yes' } });
      },
      async (origin) => {
        const json = await fetch(`${origin}/json`);
        assertEqual(json.status, 200, 'status');
        assertEqual(json.headers.get('content-type'), 'text/event-stream; charset=utf-8', 'content-type');
        assertEqual(json.headers.get('cache-control'), 'no-cache', 'cache-control');
        const events = await eventsOf(json);
        assertEqual(
          events.map((event) => event.data),
          values.map((value) => JSON.stringify(value)),
          'JSON data',
        );
        assert(
          events.every((event) => event.event === 'message' && event.id === '' && event.retry === undefined),
          'JSON items are plain message events',
        );
        const text = await eventsOf(await fetch(`${origin}/text`));
        assertEqual(
          text.map((event) => event.data),
          texts.map((line) => line.replace(/\r\n|\r/g, '\n')),
          'text data',
        );
        const fields = await fetch(`${origin}/explicit`);
        assertEqual(fields.headers.get('x-test'), 'yes', 'a header of init');
        assertEqual(
          await eventsOf(fields),
          [
            { event: 'price', data: '{"symbol":"X","price":1.5}', id: '7', retry: 1500 },
            { event: 'note', data: 'a\nb', id: '7', retry: 1500 },
            { event: 'message', data: '[DONE]', id: '7', retry: 1500 },
          ],
          'sseEvent fields',
        );
      },
    );
  });

  test('a heartbeat comment arrives while the source is idle, then the events', async () => {
    async function* idle() {
      yield 'first';
      await sleep(400);
      yield 'second';
    }
    await withServer(
      () => new EventStreamResponse(idle(), undefined, { heartbeatMs: 60, format: 'text' }),
      async (origin) => {
        const response = await fetch(origin);
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        let text = '';
        let heartbeatBeforeSecond = false;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
          if (!text.includes('data: second') && text.includes('\n:\n\n')) heartbeatBeforeSecond = true;
        }
        assert(heartbeatBeforeSecond, `a heartbeat arrived before the second event, got ${JSON.stringify(text)}`);
        const between = text.slice(text.indexOf('data: first\n\n'), text.indexOf('data: second'));
        assert(
          /^data: first\n\n(:\n\n)+$/.test(between),
          `only heartbeats between the events: ${JSON.stringify(between)}`,
        );
        assertEqual(
          (await eventsOf(text)).map((event) => event.data),
          ['first', 'second'],
          'the events around the heartbeats',
        );
      },
    );
  });

  test("a client that goes away runs the source's finally", async () => {
    const { state, source } = endless();
    await withServer(
      () => new EventStreamResponse(source),
      async (origin) => {
        const controller = new AbortController();
        const response = await fetch(origin, { signal: controller.signal });
        const first = await response.body!.getReader().read();
        assert(!first.done && first.value.length > 0, 'the first bytes arrived');
        controller.abort();
        assert(await eventually(() => state.closed, 15_000), `the finally ran (after ${state.yielded} events)`);
        const after = state.yielded;
        await sleep(100);
        assertEqual(state.yielded, after, 'events yielded after the finally');
      },
    );
  });

  test('a client that stops reading stops an endless source', async () => {
    const { state, source } = endless();
    // Why the server cancelled the response, if it did: Bun's server may drop a connection nobody reads from
    // under load ("The connection was closed."), which closes the source as it must; only a close the library
    // made by itself would be a failure.
    let serverCancelled: unknown = null;
    await withServer(
      () => {
        const reader = new EventStreamResponse(source).body!.getReader();
        const body = new ReadableStream<Uint8Array>(
          {
            async pull(controller) {
              const r = await reader.read();
              if (r.done) controller.close();
              else controller.enqueue(r.value);
            },
            cancel(reason) {
              serverCancelled = reason ?? 'no reason';
              return reader.cancel(reason);
            },
          },
          { highWaterMark: 0 },
        );
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      },
      async (origin) => {
        const controller = new AbortController();
        const response = await fetch(origin, { signal: controller.signal });
        const reader = response.body!.getReader();
        assert(!(await reader.read()).done, 'the first bytes arrived');
        const settled = await settledCount(() => state.yielded);
        assert(settled !== null, `the source kept going while nobody read (${state.yielded} events)`);
        // The buffers in between (the response's queue, the server's, both sockets') hold a few MB at most.
        assert(settled < 50_000, `${settled} events of 1 kB were read ahead of a client that read one chunk`);
        assert(
          !state.closed || serverCancelled !== null,
          'the source is still open, only paused (closed with no cancel from the server)',
        );
        controller.abort();
        assert(await eventually(() => state.closed, 15_000), 'the finally ran once the client went away');
      },
    );
  });
});
