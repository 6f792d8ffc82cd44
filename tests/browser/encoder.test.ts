// The encoder in each engine: StreamedJsonResponse and stringifyStream built in a page write exactly the bytes of
// JSON.stringify's text; a module Service Worker answering with a StreamedJsonResponse streams it (the page holds
// bytes while the worker's generator still waits halfway); cancelling a stringifyStream closes its source.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeEachEngine } from './each_engine.ts';
import { startBrowserTestServer, type BrowserTestServer } from './server.ts';

let server: BrowserTestServer;

beforeAll(async () => {
  // The parse documents are not used here: keep them small.
  server = await startBrowserTestServer(1e5);
});

afterAll(async () => {
  await server?.close();
});

describeEachEngine((engine) => {
  const openEncoderPage = () => engine.open(`${server.origin}/page/encoder.html`);

  test('StreamedJsonResponse and stringifyStream in a page write exactly what JSON.stringify writes', async () => {
    const page = await openEncoderPage();
    const result = await page.call('sluiceEncoderTest.inPage', { count: 20_000 });
    expect(result).toMatchObject({ contentType: 'application/json; charset=utf-8', equal: true, streamEqual: true });
    expect(result.length).toBe(result.expectedLength);
    expect(result.chunks).toBeGreaterThan(1);
    expect(await page.errors()).toEqual([]);
  });

  test('a Service Worker answers with a StreamedJsonResponse that streams', async () => {
    const page = await openEncoderPage();
    const id = `sw-${engine.name}-${Date.now()}`;
    const result = await page.call('sluiceEncoderTest.viaServiceWorker', { count: 50_000, id });
    expect(result).toMatchObject({ status: 200, contentType: 'application/json; charset=utf-8', equal: true });
    expect(result.length).toBe(result.expectedLength);
    // The worker's generator waited halfway until the page held bytes: a buffered response would have needed the
    // hold to time out first.
    expect(server.gate(id)?.openedBy).toBe('mark');
    expect(await page.errors()).toEqual([]);
  });

  test('cancelling a stringifyStream closes its source and pulls no more rows', async () => {
    const page = await openEncoderPage();
    const result = await page.call('sluiceEncoderTest.cancelStringify', { count: 1_000_000 });
    expect(result.firstChunk).toBeGreaterThan(0);
    expect(result.closed).toBe(true);
    expect(result.pulledAtCancel).toBeLessThan(1_000_000);
    expect(result.pulledLater).toBe(result.pulledAtCancel);
    expect(await page.errors()).toEqual([]);
  });
});
