// A StreamedJsonResponse of COUNT rows from an async generator, instrumented through the CONTROL service so that
// the test can see from outside what the producer did: halfway through, the generator waits for CONTROL to
// answer (the test answers once the client holds bytes, which proves the response streamed before the producer
// finished), and its `finally` reports whether it ran to the end or was closed early (client gone).
import { init, StreamedJsonResponse } from 'sluice';
import wasm from 'sluice/sluice.simd.wasm';
import { row } from './rows_data.js';

async function* rows(count, env, id, report) {
  let completed = false;
  try {
    for (let n = 1; n <= count; n++) {
      if (n === count >> 1) await (await env.CONTROL.fetch(`http://control/halfway?id=${id}`)).text();
      yield row(n);
    }
    completed = true;
  } finally {
    report(completed);
  }
}

export default {
  async fetch(request, env, ctx) {
    await init(wasm);
    const url = new URL(request.url);
    const count = Number(url.searchParams.get('count'));
    const id = url.searchParams.get('id');
    let report;
    const finished = new Promise((resolve) => {
      report = resolve;
    });
    // waitUntil: the report still goes out after the client has gone away.
    ctx.waitUntil(
      finished.then((completed) => env.CONTROL.fetch(`http://control/closed?id=${id}&completed=${completed}`)),
    );
    return new StreamedJsonResponse({ _embedded: { articles: rows(count, env, id, report) }, total: count });
  },
};
