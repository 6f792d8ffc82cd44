// The runtime-neutral partial suite (tests/runtime/suites/partial.ts: createPartialParser's snapshots against the
// prefix oracle for documents split everywhere, frozen and shared snapshots, long arrays as views, errors at the
// offsets createParser reports, partialJson over ReadableStreams with cancellation) in a page of each engine, on
// each build (the partial parser is pure JavaScript; createParser, the reference for errors, is not).
import { afterAll, beforeAll, expect, test } from 'vitest';
import '../runtime/suites/partial.ts';
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
  test.each(['simd', 'scalar'] as const)('every case of the partial suite passes (%s build)', async (build) => {
    const page = await engine.open(`${server.origin}/suites/partial.html`);
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
});
