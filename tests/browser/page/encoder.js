// The encoder in Chromium: StreamedJsonResponse built in the page and served by a Service Worker. Each function
// returns a plain summary for tests/browser/encoder.test.ts.
import { StreamedJsonResponse, stringifyStream } from '/dist/index.js';
import { expectedText, rows } from './rows.js';

async function readAll(body, onFirstChunk) {
  const reader = body.getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (chunks.length === 0 && onFirstChunk) await onFirstChunk();
    chunks.push(value);
    length += value.length;
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { text: new TextDecoder().decode(bytes), chunks: chunks.length };
}

/** A StreamedJsonResponse and a stringifyStream made in the page. */
async function inPage({ count }) {
  const response = new StreamedJsonResponse({ _embedded: { articles: rows(count) }, total: count });
  const { text, chunks } = await readAll(response.body);
  const streamed = await readAll(stringifyStream({ _embedded: { articles: rows(count) }, total: count }));
  const expected = expectedText(count);
  return {
    contentType: response.headers.get('content-type'),
    equal: text === expected,
    streamEqual: streamed.text === expected,
    length: text.length,
    expectedLength: expected.length,
    chunks,
  };
}

/** Registers the Service Worker, waits until it controls the page, then reads its StreamedJsonResponse. */
async function viaServiceWorker({ count, id }) {
  await navigator.serviceWorker.register('/page/sw.js', { type: 'module', scope: '/page/' });
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  }
  const response = await fetch(`/page/sw-rows?count=${count}&id=${id}`);
  const { text, chunks } = await readAll(response.body, () => fetch(`/mark?id=${id}`, { method: 'POST' }));
  const expected = expectedText(count);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    equal: text === expected,
    length: text.length,
    expectedLength: expected.length,
    chunks,
  };
}

window.sluiceEncoderTest = { inPage, viaServiceWorker };
window.sluiceReady = true;
