// One worker in its own workerd process, measured from /proc and its inspector; the upstream's body stays in Node.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { sendPaced } from '../harness/bench_server.mjs';
import { cpuMsOf, statusBytes } from '../harness/proc_rss.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');
const SAMPLE_MS = 100;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const cpuSeconds = (pid) => cpuMsOf(pid) / 1000;
export const memoryMb = (pid, key) => statusBytes(pid, key) / 2 ** 20;
const mib = (bytes) => bytes / 2 ** 20;

const freePort = () =>
  new Promise((resolve) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** The worker bundled into `dir`, its `.wasm?module` imports copied beside it. */
async function bundle(entry, dir) {
  const wasm = new Set();
  const wasmModules = (a) => {
    const file = join(a.resolveDir, a.path.replace(/\?module$/, ''));
    wasm.add(file);
    return { path: basename(file), external: true };
  };
  await build({
    entryPoints: [join(HERE, entry)],
    outfile: join(dir, 'worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    alias: { sluice: join(ROOT, 'dist', 'edge.js') },
    nodePaths: [join(HERE, 'node_modules')],
    logLevel: 'error',
    plugins: [{ name: 'wasm-module', setup: (b) => b.onResolve({ filter: /\.wasm\?module$/ }, wasmModules) }],
  });
  for (const file of wasm) copyFileSync(file, join(dir, basename(file)));
  return [...wasm].map((file) => basename(file));
}

async function until(ready, what) {
  for (let attempt = 0; !(await ready()); attempt++) {
    if (attempt > 300) throw new Error(`workerd: ${what} not ready after 30 s`);
    await sleep(100);
  }
}

const listening = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket.end() && true));
    socket.on('error', () => resolve(false));
  });

async function inspect(port) {
  let target;
  // The list is empty until the worker's isolate is registered.
  const list = async () => (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json())[0];
  await until(async () => (target = await list().catch(() => undefined)) !== undefined, 'inspector');
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('error', reject);
  });
  let id = 0;
  let answer; // of the one request in flight, request `id`; a late answer to an earlier one is dropped
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    if (message.id === id) answer(message.result);
  });
  // Answered between the worker's turns: a long synchronous turn delays it, so the sampler waits 1 s at most.
  const heap = () =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, 1000);
      answer = (r) => {
        clearTimeout(timer);
        resolve(r && { heapUsed: mib(r.usedSize), heapTotal: mib(r.totalSize), backing: mib(r.backingStorageSize) });
      };
      ws.send(JSON.stringify({ id: ++id, method: 'Runtime.getHeapUsage' }));
    });
  return { heap, close: () => ws.close() };
}

export async function startWorker(entry, upstreamPort, { v8Flags = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-edge-'));
  const wasm = await bundle(entry, dir);
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const modules = [
    '(name = "worker.js", esModule = embed "worker.js")',
    ...wasm.map((n) => `(name = "${n}", wasm = embed "${n}")`),
  ];
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  v8Flags = [${v8Flags.map((flag) => JSON.stringify(flag)).join(', ')}],
  services = [
    (name = "main", worker = (modules = [${modules.join(', ')}], compatibilityDate = "2025-09-01",
      bindings = [(name = "UPSTREAM", service = "upstream")])),
    (name = "upstream", external = (address = "127.0.0.1:${upstreamPort}", http = ())),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
`,
  );
  // The binary itself (node_modules/.bin/workerd is the ELF, no wrapper), so /proc/<pid> is workerd's alone.
  const args = ['serve', 'config.capnp', `--inspector-addr=127.0.0.1:${inspectorPort}`];
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'workerd'), args, { cwd: dir, stdio: 'inherit' });
  let inspector;
  const stop = () => {
    inspector?.close();
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(() => listening(port), 'socket');
    inspector = await inspect(inspectorPort);
    return { pid: child.pid, port, inspector, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** One request, the V8 heap sampled during it; past `capCpu` seconds of CPU it is abandoned: { capped }. */
export async function request({ pid, port, inspector }, { capCpu = Number.POSITIVE_INFINITY } = {}) {
  const cpu0 = cpuSeconds(pid);
  const start = performance.now();
  const abort = new AbortController();
  const peak = { heapUsed: 0, heapTotal: 0, backing: 0 };
  let capped = false;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      if (cpuSeconds(pid) - cpu0 > capCpu) {
        capped = true;
        abort.abort();
      }
      const heap = (await inspector.heap()) ?? peak;
      for (const key in peak) peak[key] = Math.max(peak[key], heap[key]);
      await sleep(SAMPLE_MS);
    }
  })();
  let first;
  let lines = 0;
  let bytes = 0;
  try {
    const response = await fetch(`http://127.0.0.1:${port}/`, { signal: abort.signal });
    for await (const chunk of response.body) {
      first ??= performance.now() - start;
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines += 1;
    }
  } catch (error) {
    if (!capped) throw error;
  } finally {
    sampling = false;
    await sampler;
  }
  return { cpu: cpuSeconds(pid) - cpu0, ttfb: first, total: performance.now() - start, bytes, lines, capped, ...peak };
}

export function makeBody(bytes) {
  const parts = [];
  let text = '[';
  let size = 2;
  let id = 0;
  for (; size < bytes; ++id) {
    const row = JSON.stringify({
      id,
      name: `user ${id}`,
      email: `user${id}@example.com`,
      tags: ['alpha', 'beta', id % 7 === 0 ? 'caf\u00e9' : 'gamma'],
      score: id * 0.25,
      active: id % 2 === 0,
      address: { city: 'Z\u00fcrich', zip: String(8000 + (id % 100)) },
    });
    text += id === 0 ? row : `,${row}`;
    size += row.length + 1;
    // Rows are joined into Buffers of about 1 MB: no string near V8's length limit.
    if (text.length >= 1 << 20) {
      parts.push(Buffer.from(text));
      text = '';
    }
  }
  parts.push(Buffer.from(`${text}]`));
  return { body: Buffer.concat(parts), rows: id };
}

/** The upstream server: `body` sent to every request; `sent`, the bytes written of the last one. */
export async function startUpstream() {
  const upstream = { body: Buffer.alloc(0), sent: 0 };
  const server = createServer((_req, res) => {
    upstream.sent = 0;
    sendPaced(res, upstream.body, 0, (end) => (upstream.sent = end)).catch(() => res.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.port = server.address().port;
  upstream.close = () => new Promise((resolve) => server.close(resolve));
  return upstream;
}
