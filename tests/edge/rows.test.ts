// A StreamedJsonResponse of 100,000 rows from an async generator under real workerd, checked from outside:
// byte-identical to JSON.stringify of the same rows, streamed (the client holds bytes while the producer still
// waits halfway), and a client that goes away closes the generator (its finally runs).
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startControl, type Control } from './control.ts';
import { startWorkerd, type RunningWorkerd } from './workerd.ts';
import { row } from './workers/rows_data.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COUNT = 100_000;
const HOLD_MS = 15_000;

let control: Control;
let workerd: RunningWorkerd;

beforeAll(async () => {
  control = await startControl(HOLD_MS);
  workerd = await startWorkerd({
    entry: fileURLToPath(new URL('./workers/rows.js', import.meta.url)),
    wasm: [{ name: 'sluice/sluice.simd.wasm', file: `${ROOT}dist/sluice.simd.wasm` }],
    externals: { CONTROL: new URL(control.origin).host },
  });
});

afterAll(async () => {
  await workerd?.stop();
  await control?.close();
});

test('100,000 rows: byte-identical to JSON.stringify, and streamed while the producer is still at work', async () => {
  const run = control.run('full');
  const response = await fetch(`${workerd.origin}/?count=${COUNT}&id=full`);
  expect(response.status, workerd.output()).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const reader = response.body!.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (chunks.length === 0) run.clientHasBytes();
    chunks.push(value);
  }
  const articles = Array.from({ length: COUNT }, (_, i) => row(i + 1));
  const expected = Buffer.from(JSON.stringify({ _embedded: { articles }, total: COUNT }));
  const actual = Buffer.concat(chunks);
  expect(actual.length).toBe(expected.length);
  expect(Buffer.compare(actual, expected)).toBe(0);
  // The producer waited halfway until the client had bytes: had the response been buffered whole, nothing would
  // have reached the client before the timeout let the producer finish.
  expect(run.halfway).toBe('client');
  expect(await run.closed).toBe(true);
  expect(chunks.length).toBeGreaterThan(1);
});

test('a client that goes away closes the generator', async () => {
  const run = control.run('cancelled');
  const controller = new AbortController();
  const response = await fetch(`${workerd.origin}/?count=${COUNT * 10}&id=cancelled`, { signal: controller.signal });
  expect(response.status, workerd.output()).toBe(200);
  const first = await response.body!.getReader().read();
  expect(first.done).toBe(false);
  controller.abort();
  const completed = await Promise.race([
    run.closed,
    new Promise<string>((resolve) => setTimeout(() => resolve('generator still open after 10 s'), 10_000)),
  ]);
  expect(completed, workerd.output()).toBe(false);
});
