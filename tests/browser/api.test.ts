// The runtime-neutral API suite (tests/runtime/api.ts: JSONTestSuite and random documents against the engine's own
// JSON.parse, options, errors and their positions, every source kind, backpressure, cancellation, the encoder
// against the engine's own JSON.stringify) in a page of each engine, on each build: the same cases Deno and Bun
// run, here in SpiderMonkey and JavaScriptCore-in-WebKit too.
import { test } from 'vitest';
import '../runtime/api.ts';
import { describeEachEngine } from './each_engine.ts';
import { BUILDS, expectSuitePasses, useTestServer } from './suite_page.ts';

// The streaming documents are not used here: keep them small.
const server = useTestServer(1e5);

describeEachEngine((engine) => {
  test.each(BUILDS)('every case of the API suite passes (%s build)', async (build) => {
    await expectSuitePasses(engine, `${server().origin}/suites/api.html`, build);
  });
});
