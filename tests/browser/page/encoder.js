// The encoder in each engine: StreamedJsonResponse built in the page and served by a Service Worker, and a
// cancelled stringifyStream. Each function returns a plain summary for tests/browser/encoder.test.ts.
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
  return { bytes, text: new TextDecoder().decode(bytes), chunks: chunks.length };
}

/** Byte for byte: a decoder would hide invalid UTF-8 behind U+FFFD. */
function sameBytes(bytes, text) {
  const expected = new TextEncoder().encode(text);
  if (bytes.length !== expected.length) return false;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== expected[i]) return false;
  return true;
}

/** A StreamedJsonResponse and a stringifyStream made in the page. */
async function inPage({ count }) {
  const response = new StreamedJsonResponse({ _embedded: { articles: rows(count) }, total: count });
  const { bytes, text, chunks } = await readAll(response.body);
  const streamed = await readAll(stringifyStream({ _embedded: { articles: rows(count) }, total: count }));
  const expected = expectedText(count);
  return {
    contentType: response.headers.get('content-type'),
    equal: sameBytes(bytes, expected),
    streamEqual: sameBytes(streamed.bytes, expected),
    length: text.length,
    expectedLength: expected.length,
    chunks,
  };
}

/** Registers the Service Worker, waits until it controls the page, then reads its StreamedJsonResponse. */
async function viaServiceWorker({ count, id }) {
  await navigator.serviceWorker.register('/page/sw.js', { type: 'module', scope: '/page/' });
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
    );
  }
  const response = await fetch(`/page/sw-rows?count=${count}&id=${id}`);
  const { bytes, text, chunks } = await readAll(response.body, () => fetch(`/mark?id=${id}`, { method: 'POST' }));
  const expected = expectedText(count);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    equal: sameBytes(bytes, expected),
    length: text.length,
    expectedLength: expected.length,
    chunks,
  };
}

/**
 * Cancels a stringifyStream after its first chunk: the source generator must be closed (its finally block runs)
 * and no more rows pulled than one chunk needed.
 */
async function cancelStringify({ count }) {
  let pulled = 0;
  let closed = false;
  async function* source() {
    try {
      for (let id = 1; id <= count; id++) {
        pulled++;
        yield { id, text: 'x'.repeat(100) };
      }
    } finally {
      closed = true;
    }
  }
  const reader = stringifyStream({ rows: source() }).getReader();
  const first = await reader.read();
  await reader.cancel();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const pulledAtCancel = pulled;
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { firstChunk: first.value?.length ?? 0, closed, pulledAtCancel, pulledLater: pulled };
}

window.sluiceEncoderTest = { inPage, viaServiceWorker, cancelStringify };
window.sluiceReady = true;
