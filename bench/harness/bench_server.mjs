// The benchmarks' HTTP server on 127.0.0.1: the datasets whole at full speed (/data/SIZE.json: a page reads one
// into memory before anything is timed) and paced (/paced/SIZE.json: 64 KiB writes at a fixed rate, the http
// mode's response), the benchmark's own modules (/bench/...: the pages import the competitors from there), the
// built package (/dist/) and @streamparser/json bundled with esbuild as a web app would ship it (/streamparser.js).
import { readFileSync, statSync, createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const BENCH = fileURLToPath(new URL('../', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};
const WRITE_BYTES = 64 * 1024;
// Cross-origin isolation: pages then get performance.now() at full resolution (Firefox and WebKit round it to
// 1 ms otherwise). Everything the pages load comes from this origin, so nothing is blocked.
const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @streamparser/json's browser entry, bundled into one ES module. */
async function bundleStreamparser() {
  const out = await build({
    entryPoints: [join(BENCH, 'node_modules/@streamparser/json/dist/mjs/index.js')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
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
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': size,
    'cache-control': 'no-store',
    ...ISOLATED,
  });
  createReadStream(file).pipe(res);
}

/** `relative` under `dir`, or null when it would leave it. */
function under(dir, relative) {
  const file = normalize(join(dir, relative));
  return file.startsWith(normalize(dir + sep)) ? file : null;
}

/**
 * Writes `bytes` in 64 KiB writes, each at the time the rate says (from the start, so timer lateness does not
 * accumulate), waiting for 'drain' when the socket is full; stops when the client goes away.
 */
async function sendPaced(res, bytes, paceMBps) {
  let gone = false;
  const closed = new Promise((resolve) =>
    res.once('close', () => {
      gone = true;
      resolve();
    }),
  );
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': bytes.length,
    'cache-control': 'no-store',
    ...ISOLATED,
  });
  const started = performance.now();
  for (let at = 0; at < bytes.length && !gone; at += WRITE_BYTES) {
    if (paceMBps > 0) {
      const wait = started + at / (paceMBps * 1e3) - performance.now();
      if (wait >= 1) await sleep(wait);
    }
    if (!res.write(bytes.subarray(at, at + WRITE_BYTES)) && !gone) {
      await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
    }
  }
  if (!gone) res.end();
}

/**
 * `datasets`: size -> { file }. Resolves to `{ origin, close() }` once listening. The paced bodies are read into
 * memory once, so that the disk never sets their pace.
 */
export async function startBenchServer(datasets, { paceMBps, streamparser = true }) {
  const streamparserModule = streamparser ? await bundleStreamparser() : null;
  const bodies = new Map();
  const body = (size) => {
    if (!bodies.has(size)) bodies.set(size, readFileSync(datasets[size].file));
    return bodies.get(size);
  };
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
    const data = /^\/(data|paced)\/(\w+)\.json$/.exec(pathname);
    if (data && datasets[data[2]]) {
      if (data[1] === 'data') return sendFile(res, datasets[data[2]].file);
      return void sendPaced(res, body(data[2]), paceMBps).catch(() => res.destroy());
    }
    if (pathname.startsWith('/bench/') && /\.(mjs|js|html)$/.test(pathname) && !pathname.includes('node_modules')) {
      const file = under(BENCH, pathname.slice('/bench/'.length));
      if (file) return sendFile(res, file);
    }
    if (pathname.startsWith('/dist/')) {
      const file = under(join(ROOT, 'dist'), pathname.slice('/dist/'.length));
      if (file) return sendFile(res, file);
    }
    if (pathname === '/streamparser.js' && streamparserModule) {
      return void res.writeHead(200, { 'content-type': 'text/javascript', ...ISOLATED }).end(streamparserModule);
    }
    if (pathname === '/favicon.ico') return void res.writeHead(204).end();
    res.writeHead(404).end('not found');
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
