// A Cloudflare Worker with sluice: two routes.
//   /articles?count=N  a StreamedJsonResponse of N articles from an async generator (a stand-in for a database
//                      cursor): the client gets bytes as rows are produced, and the cursor closes if it leaves.
//   /reshape?url=URL   fetches a big JSON API (`{"_embedded":{"articles":[...]}}`) and answers `{"articles":[...]}`,
//                      each article passed through byte for byte (output: 'bytes': never parsed into JS objects).
// Workers refuse to compile WebAssembly from bytes: the package's `workerd` entry imports its .wasm as a module
// (wrangler and workerd hand over a compiled WebAssembly.Module), so nothing here names it.
import { parseJsonArray, StreamedJsonResponse } from 'sluice';

/** Rows as a database cursor yields them; `finally` is where a real one would close. */
async function* articles(count) {
  try {
    for (let id = 1; id <= count; id++) {
      yield {
        id,
        title: `Article ${id}`,
        createdAt: new Date(Date.UTC(2024, 0, 1) + id * 60_000).toISOString(),
        score: id % 100,
      };
    }
  } finally {
    console.log(`articles: cursor closed`);
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/articles') {
      const count = Math.min(Number(url.searchParams.get('count') ?? 100_000) || 0, 10_000_000);
      return new StreamedJsonResponse({ _embedded: { articles: articles(count) }, total: count });
    }
    if (url.pathname === '/reshape') {
      const upstream = await fetch(url.searchParams.get('url') ?? env.UPSTREAM_URL);
      if (!upstream.ok) return new Response(`upstream answered ${upstream.status}`, { status: 502 });
      const elements = parseJsonArray(upstream.body, { path: '$._embedded.articles[*]', output: 'bytes' });
      return new StreamedJsonResponse({ articles: elements });
    }
    return new Response('routes: /articles?count=N, /reshape?url=URL\n', { status: 404 });
  },
};
