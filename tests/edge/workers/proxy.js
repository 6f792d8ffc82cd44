// Reshapes an upstream JSON API on the edge: `{"_embedded":{"articles":[...]},"total":N}` from the UPSTREAM
// service becomes the bare array of articles, each article's bytes passed through exactly as upstream wrote them
// (output: 'bytes': never parsed into JS objects). Pull-based: an article is read from upstream only when the
// client's side of the response has room for it, and a client that goes away cancels the upstream request.
import { init, parseJsonArray } from 'sluice';
import wasm from 'sluice/sluice.simd.wasm';

const OPEN = new TextEncoder().encode('[');
const COMMA = new TextEncoder().encode(',');
const CLOSE = new TextEncoder().encode(']');

export default {
  async fetch(_request, env) {
    // A compiled WebAssembly.Module, as workerd hands a `.wasm` import: nothing is compiled from bytes.
    await init(wasm);
    const upstream = await env.UPSTREAM.fetch('http://upstream/articles');
    if (!upstream.ok) return new Response(`upstream answered ${upstream.status}`, { status: 502 });
    const articles = parseJsonArray(upstream.body, { path: '$._embedded.articles[*]', output: 'bytes' });
    const iterator = articles[Symbol.asyncIterator]();
    let started = false;
    const body = new ReadableStream(
      {
        async pull(controller) {
          const { done, value } = await iterator.next();
          if (done) {
            if (!started) controller.enqueue(OPEN);
            controller.enqueue(CLOSE);
            controller.close();
            return;
          }
          controller.enqueue(started ? COMMA : OPEN);
          started = true;
          controller.enqueue(value);
        },
        cancel() {
          return iterator.return();
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
  },
};
