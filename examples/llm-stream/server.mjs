#!/usr/bin/env node
// Serves the llm-stream example on 127.0.0.1: the page, this repository's build of sluice (as /sluice/, which the
// page's import map names 'sluice'), and /v1/chat/completions, which streams a tool call the way model APIs do:
// server-sent events whose deltas carry the call's JSON arguments 3 to 6 characters at a time.
// Usage: node examples/llm-stream/server.mjs [--port N] [--rate TOKENS/S] [--days N] [--exit-after SECONDS]
//   --rate 0 sends as fast as possible; --exit-after stops the server by itself (the smoke test uses it).
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { itinerary, tokens } from './itinerary.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const USAGE =
  'usage: node examples/llm-stream/server.mjs [--port N] [--rate TOKENS/S] [--days N] [--exit-after SECONDS]';
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
};

function parseArgs(argv) {
  const options = { port: 8080, rate: 60, days: 5, 'exit-after': 0 };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]?.replace(/^--/, '');
    const value = Number(argv[i + 1]);
    if (!(name in options) || !Number.isFinite(value) || value < 0) {
      console.error(`${USAGE}\nunexpected: ${argv.slice(i, i + 2).join(' ')}`);
      process.exit(2);
    }
    options[name] = value;
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));
const argumentsText = itinerary(options.days);

function sendFile(res, file) {
  let size;
  try {
    size = statSync(file).size;
  } catch {
    res.writeHead(404).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': size });
  createReadStream(file).pipe(res);
}

/** One chunk of a streamed chat completion, as OpenAI-style APIs send them. */
function chunk(delta, finish = null) {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-example',
    object: 'chat.completion.chunk',
    model: 'example',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;
}

async function streamToolCall(req, res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  let closed = false;
  req.on('close', () => {
    closed = true;
  });
  res.write(
    chunk({
      role: 'assistant',
      tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'create_itinerary', arguments: '' } }],
    }),
  );
  const started = performance.now();
  let sent = 0;
  for (const token of tokens(argumentsText)) {
    if (closed) return;
    res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: token } }] }));
    sent++;
    const due = options.rate > 0 ? (sent / options.rate) * 1000 - (performance.now() - started) : 0;
    if (due > 1) await new Promise((resolve) => setTimeout(resolve, due));
  }
  res.write(chunk({}, 'tool_calls'));
  res.end('data: [DONE]\n\n');
}

const server = createServer((req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (pathname === '/') return sendFile(res, join(HERE, 'index.html'));
  if (pathname === '/app.js' || pathname === '/sse.js') return sendFile(res, join(HERE, pathname.slice(1)));
  if (pathname === '/v1/chat/completions') return void streamToolCall(req, res).catch(() => res.destroy());
  // The whole arguments at once: what the stream adds up to (the smoke test compares).
  if (pathname === '/arguments.json')
    return void res.writeHead(200, { 'content-type': 'application/json' }).end(argumentsText);
  if (pathname.startsWith('/sluice/') && !pathname.includes('..')) return sendFile(res, join(DIST, pathname.slice(8)));
  if (pathname === '/favicon.ico') return void res.writeHead(204).end();
  res.writeHead(404).end('not found');
});
server.listen(options.port, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(
    `llm-stream: http://127.0.0.1:${port}/ (${tokens(argumentsText).length} deltas at ` +
      `${options.rate > 0 ? `${options.rate} per second` : 'full speed'}; Ctrl-C stops)`,
  );
});
if (options['exit-after'] > 0) {
  setTimeout(() => {
    console.log('llm-stream: --exit-after reached, stopping');
    process.exit(0);
  }, options['exit-after'] * 1000).unref();
}
