// What every worker does with each element: keep three fields, one NDJSON line each, written in 64 KiB chunks.
/** A worker answering every request with `respond(body)`, the upstream's body. */
export const upstreamWorker = (respond) => ({
  async fetch(_request, env) {
    const upstream = await env.UPSTREAM.fetch('http://upstream/data.json');
    return respond(upstream.body);
  },
});

export function toNdjson(elements) {
  const encoder = new TextEncoder();
  const iterator = elements[Symbol.asyncIterator]();
  return new Response(
    new ReadableStream({
      async pull(controller) {
        let text = '';
        while (text.length < 65536) {
          const { done, value } = await iterator.next();
          if (done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          const { id, name, score } = value;
          text += `${JSON.stringify({ id, name, score })}\n`;
        }
        controller.enqueue(encoder.encode(text));
      },
      cancel() {
        return iterator.return?.();
      },
    }),
    { headers: { 'content-type': 'application/x-ndjson' } },
  );
}
