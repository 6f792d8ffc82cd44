// A Deno HTTP server answering /articles?count=N with a StreamedJsonResponse of N articles from an async
// generator (where a database cursor would be): the client gets bytes as rows are produced.
//   deno run --allow-net serve.ts [PORT]        (default 8000; 0 picks a free port)
import { StreamedJsonResponse } from 'sluice';

async function* articles(count: number) {
  for (let id = 1; id <= count; id++) {
    yield {
      id,
      title: `Article ${id}`,
      createdAt: new Date(Date.UTC(2024, 0, 1) + id * 60_000),
      tags: ['deno', id % 7],
    };
  }
}

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.args[0] ?? 8000),
    onListen: ({ port }) => console.log(`deno serve: http://127.0.0.1:${port}/articles?count=1000`),
  },
  (request) => {
    const url = new URL(request.url);
    if (url.pathname !== '/articles') return new Response('route: /articles?count=N\n', { status: 404 });
    const count = Math.min(Number(url.searchParams.get('count') ?? 1000) || 0, 10_000_000);
    return new StreamedJsonResponse({ _embedded: { articles: articles(count) }, total: count });
  },
);
