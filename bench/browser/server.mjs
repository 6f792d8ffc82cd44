// The browser benchmark's server on 127.0.0.1: the page, the engine-neutral parse and stringify competitors
// (bench/all/engines, and the article rows they write from bench/stringify/articles.mjs), the
// built package (/dist/), @streamparser/json bundled with esbuild as a web app would ship it, and the datasets at
// full speed (the page reads a whole dataset into memory before anything is timed).
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const BENCH = fileURLToPath(new URL('../', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json' };

/** @streamparser/json's browser entry, bundled into one ES module. */
export async function bundleStreamparser() {
  const out = await build({
    entryPoints: [join(BENCH, 'node_modules/@streamparser/json/dist/mjs/index.js')],
    bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent',
  });
  return out.outputFiles[0].contents;
}

function sendFile(res, file) {
  let size;
  try {
    size = statSync(file).size;
  } catch {
    return void res.writeHead(404).end('not found');
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': size,
    'cache-control': 'no-store' });
  createReadStream(file).pipe(res);
}

/** `datasets`: name -> file. Resolves to `{ origin, close() }` once listening. */
export async function startBenchServer(datasets) {
  const streamparser = await bundleStreamparser();
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
    const under = (prefix, dir) => {
      const rest = normalize(pathname.slice(prefix.length));
      return rest.startsWith('..') ? null : join(dir, rest);
    };
    if (pathname === '/') return sendFile(res, join(BENCH, 'browser/page/index.html'));
    if (pathname === '/runner.js') return sendFile(res, join(BENCH, 'browser/page/runner.js'));
    if (pathname === '/competitors.mjs') return sendFile(res, join(BENCH, 'all/engines/competitors.mjs'));
    if (pathname === '/stringify_competitors.mjs') return sendFile(res, join(BENCH, 'all/engines/stringify_competitors.mjs'));
    // What stringify_competitors.mjs imports as '../../stringify/articles.mjs' (from / that resolves here).
    if (pathname === '/stringify/articles.mjs') return sendFile(res, join(BENCH, 'stringify/articles.mjs'));
    if (pathname === '/streamparser.js') {
      return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(streamparser);
    }
    if (pathname.startsWith('/dist/') && under('/dist/', join(ROOT, 'dist'))) {
      return sendFile(res, under('/dist/', join(ROOT, 'dist')));
    }
    const data = /^\/data\/(\w+)\.json$/.exec(pathname);
    if (data && datasets[data[1]]) return sendFile(res, datasets[data[1]]);
    if (pathname === '/favicon.ico') return void res.writeHead(204).end();
    res.writeHead(404).end('not found');
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
