// The proxy of proxy.js written with the encoder: `{"articles":[...]}` from the upstream's
// `{"_embedded":{"articles":[...]}}`, each article passed through byte for byte by stringifyStream (the iterator of
// parseJsonArray(..., { output: 'bytes' }) is written as raw JSON, never parsed into objects).
import { init, parseJsonArray, stringifyStream } from 'sluice';
import wasm from 'sluice/sluice.simd.wasm';

export default {
  async fetch(_request, env) {
    await init(wasm);
    const upstream = await env.UPSTREAM.fetch('http://upstream/articles');
    if (!upstream.ok) return new Response(`upstream answered ${upstream.status}`, { status: 502 });
    const articles = parseJsonArray(upstream.body, { path: '$._embedded.articles[*]', output: 'bytes' });
    return new Response(stringifyStream({ articles }), {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  },
};
