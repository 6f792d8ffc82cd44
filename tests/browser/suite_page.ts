// What the browser tests of the runtime-neutral suites share: a test server for the block, and one check that a
// suite's page ran, on the build asked for, exactly the cases Node registers from the same files, all passing.
import { afterAll, beforeAll, expect } from 'vitest';
import { cases } from '../runtime/harness.ts';
import type { EngineUnderTest } from './each_engine.ts';
import type { CaseResult } from './page/suite_runner.ts';
import { type BrowserTestServer, startBrowserTestServer } from './server.ts';

export type Build = 'simd' | 'scalar';

export const BUILDS = ['simd', 'scalar'] as const;

/** What init() reports for each build. */
export const KIND = { simd: 'simd128', scalar: 'scalar' } as const;

/** Starts a test server before the file's tests and stops it after them; the getter gives it inside tests. */
export function useTestServer(documentBytes?: number): () => BrowserTestServer {
  let server: BrowserTestServer | undefined;
  beforeAll(async () => {
    server = await startBrowserTestServer(documentBytes);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the browser test server did not start');
    return server;
  };
}

/** Runs the suite page at `url` (tests/browser/page/suites/) on `build` and checks every case passed. */
export async function expectSuitePasses(engine: EngineUnderTest, url: string, build: Build): Promise<void> {
  const page = await engine.open(url);
  const { kind, results } = (await page.call('sluiceSuite.run', { build })) as {
    kind: string;
    results: CaseResult[];
  };
  expect(kind).toBe(KIND[build]);
  // Exactly the cases Node registers from the same files: none lost to the bundling.
  expect(results.map((r) => r.name)).toEqual(cases().map((c) => c.name));
  expect(results.filter((r) => r.error !== null)).toEqual([]);
  expect(await page.errors()).toEqual([]);
}
