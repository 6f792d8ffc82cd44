// The encoder in Debian's Chromium: StreamedJsonResponse and stringifyStream built in a page give exactly
// JSON.stringify's text, and a module Service Worker answering with a StreamedJsonResponse streams it: the page
// holds bytes while the worker's generator still waits halfway.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium, type Browser } from './chromium.ts';
import { startBrowserTestServer, type BrowserTestServer } from './server.ts';

let server: BrowserTestServer;
let browser: Browser;

beforeAll(async () => {
  // The parse documents are not used here: keep them small.
  server = await startBrowserTestServer(1e5);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openEncoderPage() {
  const opened = await browser.newPage();
  await opened.page.goto(`${server.origin}/page/encoder.html`);
  await opened.page.waitForFunction(() => (window as { sluiceReady?: boolean }).sluiceReady === true);
  return opened;
}

test('StreamedJsonResponse and stringifyStream in a page write exactly what JSON.stringify writes', async () => {
  const { page, errors } = await openEncoderPage();
  const result = await page.evaluate(() => (window as any).sluiceEncoderTest.inPage({ count: 20_000 }));
  expect(result).toMatchObject({ contentType: 'application/json; charset=utf-8', equal: true, streamEqual: true });
  expect(result.length).toBe(result.expectedLength);
  expect(result.chunks).toBeGreaterThan(1);
  expect(errors).toEqual([]);
  await page.close();
});

test('a Service Worker answers with a StreamedJsonResponse that streams', async () => {
  const { page, errors } = await openEncoderPage();
  const id = `sw-${Date.now()}`;
  const result = await page.evaluate((args) => (window as any).sluiceEncoderTest.viaServiceWorker(args), { count: 50_000, id });
  expect(result).toMatchObject({ status: 200, contentType: 'application/json; charset=utf-8', equal: true });
  expect(result.length).toBe(result.expectedLength);
  // The worker's generator waited halfway until the page held bytes: a buffered response would have needed the
  // hold to time out first.
  expect(server.gate(id)?.openedBy).toBe('mark');
  expect(errors).toEqual([]);
  await page.close();
});
