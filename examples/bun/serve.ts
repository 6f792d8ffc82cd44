// A Bun HTTP server answering /articles?count=N with a StreamedJsonResponse of N articles from an async
// generator (where a database cursor would be): the client gets bytes as rows are produced.
//   bun serve.ts [PORT]        (default 3000; 0 picks a free port)
import { StreamedJsonResponse } from 'sluice';

async function* articles(count: number) {
  for (let id = 1; id <= count; id++) {
    yield {
      id,
      title: `Article ${id}`,
      createdAt: new Date(Date.UTC(2024, 0, 1) + id * 60_000),
      tags: ['bun', id % 7],
    };
  }
}

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.argv[2] ?? 3000),
  fetch(request) {
    const url = new URL(request.url);
    if (url.pathname !== '/articles') return new Response('route: /articles?count=N\n', { status: 404 });
    const count = Math.min(Number(url.searchParams.get('count') ?? 1000) || 0, 10_000_000);
    return new StreamedJsonResponse({ _embedded: { articles: articles(count) }, total: count });
  },
});
console.log(`bun serve: http://127.0.0.1:${server.port}/articles?count=1000`);
