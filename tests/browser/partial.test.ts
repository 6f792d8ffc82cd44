// The runtime-neutral partial suite (tests/runtime/suites/partial.ts: createPartialParser's snapshots against the
// prefix oracle for documents split everywhere, frozen and shared snapshots, long arrays as views, errors at the
// offsets createParser reports, partialJson over ReadableStreams with cancellation) in a page of each engine, on
// each build (the partial parser is pure JavaScript; createParser, the reference for errors, is not).
import { test } from 'vitest';
import '../runtime/suites/partial.ts';
import { describeEachEngine } from './each_engine.ts';
import { BUILDS, expectSuitePasses, useTestServer } from './suite_page.ts';

// The streaming documents are not used here: keep them small.
const server = useTestServer(1e5);

describeEachEngine((engine) => {
  test.each(BUILDS)('every case of the partial suite passes (%s build)', async (build) => {
    await expectSuitePasses(engine, `${server().origin}/suites/partial.html`, build);
  });
});
