// EventStreamResponse under workerd. /events: rows as JSON events, then sseEvent fields; /idle: a source silent for
// 400 ms between two events (heartbeats every 50 ms); /endless?id=: an endless source of ~1 kB events whose count
// and `finally` /state?id= reports (module state: one isolate serves both requests).
import { EventStreamResponse, init, sseEvent } from 'sluice';
import wasm from 'sluice/sluice.simd.wasm';
import { row } from './rows_data.js';

const runs = new Map();

async function* rows(count) {
  for (let n = 1; n <= count; n++) {
    if (n % 100 === 0) await null;
    yield row(n);
  }
  yield sseEvent({ event: 'done', id: String(count), retry: 2500, text: 'all\nrows' });
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

export default {
  async fetch(request) {
    await init(wasm);
    const url = new URL(request.url);
    const id = url.searchParams.get('id');
    switch (url.pathname) {
      case '/events':
        return new EventStreamResponse(rows(Number(url.searchParams.get('count'))));
      case '/idle':
        return new EventStreamResponse(idle(), undefined, { format: 'text', heartbeatMs: 50 });
      case '/endless': {
        const state = { yielded: 0, closed: false };
        runs.set(id, state);
        return new EventStreamResponse(endless(state));
      }
      case '/state':
        return Response.json(runs.get(id) ?? null);
      default:
        return new Response('not found', { status: 404 });
    }
  },
};
