// The upstream: a Node server on 127.0.0.1 serving one generated array held in memory (its cost is this process's,
// never the measured workerd's), in 64 KiB writes under backpressure (the engine matrix's server's).
import { createServer } from 'node:http';
import { sendPaced } from '../harness/bench_server.mjs';

const ROW_CHUNK = 1 << 20; // rows are joined into Buffers of about 1 MB: no string near V8's length limit

/** An array of about `bytes` bytes of rows: { body: Buffer, rows }. */
export function makeBody(bytes) {
  const parts = [];
  let text = '[';
  let size = 2;
  let id = 0;
  for (; size < bytes; ++id) {
    const row = JSON.stringify({
      id,
      name: `user ${id}`,
      email: `user${id}@example.com`,
      tags: ['alpha', 'beta', id % 7 === 0 ? 'caf\u00e9' : 'gamma'],
      score: id * 0.25,
      active: id % 2 === 0,
      address: { city: 'Z\u00fcrich', zip: String(8000 + (id % 100)) },
    });
    text += id === 0 ? row : `,${row}`;
    size += row.length + 1;
    if (text.length >= ROW_CHUNK) {
      parts.push(Buffer.from(text));
      text = '';
    }
  }
  parts.push(Buffer.from(`${text}]`));
  return { body: Buffer.concat(parts), rows: id };
}

/** The server; `serve(body)` sets what it answers, `sent()` the bytes written of the last response. */
export async function startUpstream() {
  let body = Buffer.alloc(0);
  let offset = 0;
  const server = createServer((_req, res) => {
    offset = 0;
    sendPaced(res, body, 0, (end) => {
      offset = end;
    }).catch(() => res.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    serve(next) {
      body = next;
    },
    sent: () => offset,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
