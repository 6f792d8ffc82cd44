// Cloudflare workers under real workerd reshape a local upstream JSON API with parseJsonArray(..., { output:
// 'bytes' }): proxy.js frames the elements itself, proxy_stringify.js hands them to stringifyStream. Checked from
// outside: the output is byte-identical to the upstream's articles, it streams (the client has bytes while the
// upstream still holds its last chunk), and a client that goes away cancels the upstream request.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startUpstream, type Upstream } from './upstream.ts';
import { startWorkerd, type RunningWorkerd } from './workerd.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// The upstream holds its last chunk this long at most: a test that needed it earlier shows the worker buffered.
const HOLD_MS = 15_000;

const WORKERS = [
  { worker: 'proxy.js', frame: (elements: string) => `[${elements}]` },
  { worker: 'proxy_stringify.js', frame: (elements: string) => `{"articles":[${elements}]}` },
];

describe.each(WORKERS)('$worker', ({ worker, frame }) => {
  let upstream: Upstream;
  let workerd: RunningWorkerd;

  beforeAll(async () => {
    upstream = await startUpstream(8e6, HOLD_MS);
    workerd = await startWorkerd({
      entry: fileURLToPath(new URL(`./workers/${worker}`, import.meta.url)),
      wasm: [{ name: 'sluice/sluice.simd.wasm', file: `${ROOT}dist/sluice.simd.wasm` }],
      externals: { UPSTREAM: new URL(upstream.origin).host },
    });
  });

  afterAll(async () => {
    await workerd?.stop();
    await upstream?.close();
  });

  test('the reshaped output is byte-identical and streamed', async () => {
    const response = await fetch(workerd.origin);
    expect(response.status, workerd.output()).toBe(200);
    const request = await upstream.nextRequest();
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    let firstBytesAt: number | null = null;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (firstBytesAt === null) {
        firstBytesAt = performance.now();
        request.release();
      }
      chunks.push(value);
    }
    const sent = await request.done;
    const expected = Buffer.from(frame(upstream.document.elements.join(',')));
    expect(Buffer.compare(Buffer.concat(chunks), expected)).toBe(0);
    expect(request.timedOut).toBe(false);
    expect(firstBytesAt!).toBeLessThan(sent.lastByteAt!);
  });

  test('a client that goes away cancels the upstream request', async () => {
    const controller = new AbortController();
    const response = await fetch(workerd.origin, { signal: controller.signal });
    expect(response.status, workerd.output()).toBe(200);
    const request = await upstream.nextRequest();
    const first = await response.body!.getReader().read();
    expect(first.done).toBe(false);
    controller.abort();
    // Never released: only a cancelled upstream request ends before the hold times out.
    const sent = await request.done;
    expect(sent.aborted).toBe(true);
    expect(request.timedOut).toBe(false);
    expect(sent.bytesSent).toBeLessThan(upstream.document.bytes.length);
  });
});
