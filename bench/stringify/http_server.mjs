// The HTTP run's server, a process of its own (its RSS is its own): sluice's StreamedJsonResponse or JSON.stringify.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { articleAsyncGenerator, preparePool } from '../articles.mjs';

const { impl, count } = JSON.parse(process.argv[2]);
preparePool();
const { StreamedJsonResponse } = await import(new URL('../../dist/encode/index.js', import.meta.url).href);

/** What a Node adapter of an edge framework does with a web Response. */
async function sendResponse(res, response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  const reader = response.body.getReader();
  const gone = () => reader.cancel(new Error('client went away')).catch(() => {});
  res.on('close', gone);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await once(res, 'drain');
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    res.off('close', gone);
  }
}

const documentOf = (articles) => ({ _embedded: { articles }, total: count });
const handlers = {
  sluice: (res) => sendResponse(res, new StreamedJsonResponse(documentOf(articleAsyncGenerator(count)))),
  whole: async (res) => {
    const rows = [];
    for await (const row of articleAsyncGenerator(count)) rows.push(row);
    const body = JSON.stringify(documentOf(rows));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(body);
  },
};

const server = createServer((_req, res) => handlers[impl](res).catch((error) => res.destroy(error)));
server.keepAliveTimeout = 60_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

globalThis.gc();
process.send({ port: server.address().port });
