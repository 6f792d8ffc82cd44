// The Service Worker's event stream routes (imported by sw.js): /page/sw-sse?count=N, N JSON events then an
// sseEvent `done`; /page/sw-sse-idle, two text events 400 ms apart with heartbeats every 50 ms; /page/sw-sse-endless
// ?id=, an endless source of ~1 kB events whose count and `finally` /page/sw-sse-state?id= reports.
import { EventStreamResponse, sseEvent } from '/dist/index.js';

const runs = new Map();

/** The values of /page/sw-sse, shared with the page that checks them. */
export function sseValue(n) {
  return { n, text: `é 中 😀 "q" \\ line\nbreak \u2028 #${n}`, even: n % 2 === 0, nested: { list: [n, null] } };
}

async function* values(count) {
  for (let n = 1; n <= count; n++) {
    if (n % 100 === 0) await null;
    yield sseValue(n);
  }
  yield sseEvent({ event: 'done', id: String(count), text: 'all\nsent' });
}

async function* idle() {
  yield 'first';
  await new Promise((resolve) => setTimeout(resolve, 400));
  yield 'second';
}

async function* endless(state) {
  const pad = 'x'.repeat(1000);
  try {
    for (;;) {
      state.yielded++;
      yield { n: state.yielded, pad };
    }
  } finally {
    state.closed = true;
  }
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const id = url.searchParams.get('id');
  if (url.pathname === '/page/sw-sse') {
    event.respondWith(new EventStreamResponse(values(Number(url.searchParams.get('count')))));
  } else if (url.pathname === '/page/sw-sse-idle') {
    event.respondWith(new EventStreamResponse(idle(), undefined, { format: 'text', heartbeatMs: 50 }));
  } else if (url.pathname === '/page/sw-sse-endless') {
    const state = { yielded: 0, closed: false };
    runs.set(id, state);
    event.respondWith(new EventStreamResponse(endless(state)));
  } else if (url.pathname === '/page/sw-sse-state') {
    event.respondWith(Response.json(runs.get(id) ?? null));
  }
});
