// parseJsonArray(res.body) in each engine, on both wasm builds: a ~20 MB document in paced chunks (some 300)
// yields its first element while the server still holds its last chunk, and every element equals JSON.parse of the
// same bytes; a syntax error deep in a streamed body surfaces as JsonSyntaxError with its absolute position; leaving
// the loop cancels the request; `text` and `bytes` elements are the exact source slices, JsonArrayStream gives
// JSON.parse's values; without an argument the loader picks the SIMD build.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { describeEachEngine } from './each_engine.ts';
import { startBrowserTestServer, type BrowserTestServer } from './server.ts';

let server: BrowserTestServer;

beforeAll(async () => {
  server = await startBrowserTestServer();
});

afterAll(async () => {
  await server?.close();
});

const KIND = { simd: 'simd128', scalar: 'scalar' } as const;

describeEachEngine((engine) => {
  const openTestPage = () => engine.open(`${server.origin}/page/`);

  describe.each(['simd', 'scalar'] as const)('%s build', (build) => {
    test('the first element arrives before the last byte is sent; every element equals JSON.parse', async () => {
      const page = await openTestPage();
      const id = `${engine.name}-${build}-${Date.now()}`;
      const result = await page.call('sluiceTest.streamArticles', { build, id });
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
      expect(await page.errors()).toEqual([]);
      console.log(
        `${engine.engine().label} ${build}: ${result.count} elements, ${(server.documentBytes / 1e6).toFixed(1)} MB, ` +
          `first element after ${result.firstElementMs.toFixed(0)} ms, all after ${result.totalMs.toFixed(0)} ms`,
      );
    });

    test('a syntax error in the body is a JsonSyntaxError at its absolute offset, after the elements before it', async () => {
      const page = await openTestPage();
      const result = await page.call('sluiceTest.streamBroken', { build });
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
      expect(result.error.message).toBe(
        `Cannot parse JSON: expected "," or "]" but found "{" at byte ${broken.offset} ` +
          `(line ${broken.line}, column ${broken.column})`,
      );
      expect(await page.errors()).toEqual([]);
    });

    test('breaking out of the loop cancels the response body', async () => {
      const page = await openTestPage();
      const id = `break-${engine.name}-${build}-${Date.now()}`;
      const result = await page.call('sluiceTest.breakEarly', { build, id, stopAfter: 100 });
      const sent = await server.transfer(id)!.done;
      expect(result).toEqual({ kind: KIND[build], count: 100 });
      expect(sent.aborted).toBe(true);
      expect(sent.bytesSent).toBeLessThan(server.documentBytes);
      expect(await page.errors()).toEqual([]);
    });

    test("text and bytes elements are the exact source slices; JsonArrayStream gives JSON.parse's values", async () => {
      const page = await openTestPage();
      const result = await page.call('sluiceTest.outputsExact', { build });
      expect(result.kind).toBe(KIND[build]);
      expect(result.problems).toEqual([]);
      expect(result.counts).toEqual({
        text: server.smallArticles,
        bytes: server.smallArticles,
        stream: server.smallArticles,
      });
      expect(result.expected).toBe(server.smallArticles);
      expect(await page.errors()).toEqual([]);
    });
  });

  test('without a module argument, the loader picks the SIMD build', async () => {
    const page = await openTestPage();
    expect(await page.call('sluiceTest.defaultBuild')).toBe('simd128');
    expect(await page.errors()).toEqual([]);
  });
});
