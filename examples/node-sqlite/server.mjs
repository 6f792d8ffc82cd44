#!/usr/bin/env node
// A Node HTTP server streaming rows from a real SQLite database (better-sqlite3, `.iterate()`), three ways:
//   /articles?mode=raw     SQLite's json_object() builds each row's JSON; sluice passes it through with rawJson
//   /articles?mode=object  rows as JS objects, encoded one by one by sluice's stringifyStream
//   /articles?mode=array   the usual way: .all() then one JSON.stringify of everything
// and /stats: this process's peak RSS. Usage: node server.mjs [--port N] [--rows N]
import { createServer } from 'node:http';
import { rawJson, stringifyStream } from 'sluice';
import { openDatabase, statements, toArticle } from './database.mjs';

const USAGE = 'usage: node server.mjs [--port N] [--rows N]';
const options = { port: 8080, rows: 100_000 };
for (let i = 2; i < process.argv.length; i += 2) {
  const name = process.argv[i]?.replace(/^--/, '');
  const value = Number(process.argv[i + 1]);
  if (!(name in options) || !Number.isInteger(value) || value < 0) {
    console.error(USAGE);
    process.exit(2);
  }
  options[name] = value;
}

const db = openDatabase(options.rows);
const sql = statements(db);

async function* rawRows() {
  for (const json of sql.raw.iterate()) yield rawJson(json);
}

function* objectRows() {
  for (const row of sql.object.iterate()) yield toArticle(row);
}

/** Resolves when the socket takes writes again, or is gone. */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** Pipes a web ReadableStream into the response; a client that leaves cancels it (and so closes the cursor). */
async function send(res, stream) {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  const reader = stream.getReader();
  res.once('close', () => {
    if (!res.writableFinished) reader.cancel(new Error('client went away')).catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } catch (error) {
    res.destroy(error);
  }
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024, rssBytes: process.memoryUsage.rss() }),
    );
    return;
  }
  if (url.pathname !== '/articles') {
    res.writeHead(404).end('routes: /articles?mode=raw|object|array, /stats\n');
    return;
  }
  const mode = url.searchParams.get('mode') ?? 'raw';
  const total = sql.count.get();
  if (mode === 'array') {
    const articles = sql.object.all().map(toArticle);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ _embedded: { articles }, total }));
  } else if (mode === 'raw' || mode === 'object') {
    void send(res, stringifyStream({ _embedded: { articles: mode === 'raw' ? rawRows() : objectRows() }, total }));
  } else {
    res.writeHead(400).end(`mode must be raw, object or array, got ${mode}\n`);
  }
});

server.listen(options.port, '127.0.0.1', () => {
  console.log(`node-sqlite: http://127.0.0.1:${server.address().port}/articles?mode=raw (${options.rows} rows)`);
});
