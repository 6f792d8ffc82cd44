// The lazy documents in a page of each engine, on each build: the runner-neutral lazy suite (tests/runtime/suites/
// lazy.ts: lazyParse's proxies and openJson against JSON.parse, positioned errors), then over fetch(): openJson on
// a response body (kept and transient), closing it cancels the request, lazyParse of a fetched document and of
// the corpus equals JSON.parse.
import { expect, test } from 'vitest';
import '../runtime/suites/lazy.ts';
import { describeEachEngine } from './each_engine.ts';
import { BUILDS, expectSuitePasses, KIND, useTestServer } from './suite_page.ts';

const testServer = useTestServer();

describeEachEngine((engine) => {
  test.each(BUILDS)('every case of the lazy suite passes (%s build)', async (build) => {
    await expectSuitePasses(engine, `${testServer().origin}/suites/lazy.html`, build);
  });

  test.each(BUILDS)(
    'openJson and lazyParse over fetch() equal JSON.parse; close() cancels (%s build)',
    async (build) => {
      const server = testServer();
      const page = await engine.open(`${server.origin}/page/`);
      const id = `lazy-${engine.name}-${build}-${Date.now()}`;
      const result = await page.call('sluiceTest.lazyOverFetch', { build, id });
      expect(result.kind).toBe(KIND[build]);
      expect(result.differences).toEqual([]);
      expect(result.counts).toEqual({ kept: server.smallArticles, transient: server.smallArticles });
      // doc.close() cancelled the response body: the server saw the client leave before the last byte.
      const sent = await server.transfer(id)!.done;
      expect(sent.aborted).toBe(true);
      expect(sent.bytesSent).toBeLessThan(server.documentBytes);
      expect(await page.errors()).toEqual([]);
    },
  );
});
