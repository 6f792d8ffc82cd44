// What both workers do with each element: keep three fields, one NDJSON line each, written in 64 KiB chunks.
export function reshape(row) {
  return { id: row.id, name: row.name, score: row.score };
}

export function toNdjson(elements, map) {
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
          text += `${JSON.stringify(map(value))}\n`;
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
