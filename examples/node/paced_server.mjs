// The demo's stand-in for a slow API: serves one JSON file on 127.0.0.1 in 64 KiB chunks at a steady rate, as a
// real network delivers a big response, and records when each transfer started and sent its last byte.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';

export const CHUNK_BYTES = 64 * 1024;

/** Wall-clock milliseconds comparable across processes on one machine (performance.now() is per process). */
export const wallNow = () => performance.timeOrigin + performance.now();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/**
 * Starts the server; resolves once it listens. `rate` is in MB/s (10^6 bytes), 0 for as fast as possible.
 * `transfer` is the latest response's progress: `{ sent, total, startedAt, lastByteAt }` (wall-clock ms).
 */
export function startPacedServer({ file, rate }) {
  const total = statSync(file).size;
  const state = { transfer: null };

  async function send(res) {
    const transfer = { sent: 0, total, startedAt: wallNow(), lastByteAt: null };
    state.transfer = transfer;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': total, 'cache-control': 'no-store' });
    const started = performance.now();
    for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
      // Chunk k leaves at k * 64 KiB / rate from the start, not a fixed sleep after each: timer lateness does not
      // add up, and nothing waits after the last chunk.
      const due = rate > 0 ? (transfer.sent / (rate * 1e6)) * 1000 - (performance.now() - started) : 0;
      if (due >= 1) await sleep(due);
      if (res.destroyed) return;
      if (!res.write(chunk)) await drained(res);
      transfer.sent += chunk.length;
    }
    // Handed to the socket: all a client can still receive is the end of the response.
    transfer.lastByteAt = wallNow();
    res.end();
  }

  const server = createServer((req, res) => {
    if (req.url === '/articles.json') return void send(res).catch(() => res.destroy());
    if (req.url === '/ping') return void res.writeHead(204).end();
    res.writeHead(404).end('not found');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        get transfer() {
          return state.transfer;
        },
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(done);
          }),
      });
    });
  });
}
