// The matrix's HTTP server on 127.0.0.1: the datasets whole and paced, bench/'s modules, dist/, @streamparser/json.
import { readFile, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const JS = 'text/javascript';
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': JS, '.mjs': JS, '.wasm': 'application/wasm' };
const WRITE_BYTES = 64 * 1024;
// Cross-origin isolated (all is from this origin): performance.now() not rounded to 1 ms in Firefox and WebKit.
const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

const HEADERS = { 'cache-control': 'no-store', ...ISOLATED };

const sendFile = (res, file) =>
  readFile(file, (error, body) => {
    if (error) return void res.writeHead(404).end('not found');
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'content-length': body.length, ...HEADERS }).end(body);
  });

/** `bytes` in 64 KiB writes under backpressure, each when the rate says (0: no pacing); also bench:edge's upstream. */
export async function sendPaced(res, bytes, paceMBps, onWrite = () => {}) {
  let gone = false;
  const closed = new Promise((resolve) => res.once('close', resolve)).then(() => (gone = true));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length, ...HEADERS });
  const started = performance.now();
  for (let at = 0; at < bytes.length && !gone; at += WRITE_BYTES) {
    if (paceMBps > 0) {
      const wait = started + at / (paceMBps * 1e3) - performance.now();
      if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const more = res.write(bytes.subarray(at, at + WRITE_BYTES));
    onWrite(Math.min(at + WRITE_BYTES, bytes.length));
    if (!more && !gone) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
  }
  if (!gone) res.end();
}

/** `datasets`: size -> { file }; resolves to `{ origin, close() }`. Bodies are held in memory: no disk pace. */
export async function startBenchServer(datasets, { paceMBps, streamparser = true }) {
  const entryPoints = [join(ROOT, 'bench/node_modules/@streamparser/json/dist/mjs/index.js')];
  const bundle = { entryPoints, bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' };
  const streamparserModule = streamparser ? (await build(bundle)).outputFiles[0].contents : null;
  const bodies = new Map();
  const body = (size) => bodies.get(size) ?? bodies.set(size, readFileSync(datasets[size].file)).get(size);
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
    const data = /^\/(data|paced)\/(\w+)\.json$/.exec(pathname);
    if (data && datasets[data[2]])
      return void sendPaced(res, body(data[2]), data[1] === 'paced' ? paceMBps : 0).catch(() => res.destroy());
    // The URL parser has resolved every `..`: the path stays under bench/ or dist/.
    const code = /^\/bench\/.*\.(mjs|js|html)$/.test(pathname) && !pathname.includes('node_modules');
    if (code || pathname.startsWith('/dist/')) return sendFile(res, join(ROOT, pathname));
    if (pathname === '/streamparser.js' && streamparserModule)
      return void res.writeHead(200, { 'content-type': JS, ...ISOLATED }).end(streamparserModule);
    if (pathname === '/favicon.ico') return void res.writeHead(204).end();
    res.writeHead(404).end('not found');
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
