// parseJsonArray(res.body) in Debian's Chromium, on both wasm builds: a ~50 MB document in paced chunks yields its
// first element while the server still holds its last chunk, every element equals JSON.parse of the same bytes,
// and a syntax error deep in a streamed body surfaces as JsonSyntaxError with its absolute position.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, type Browser } from './chromium.ts';
import { startBrowserTestServer, type BrowserTestServer } from './server.ts';

let server: BrowserTestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startBrowserTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh page (fresh module state, so each build is loaded on its own), and the errors it logged. */
async function openTestPage(): Promise<{ page: Page; errors: string[] }> {
  const opened = await browser.newPage();
  await opened.page.goto(`${server.origin}/page/`);
  await opened.page.waitForFunction(() => (window as { sluiceReady?: boolean }).sluiceReady === true);
  return opened;
}

const KIND = { simd: 'simd128', scalar: 'scalar' } as const;

describe.each(['simd', 'scalar'] as const)('%s build', (build) => {
  test('the first element arrives before the last byte is sent; every element equals JSON.parse', async () => {
    const { page, errors } = await openTestPage();
    const id = `${build}-${Date.now()}`;
    const result = await page.evaluate(
      (args) => (window as any).sluiceTest.streamArticles(args), { build, id });
    const transfer = server.transfer(id);
    expect(transfer).toBeDefined();
    const sent = await transfer!.done;

    expect(result.kind).toBe(KIND[build]);
    expect(result.difference).toBeNull();
    expect(result.count).toBe(server.articles);
    expect(result.expectedCount).toBe(server.articles);
    // The server held its last chunk until the page said it had an element; had the page waited for the whole
    // body, the chunk would have gone out at the timeout, before the mark.
    expect(transfer!.heldUntilTimeout).toBe(false);
    expect(sent.aborted).toBe(false);
    expect(sent.bytesSent).toBe(server.documentBytes);
    expect(transfer!.markAt).not.toBeNull();
    expect(transfer!.markAt!).toBeLessThan(sent.lastByteAt!);
    expect(errors).toEqual([]);
    console.log(`${build}: ${result.count} elements, ${(server.documentBytes / 1e6).toFixed(1)} MB, `
      + `first element after ${result.firstElementMs.toFixed(0)} ms, all after ${result.totalMs.toFixed(0)} ms`);
    await page.close();
  });

  test('a syntax error in the body is a JsonSyntaxError at its absolute offset, after the elements before it', async () => {
    const { page, errors } = await openTestPage();
    const result = await page.evaluate((args) => (window as any).sluiceTest.streamBroken(args), { build });
    const { broken } = server;
    expect(result.kind).toBe(KIND[build]);
    expect(result.count).toBe(broken.validElements);
    expect(result.error).toMatchObject({
      name: 'JsonSyntaxError',
      isJsonSyntaxError: true,
      isSyntaxError: true,
      isLimitError: false,
      code: 'EXPECTED_COMMA_OR_BRACKET',
      offset: broken.offset,
      line: broken.line,
      column: broken.column,
    });
    expect(result.error.message).toBe(`Cannot parse JSON: expected "," or "]" but found "{" at byte ${broken.offset} `
      + `(line ${broken.line}, column ${broken.column})`);
    expect(errors).toEqual([]);
    await page.close();
  });
});

test('without a module argument, the loader picks the SIMD build in Chromium', async () => {
  const { page } = await openTestPage();
  const kind = await page.evaluate(() => (window as any).sluiceTest.defaultBuild());
  expect(kind).toBe('simd128');
  await page.close();
});
