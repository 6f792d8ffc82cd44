// EventStreamResponse in a Service Worker (sse_routes.js), read by the page with EventSource and fetch(). Each
// function returns a plain summary for tests/browser/sse.test.ts.
import { sseValue } from './sse_routes.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function controlled() {
  await navigator.serviceWorker.register('/page/sw.js', { type: 'module', scope: '/page/' });
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
    );
  }
}

const state = async (id) => (await fetch(`/page/sw-sse-state?id=${id}`)).json();

async function until(condition, ms = 8000) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (await condition()) return true;
  return false;
}

/**
 * The browser's own EventSource reads N JSON events, the `done` event, then the end of the stream (an `error`
 * event, after which it would reconnect): closed only then, so that no response is cancelled in flight, which
 * Firefox reports as a page error.
 */
async function viaEventSource({ count }) {
  await controlled();
  const source = new EventSource(`/page/sw-sse?count=${count}`);
  const data = [];
  let done = null;
  await new Promise((resolve, reject) => {
    source.onmessage = (event) => data.push(event.data);
    source.addEventListener('done', (event) => {
      done = { data: event.data, lastEventId: event.lastEventId };
    });
    source.onerror = () => {
      source.close();
      if (done === null) reject(new Error(`EventSource failed after ${data.length} events`));
      else resolve();
    };
  });
  let firstDifference = -1;
  for (let n = 1; n <= count && firstDifference < 0; n++) {
    if (data[n - 1] !== JSON.stringify(sseValue(n))) firstDifference = n;
  }
  return { events: data.length, firstDifference, done };
}

/** The raw text of a stream whose source is silent for 400 ms. */
async function idleText() {
  await controlled();
  return (await fetch('/page/sw-sse-idle')).text();
}

/** EventSource.close() after the first event: the worker's source must run its finally. */
async function closeEventSource({ id }) {
  await controlled();
  const source = new EventSource(`/page/sw-sse-endless?id=${id}`);
  await new Promise((resolve) => {
    source.onmessage = resolve;
  });
  source.close();
  const closed = await until(async () => (await state(id)).closed);
  return { closed };
}

/** fetch() reads one chunk and stops: the worker's count must hold still; then cancel() runs its finally. */
async function stopReading({ id }) {
  await controlled();
  const reader = (await fetch(`/page/sw-sse-endless?id=${id}`)).body.getReader();
  await reader.read();
  let last = -1;
  let now = (await state(id)).yielded;
  for (const end = Date.now() + 8000; now !== last && Date.now() < end; ) {
    await sleep(300);
    last = now;
    now = (await state(id)).yielded;
  }
  const openWhilePaused = !(await state(id)).closed;
  await reader.cancel();
  const closed = await until(async () => (await state(id)).closed);
  return { stable: now === last, yielded: now, openWhilePaused, closed };
}

window.sluiceSseTest = { viaEventSource, idleText, closeEventSource, stopReading };
window.sluiceReady = true;
