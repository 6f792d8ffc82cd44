// EventStreamResponse in a module Service Worker (page/sse_routes.js), in each engine: the page's EventSource
// reads the events as written; heartbeats arrive while the source is silent; EventSource.close() runs the source's
// finally; a page that stops reading a fetch() pauses an endless source (its count holds still), cancel() closes it.
// Where an engine does not carry the page's side back to the worker, the case is skipped there, as measured:
// WebKitGTK 2.50 never cancels the worker's response stream (close() and cancel() leave the source open, and its
// count grows while the page does not read); Firefox 153 cancels it, but reads the worker's stream ahead of a page
// that does not read (47,652 events of 1 kB after 8 s, still growing). The stream itself is the same in each
// engine: its pull-driven backpressure and cancellation hold in workerd, Deno, Bun and Node (tests/edge/sse.test.ts,
// tests/runtime/suites/sse_write.ts).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeEachEngine } from './each_engine.ts';
import { startBrowserTestServer, type BrowserTestServer } from './server.ts';

let server: BrowserTestServer;

beforeAll(async () => {
  server = await startBrowserTestServer(1e5);
});

afterAll(async () => {
  await server?.close();
});

describeEachEngine((engine) => {
  const openPage = () => engine.open(`${server.origin}/page/sse.html`);

  test("a Service Worker's EventStreamResponse read by EventSource", async () => {
    const page = await openPage();
    const count = 2000;
    const result = await page.call('sluiceSseTest.viaEventSource', { count });
    expect(result).toEqual({
      events: count,
      firstDifference: -1,
      done: { data: 'all\nsent', lastEventId: String(count) },
    });
    expect(await page.errors()).toEqual([]);
  });

  test('heartbeats while the source is silent, and only then', async () => {
    const page = await openPage();
    expect(await page.call('sluiceSseTest.idleText')).toMatch(/^data: first\n\n(:\n\n){2,}data: second\n\n$/);
    expect(await page.errors()).toEqual([]);
  });

  test.skipIf(engine.name === 'webkit')("EventSource.close() runs the source's finally", async () => {
    const page = await openPage();
    const id = `close-${engine.name}-${Date.now()}`;
    expect(await page.call('sluiceSseTest.closeEventSource', { id })).toEqual({ closed: true });
  });

  test.skipIf(engine.name !== 'chromium')(
    'a page that stops reading pauses an endless source; cancel() closes it',
    async () => {
      const page = await openPage();
      const id = `pause-${engine.name}-${Date.now()}`;
      const result = await page.call('sluiceSseTest.stopReading', { id });
      expect(result).toMatchObject({ stable: true, openWhilePaused: true, closed: true });
      // Bounded by the buffers between the worker and the page: Chromium 156 holds about 56 MB of them.
      expect(result.yielded).toBeLessThan(150_000);
      expect(await page.errors()).toEqual([]);
    },
  );
});
