// EventStreamResponse under real workerd, read from outside with fetch() and parseEventStream: 10,000 rows as JSON
// events and an sseEvent's fields come back as written; heartbeats arrive while the source is silent; a client that
// stops reading pauses an endless source (its count holds still); a client that goes away runs its `finally`.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseEventStream } from '../../dist/index.js';
import { startWorkerd, type RunningWorkerd } from './workerd.ts';
import { row } from './workers/rows_data.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let workerd: RunningWorkerd;

beforeAll(async () => {
  workerd = await startWorkerd({
    entry: fileURLToPath(new URL('./workers/sse.js', import.meta.url)),
    wasm: [{ name: 'sluice/sluice.simd.wasm', file: `${ROOT}dist/sluice.simd.wasm` }],
  });
});

afterAll(async () => {
  await workerd?.stop();
});

interface State {
  yielded: number;
  closed: boolean;
}
const state = async (id: string): Promise<State> => (await fetch(`${workerd.origin}/state?id=${id}`)).json();

test('rows as JSON events, then an sseEvent: read back as written', async () => {
  const count = 10_000;
  const response = await fetch(`${workerd.origin}/events?count=${count}`);
  expect(response.status, workerd.output()).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const events = [];
  for await (const event of parseEventStream(response)) events.push(event);
  expect(events.length).toBe(count + 1);
  expect(events.slice(0, count).map((event) => event.data)).toEqual(
    Array.from({ length: count }, (_, i) => JSON.stringify(row(i + 1))),
  );
  expect(events.slice(0, count).every((event) => event.event === 'message' && event.id === '')).toBe(true);
  expect(events[count]).toEqual({ event: 'done', data: 'all\nrows', id: String(count), retry: 2500 });
});

test('heartbeats arrive while the source is silent, and only then', async () => {
  const text = await (await fetch(`${workerd.origin}/idle`)).text();
  expect(text, workerd.output()).toMatch(/^data: first\n\n(:\n\n){2,}data: second\n\n$/);
});

test('a client that stops reading pauses an endless source; leaving runs its finally', async () => {
  const id = `endless-${Date.now()}`;
  const controller = new AbortController();
  const response = await fetch(`${workerd.origin}/endless?id=${id}`, { signal: controller.signal });
  const reader = response.body!.getReader();
  expect((await reader.read()).done).toBe(false);
  // Wait until the count holds still for 300 ms: without backpressure it would grow as fast as the CPU allows.
  let last = -1;
  let now = (await state(id)).yielded;
  for (const end = Date.now() + 8000; now !== last && Date.now() < end; ) {
    await sleep(300);
    last = now;
    now = (await state(id)).yielded;
  }
  expect(now, `still growing: ${now} events`).toBe(last);
  expect(now).toBeLessThan(50_000);
  expect((await state(id)).closed).toBe(false);
  controller.abort();
  let closed = false;
  for (const end = Date.now() + 10_000; !closed && Date.now() < end; await sleep(50)) closed = (await state(id)).closed;
  expect(closed, workerd.output()).toBe(true);
});
