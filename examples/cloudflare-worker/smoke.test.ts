// Smoke run of the cloudflare-worker example (run by scripts/test-runtimes.sh): build.mjs bundles it, workerd
// serves it with the example's own config.capnp, and both routes answer what they promise.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serveConfig, type RunningWorkerd } from '../../tests/edge/workerd.ts';
import { startUpstream, type Upstream } from '../../tests/edge/upstream.ts';
import { ROOT, runToEnd } from '../../tests/runtime/child.ts';

const HERE = join(ROOT, 'examples', 'cloudflare-worker');
let workerd: RunningWorkerd;
let upstream: Upstream;

beforeAll(async () => {
  await runToEnd(process.execPath, ['build.mjs'], { cwd: HERE });
  // Released at once: this run checks the bytes, tests/edge checks the streaming.
  upstream = await startUpstream(1e6, 0);
  workerd = await serveConfig(join(HERE, 'config.capnp'), HERE);
});

afterAll(async () => {
  await workerd?.stop();
  await upstream?.close();
});

test('/articles streams N articles from the generator', async () => {
  const response = await fetch(`${workerd.origin}/articles?count=1000`);
  expect(response.status, workerd.output()).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = await response.json();
  expect(body.total).toBe(1000);
  expect(body._embedded.articles).toHaveLength(1000);
  expect(body._embedded.articles[999]).toMatchObject({ id: 1000, title: 'Article 1000' });
});

test('/reshape passes the upstream articles through byte for byte', async () => {
  const response = await fetch(`${workerd.origin}/reshape?url=${encodeURIComponent(`${upstream.origin}/articles`)}`);
  expect(response.status, workerd.output()).toBe(200);
  const expected = `{"articles":[${upstream.document.elements.join(',')}]}`;
  expect(Buffer.compare(Buffer.from(await response.arrayBuffer()), Buffer.from(expected))).toBe(0);
});
