// The check of a server route written like nextjs/app/handler.js: GET `url`, expect 200 JSON with the runtime's
// name, lib/usage.mjs's result (`checked`) and the ITEMS upstream elements reshaped by parseJsonArray (`items`).
export const ITEMS = 3000;
const expected = JSON.stringify(Array.from({ length: ITEMS }, (_, i) => ({ id: i, tag: i % 7 })));

/** Resolves with a one-line summary, or throws with the reply (its first 2000 characters). */
export async function checkRoute(url, runtime) {
  const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text.slice(0, 2000)}`);
  if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) {
    throw new Error(`content-type ${response.headers.get('content-type')}: ${text.slice(0, 2000)}`);
  }
  const body = JSON.parse(text);
  if (body.runtime !== runtime || body.checked?.ok !== true) throw new Error(`unexpected reply ${text.slice(0, 2000)}`);
  if (JSON.stringify(body.items) !== expected) {
    throw new Error(`items differ: ${body.items?.length} items, the first ${JSON.stringify(body.items?.[0])}`);
  }
  return `${body.items.length} items, ${JSON.stringify(body.checked)}`;
}
