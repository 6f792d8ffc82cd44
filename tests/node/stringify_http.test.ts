// StreamedJsonResponse end to end over HTTP on 127.0.0.1: the client gets the whole document as it is produced,
// and the generator behind it is closed when the client goes away mid-transfer.
import { request } from 'node:http';
import { describe, expect, test } from 'vitest';
import { StreamedJsonResponse } from '../../dist/encode/index.js';
import { settle } from '../support/stringify_read.js';
import { countedAsyncRows, probe } from '../support/stringify_sources.js';
import { serve } from '../support/stringify_http.js';

const row = (i: number) => ({ id: i, title: `Article ${i}`, tags: ['a', 'b'] });

describe('over HTTP', () => {
  test('a client receives the whole document', async () => {
    const server = await serve(
      () =>
        new StreamedJsonResponse({
          _embedded: { articles: countedAsyncRows(probe(), 5000, row) },
          total: Promise.resolve(5000),
        }),
    );
    try {
      const response = await fetch(server.url);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toEqual({
        _embedded: { articles: Array.from({ length: 5000 }, (_, i) => row(i)) },
        total: 5000,
      });
    } finally {
      await server.close();
    }
  });

  test('a client that goes away mid-transfer closes the generator (its finally runs)', async () => {
    const p = probe();
    const server = await serve(
      () =>
        new StreamedJsonResponse({
          articles: countedAsyncRows(p, 10_000_000, (i) => ({ ...row(i), body: 'x'.repeat(1000) })),
        }),
    );
    try {
      await new Promise<void>((resolve, reject) => {
        const req = request(server.url, (res) => {
          let received = 0;
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > 256 * 1024) req.destroy();
          });
          res.on('close', () => resolve());
        });
        req.on('error', () => resolve());
        req.on('timeout', () => reject(new Error('timeout')));
        req.end();
      });
      for (let waited = 0; !p.closed && waited < 5000; waited += 20) await settle(20);
      expect(p.closed).toBe(true);
      // Far from the ten million rows (10 GB): the producer stopped once the socket's buffers (a few MB on
      // loopback) were full and the server saw the client was gone.
      expect(p.steps).toBeLessThan(100_000);
    } finally {
      await server.close();
    }
  });
});
