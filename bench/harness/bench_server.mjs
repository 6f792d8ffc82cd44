// The matrix's HTTP server on 127.0.0.1: the datasets whole (/data/SIZE.json) and paced (/paced/SIZE.json), bench/'s
// modules (/bench/), dist/ (/dist/) and @streamparser/json bundled (/streamparser.js).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const BENCH = fileURLToPath(new URL('../', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const JS = 'text/javascript';
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': JS, '.mjs': JS, '.wasm': 'application/wasm' };
const WRITE_BYTES = 64 * 1024;
// Cross-origin isolation: pages then get performance.now() at full resolution (Firefox and WebKit round it to
// 1 ms otherwise). Everything the pages load comes from this origin, so nothing is blocked.
const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const HEADERS = { 'cache-control': 'no-store', ...ISOLATED };

function sendFile(res, file) {
  let body;
  try {
    body = readFileSync(file);
  } catch {
    return void res.writeHead(404).end('not found');
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  res.writeHead(200, { 'content-type': type, 'content-length': body.length, ...HEADERS }).end(body);
}

function under(dir, relative) {
  const file = normalize(join(dir, relative));
  return file.startsWith(normalize(dir + sep)) ? file : null;
}

/** `bytes` in 64 KiB writes under backpressure, each when the rate says (0: no pacing); also bench:edge's upstream. */
export async function sendPaced(res, bytes, paceMBps, onWrite = () => {}) {
  let gone = false;
  const closed = new Promise((resolve) =>
    res.once('close', () => {
      gone = true;
      resolve();
    }),
  );
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length, ...HEADERS });
  const started = performance.now();
  for (let at = 0; at < bytes.length && !gone; at += WRITE_BYTES) {
    if (paceMBps > 0) {
      const wait = started + at / (paceMBps * 1e3) - performance.now();
      if (wait >= 1) await sleep(wait);
    }
    const more = res.write(bytes.subarray(at, at + WRITE_BYTES));
    onWrite(Math.min(at + WRITE_BYTES, bytes.length));
    if (!more && !gone) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
  }
  if (!gone) res.end();
}

/** `datasets`: size -> { file }; resolves to `{ origin, close() }`. Bodies are held in memory: no disk pace. */
export async function startBenchServer(datasets, { paceMBps, streamparser = true }) {
  const entryPoints = [join(BENCH, 'node_modules/@streamparser/json/dist/mjs/index.js')];
  const bundle = { entryPoints, bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' };
  const streamparserModule = streamparser ? (await build(bundle)).outputFiles[0].contents : null;
  const bodies = new Map();
  const body = (size) => bodies.get(size) ?? bodies.set(size, readFileSync(datasets[size].file)).get(size);
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
    const data = /^\/(data|paced)\/(\w+)\.json$/.exec(pathname);
    if (data && datasets[data[2]]) {
      return void sendPaced(res, body(data[2]), data[1] === 'paced' ? paceMBps : 0).catch(() => res.destroy());
    }
    const code = /\.(mjs|js|html)$/.test(pathname) && !pathname.includes('node_modules');
    const file = pathname.startsWith('/bench/')
      ? code && under(BENCH, pathname.slice('/bench/'.length))
      : pathname.startsWith('/dist/') && under(join(ROOT, 'dist'), pathname.slice('/dist/'.length));
    if (file) return sendFile(res, file);
    if (pathname === '/streamparser.js' && streamparserModule) {
      return void res.writeHead(200, { 'content-type': JS, ...ISOLATED }).end(streamparserModule);
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
