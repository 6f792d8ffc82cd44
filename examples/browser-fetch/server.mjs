#!/usr/bin/env node
// Serves the browser-fetch example on 127.0.0.1: the page, this repository's build of sluice (as /sluice/, which
// the page's import map names 'sluice'), and a generated articles document sent at a set rate, like a slow API.
// Usage: node examples/browser-fetch/server.mjs [--port N] [--count N] [--rate MB/s]
//   --count: articles in the document (default 250000: about 100 MB); --rate 0 sends as fast as possible.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDataset } from '../../bench/datasets.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const USAGE = 'usage: node examples/browser-fetch/server.mjs [--port N] [--count N] [--rate MB/s]';
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
};

function parseArgs(argv) {
  const options = { port: 8080, count: 250_000, rate: 50 };
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
const dataset = await ensureDataset('articles', options.count, { log: (line) => console.error(line) });
const datasetBytes = statSync(dataset).size;

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

/** 64 KiB reads, throttled to `rate` MB/s: a paced response the page can show arriving. */
async function sendDataset(res) {
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': datasetBytes,
    'cache-control': 'no-store',
  });
  const started = performance.now();
  let sent = 0;
  for await (const chunk of createReadStream(dataset, { highWaterMark: 64 * 1024 })) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    sent += chunk.length;
    const due = options.rate > 0 ? (sent / (options.rate * 1e6)) * 1000 - (performance.now() - started) : 0;
    if (due > 1) await new Promise((resolve) => setTimeout(resolve, due));
  }
  res.end();
}

const server = createServer((req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (pathname === '/') return sendFile(res, join(HERE, 'index.html'));
  if (pathname === '/app.js') return sendFile(res, join(HERE, 'app.js'));
  if (pathname === '/articles.json') return void sendDataset(res).catch(() => res.destroy());
  if (pathname.startsWith('/sluice/') && !pathname.includes('..')) return sendFile(res, join(DIST, pathname.slice(8)));
  if (pathname === '/favicon.ico') return void res.writeHead(204).end();
  res.writeHead(404).end('not found');
});
server.listen(options.port, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(
    `browser-fetch: http://127.0.0.1:${port}/ (${(datasetBytes / 1e6).toFixed(0)} MB at ` +
      `${options.rate > 0 ? `${options.rate} MB/s` : 'full speed'}; Ctrl-C stops)`,
  );
});
