// The runtime-neutral API suite (tests/runtime/api.ts: JSONTestSuite and random documents against the engine's own
// JSON.parse, options, errors and their positions, every source kind, backpressure, cancellation, the encoder
// against the engine's own JSON.stringify) in a page of each engine, on each build: the same cases Deno and Bun
// run, here in SpiderMonkey and JavaScriptCore-in-WebKit too.
import { expect, test } from 'vitest';
import { afterAll, beforeAll } from 'vitest';
import '../runtime/api.ts';
import { cases } from '../runtime/harness.ts';
import { describeEachEngine } from './each_engine.ts';
import type { CaseResult } from './page/suite_runner.ts';
import { startBrowserTestServer, type BrowserTestServer } from './server.ts';

let server: BrowserTestServer;

beforeAll(async () => {
  // The streaming documents are not used here: keep them small.
  server = await startBrowserTestServer(1e5);
});

afterAll(async () => {
  await server?.close();
});

const KIND = { simd: 'simd128', scalar: 'scalar' } as const;
const names = cases().map((c) => c.name);

describeEachEngine((engine) => {
  test.each(['simd', 'scalar'] as const)('every case of the API suite passes (%s build)', async (build) => {
    const page = await engine.open(`${server.origin}/suites/api.html`);
    const { kind, results } = (await page.call('sluiceSuite.run', { build })) as {
      kind: string;
      results: CaseResult[];
    };
    expect(kind).toBe(KIND[build]);
    // Exactly the cases Node registers from the same files: none lost to the bundling.
    expect(results.map((r) => r.name)).toEqual(names);
    expect(results.filter((r) => r.error !== null)).toEqual([]);
    expect(await page.errors()).toEqual([]);
  });
});
