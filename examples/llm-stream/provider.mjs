// The llm-stream example's mock provider and static files, on 127.0.0.1:
//   POST /v1/chat/completions  a streamed Chat Completions answer: a create_itinerary tool call whose JSON
//                              arguments arrive 3 to 6 characters a delta (itinerary.mjs), `rate` deltas a second.
//                              The prompt picks the call: "N days" (default 5); "late-night" adds a time the
//                              schema refuses.
//   GET /arguments.json?prompt=  the whole arguments that prompt gets (what the stream adds up to; the test compares)
//   POST /release, GET /held   with `holdLast`, sends the last delta of every held stream (the test's gate);
//                              how many streams are held (a stream whose client left is not)
//   GET /, /app.js, /changes.js  the page
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { itinerary, tokens } from './itinerary.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const PAGE = ['/app.js', '/changes.js'];
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript' };

function sendFile(res, file) {
  res.writeHead(200, { 'content-type': TYPES[extname(file)], 'content-length': statSync(file).size });
  createReadStream(file).pipe(res);
}

/** The arguments a prompt gets. */
export function argumentsFor(prompt) {
  const days = Number(/(\d+)[- ]?days?\b/i.exec(prompt)?.[1] ?? 5);
  return itinerary(Math.min(Math.max(days, 1), 50), { lateNight: /late[- ]night/i.test(prompt) });
}

/** One chunk of a streamed chat completion, as the Chat Completions API sends them. */
function chunk(delta, finish = null) {
  const choices = [{ index: 0, delta, finish_reason: finish }];
  return `data: ${JSON.stringify({ id: 'chatcmpl-example', object: 'chat.completion.chunk', model: 'mock', choices })}\n\n`;
}

async function readJson(req) {
  let text = '';
  for await (const piece of req) text += piece;
  return JSON.parse(text);
}

/**
 * Starts the provider; resolves with its origin and close(). `rate`: deltas a second (0: as fast as possible);
 * `holdLast`: each stream waits before its last delta until POST /release.
 */
export function startProvider({ port = 0, rate = 60, holdLast = false } = {}) {
  const held = new Set();
  async function stream(req, res) {
    const request = await readJson(req);
    const prompt = request.messages?.at(-1)?.content ?? '';
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    let closed = false;
    let release;
    res.on('close', () => {
      closed = true;
      release?.();
    });
    const call = { index: 0, id: 'call_1', type: 'function', function: { name: 'create_itinerary', arguments: '' } };
    res.write(chunk({ role: 'assistant', tool_calls: [call] }));
    const deltas = tokens(argumentsFor(prompt));
    const started = performance.now();
    for (let i = 0; i < deltas.length; i++) {
      if (i === deltas.length - 1 && holdLast) {
        await new Promise((resolve) => held.add((release = resolve)));
        held.delete(release);
      }
      if (closed) return;
      res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: deltas[i] } }] }));
      const due = rate > 0 ? ((i + 1) / rate) * 1000 - (performance.now() - started) : 0;
      if (due > 1) await new Promise((resolve) => setTimeout(resolve, due));
    }
    res.write(chunk({}, 'tool_calls'));
    res.end('data: [DONE]\n\n');
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/v1/chat/completions' && req.method === 'POST') {
      return void stream(req, res).catch(() => res.destroy());
    }
    if (url.pathname === '/release' && req.method === 'POST') {
      const count = held.size;
      for (const release of held) release();
      held.clear();
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ released: count }));
    }
    if (url.pathname === '/held') {
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ held: held.size }));
    }
    if (url.pathname === '/arguments.json') {
      const text = argumentsFor(url.searchParams.get('prompt') ?? '');
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    }
    if (url.pathname === '/') return sendFile(res, join(HERE, 'index.html'));
    if (PAGE.includes(url.pathname)) return sendFile(res, join(HERE, url.pathname.slice(1)));
    res.writeHead(url.pathname === '/favicon.ico' ? 204 : 404).end();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        close: () => {
          for (const release of held) release();
          server.closeAllConnections();
          server.close();
        },
      });
    });
  });
}
