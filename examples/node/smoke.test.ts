// Smoke run of the npm start demo (run by scripts/test-runtimes.sh): a 1 MB document paced over about a second,
// both programs to the end, `--no-serve` so it exits. The table is printed, both delivered every article (the demo
// checks the id sum and exits non-zero otherwise), and sluice's first article came while the server was still
// sending: the 16 chunks go out 65 ms apart, so a client that waited for the whole body could not be first.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { lastJsonLine, ROOT, runToEnd } from '../../tests/runtime/child.ts';

const COUNT = 2500;

interface Measured {
  count: number;
  idSum: number;
  firstElementMs: number;
  ms: number;
  lastByteMs: number;
  peakRss: number;
}

test('npm start -- --no-serve prints the side-by-side table', async () => {
  const output = await runToEnd(
    process.execPath,
    [join(ROOT, 'examples', 'node', 'demo.mjs'), '--count', String(COUNT), '--rate', '1', '--no-serve', '--json'],
    { cwd: ROOT, timeoutMs: 120_000 },
  );
  expect(output).toMatch(/^\| +\| `await res\.json\(\)` \| `parseJsonArray\(res\.body\)` \|$/m);
  expect(output).toMatch(/^\| time to first article +\|.+\|.+\|$/m);
  expect(output).toMatch(/^\| peak RSS +\|.+ MiB \|.+ MiB \|$/m);

  const result = lastJsonLine(output) as unknown as { whole: Measured; streamed: Measured };
  for (const measured of [result.whole, result.streamed]) {
    expect(measured).toMatchObject({ count: COUNT, idSum: (COUNT * (COUNT + 1)) / 2 });
    expect(measured.peakRss).toBeGreaterThan(0);
  }
  // res.json() cannot have an article before the whole body is in; sluice must have one before the last byte.
  expect(result.whole.firstElementMs).toBeGreaterThanOrEqual(result.whole.lastByteMs - 20);
  expect(result.streamed.firstElementMs).toBeLessThan(result.streamed.lastByteMs);
});
