// The lazy documents in a page of each engine, on each build: the runner-neutral lazy suite (tests/runtime/suites/
// lazy.ts: lazyParse's proxies and openJson against JSON.parse, positioned errors), then over fetch(): openJson on
// a response body (kept and transient), closing it cancels the request, lazyParse of a fetched document and of
// the corpus equals JSON.parse.
import { afterAll, beforeAll, expect, test } from 'vitest';
import '../runtime/suites/lazy.ts';
import { cases } from '../runtime/harness.ts';
import { describeEachEngine } from './each_engine.ts';
import type { CaseResult } from './page/suite_runner.ts';
import { startBrowserTestServer, type BrowserTestServer } from './server.ts';

let server: BrowserTestServer;

beforeAll(async () => {
  server = await startBrowserTestServer();
});

afterAll(async () => {
  await server?.close();
});

const KIND = { simd: 'simd128', scalar: 'scalar' } as const;
const names = cases().map((c) => c.name);

describeEachEngine((engine) => {
  test.each(['simd', 'scalar'] as const)('every case of the lazy suite passes (%s build)', async (build) => {
    const page = await engine.open(`${server.origin}/suites/lazy.html`);
    const { kind, results } = (await page.call('sluiceSuite.run', { build })) as {
      kind: string;
      results: CaseResult[];
    };
    expect(kind).toBe(KIND[build]);
    // Exactly the cases Node registers from the same file: none lost to the bundling.
    expect(results.map((r) => r.name)).toEqual(names);
    expect(results.filter((r) => r.error !== null)).toEqual([]);
    expect(await page.errors()).toEqual([]);
  });

  test.each(['simd', 'scalar'] as const)(
    'openJson and lazyParse over fetch() equal JSON.parse; close() cancels (%s build)',
    async (build) => {
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
