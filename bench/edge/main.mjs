// npm run bench:edge: one worker with sluice, @streamparser/json(-whatwg) or passing bytes through, in workerd.
// Each in its own workerd process, measured from /proc and its inspector; the upstream's body stays in Node.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import os from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { sendPaced } from '../harness/bench_server.mjs';
import { integer, list, number, readFlags, text } from '../harness/cli.mjs';
import { packageVersion } from '../harness/environment.mjs';
import { cpuMsOf, statusBytes } from '../harness/proc_rss.mjs';
import { writeResults } from '../harness/save.mjs';
import { mdTable, upperMedian as median } from '../harness/stats.mjs';

if (typeof WebSocket === 'undefined') {
  // Node 20: the inspector's client needs the WebSocket global.
  const r = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const WHATWG = '@streamparser/json-whatwg';
const ENTRIES = {
  passthrough: 'worker_passthrough.js',
  sluice: 'worker_sluice.js',
  [WHATWG]: 'worker_streamparser.js',
  '@streamparser/json': 'worker_streamparser_core.js',
};
const options = readFlags(
  `usage: npm run bench:edge -- [options]   (about 3 min at the defaults; needs dist/ built)
  --sizes MB          upstream sizes for every worker but json-whatwg (default 25,100,400)
  --whatwg-sizes MB   sizes for @streamparser/json-whatwg, quadratic in the rows (default 1,2,5)
  --capped-mb MB      one more json-whatwg run under the CPU cap, 0 for none (default 100)
  --cap S             the CPU cap in seconds (default 60)
  --runs N            requests per cell; tables show medians (default 1)
  --only NAMES        comma-separated workers: ${Object.keys(ENTRIES).join(', ')}
  --v8-flags FLAGS    workerd's V8 flags, e.g. "--max-old-space-size=16": the live set against what V8 lets pile up`,
  { sizes: [25, 100, 400], whatwgSizes: [1, 2, 5], cappedMb: 100, cap: 60, runs: 1, only: Object.keys(ENTRIES) },
  {
    '--sizes': list('sizes', null, Number),
    '--whatwg-sizes': list('whatwgSizes', null, Number),
    '--capped-mb': number('cappedMb', true),
    '--cap': number('cap'),
    '--runs': integer('runs', 1),
    '--only': list('only', Object.keys(ENTRIES)),
    '--v8-flags': text('v8Flags'),
  },
);
const { sizes: SIZES, whatwgSizes, cappedMb, cap, runs: RUNS, only } = options;
const v8Flags = (options.v8Flags ?? '').split(' ').filter(Boolean);
const names = Object.keys(ENTRIES).filter((name) => only.includes(name));

// Every worker at SIZES; json-whatwg at whatwgSizes (sluice and passthrough too, for the ratio) and at cappedMb.
const sizesOf = (name) => (name === WHATWG ? whatwgSizes.concat(cappedMb || []) : SIZES.concat(whatwgSizes));
const sizes = [...new Set(names.flatMap(sizesOf))].sort((a, b) => a - b);

const find = (name, mb) => results.find((r) => r.name === name && r.mb === mb);
const cpu = (r) => median(r.runs.map((x) => x.cpu));
const f0 = (v) => v.toFixed(0);
const cpuCell = (r, last) => {
  const sluice = find('sluice', r.mb);
  const against =
    ['sluice', 'passthrough'].includes(r.name) || !sluice ? '' : ` (${(cpu(r) / cpu(sluice)).toFixed(1)}x)`;
  if (!last.capped) return `${cpu(r).toFixed(2)} s${against}`;
  return (
    `did not finish: stopped at ${cap} s of CPU, after ${last.upstreamMb.toFixed(1)} MB of ` +
    `${f0(r.bytes / 1e6)} MB read (${last.lines} of ${r.rows} rows written)`
  );
};
const ttfbCell = (r) => (r.runs[0].ttfb === undefined ? '' : `${f0(median(r.runs.map((x) => x.ttfb)))} ms`);
const memoryCell = (r, last) =>
  `${f0(r.hwm)} MB (${f0(r.idle)}); heap ${f0(last.heapUsed)} / ${f0(last.heapTotal)} MB, buffers ${f0(last.backing)} MB`;

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');
const SAMPLE_MS = 100;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const cpuSeconds = (pid) => cpuMsOf(pid) / 1000;
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

async function startWorker(entry, upstreamPort, { v8Flags = [] } = {}) {
  const dir = mkdtempSync(join(os.tmpdir(), 'sluice-bench-edge-'));
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
async function request({ pid, port, inspector }, { capCpu = Number.POSITIVE_INFINITY } = {}) {
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

function makeBody(bytes) {
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
async function startUpstream() {
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

const upstream = await startUpstream();
const results = []; // { name, mb, rows, bytes, runs, idle, hwm }
const started = performance.now();
try {
  for (const mb of sizes) {
    const { body, rows } = makeBody(mb * 1e6);
    upstream.body = body;
    for (const name of names.filter((n) => sizesOf(n).includes(mb))) {
      const worker = await startWorker(ENTRIES[name], upstream.port, { v8Flags });
      try {
        const idle = mib(statusBytes(worker.pid, 'VmRSS'));
        const runs = [];
        for (let run = 0; run < (name === WHATWG && mb === cappedMb ? 1 : RUNS); ++run) {
          const r = await request(worker, { capCpu: name === WHATWG ? cap : Number.POSITIVE_INFINITY });
          r.upstreamMb = upstream.sent / 1e6;
          const expected = name === 'passthrough' ? r.bytes === body.length : r.lines === rows;
          if (!r.capped && !expected) throw new Error(`${name} at ${mb} MB: ${r.lines} lines, ${r.bytes} bytes`);
          runs.push(r);
          if (r.capped) break;
        }
        const result = { name, mb, rows, bytes: body.length, runs, idle, hwm: mib(statusBytes(worker.pid, 'VmHWM')) };
        results.push(result);
        const cells = [cpuCell, ttfbCell, memoryCell].map((cell) => cell(result, runs.at(-1)));
        console.log(`${name} ${mb} MB: CPU ${cells[0]}; TTFB ${cells[1]}; peak RSS ${cells[2]}`);
      } finally {
        worker.stop();
      }
    }
  }
} finally {
  await upstream.close();
}

const section = (title, format) => {
  const cell = (r) => (r ? format(r, r.runs.at(-1)) : '');
  const rows = sizes.map((mb) => [`${mb} MB`, ...names.map((n) => cell(find(n, mb)))]);
  return ['', title, '', ...mdTable(['upstream', ...names], rows, '---')];
};
const flags = v8Flags.length ? ` --v8-flags '${v8Flags.join(' ')}'` : '';
const subset = names.length < Object.keys(ENTRIES).length ? ` --only ${names.join(',')}` : '';
const command =
  `npm run bench:edge -- --sizes ${SIZES.join(',')} --whatwg-sizes ${whatwgSizes.join(',')} --capped-mb ` +
  `${cappedMb} --cap ${cap} --runs ${RUNS}${flags}${subset}`;
const load = os.loadavg()[0].toFixed(1);
const edgePeer = (name) => packageVersion(`../edge/node_modules/${name}`);
const table = [
  `workerd ${packageVersion('../../node_modules/workerd')}, ${WHATWG} ${edgePeer(WHATWG)} ` +
    `(over @streamparser/json 0.0.22), @streamparser/json ${edgePeer('@streamparser/json')}; ` +
    `${RUNS === 1 ? 'one request' : `median of ${RUNS} requests`} per cell (the first includes compiling the worker), ` +
    `load average ${load} at the end, ${((performance.now() - started) / 60000).toFixed(1)} min. \`${command}\`.`,
  ...section("CPU per request (against sluice's at the same size):", cpuCell),
  ...section('Time to first byte:', ttfbCell),
  ...section(
    "workerd peak RSS (VmHWM; idle before the request), and the V8 heap's peak during the request, used / reserved " +
      '(ArrayBuffers outside it: the peak of their backing stores):',
    memoryCell,
  ),
].join('\n');
console.log(`\n${table}`);
// docs/benchmarks.md's "At the edge" shows both; a run with V8 flags is the memory experiment beside the default one.
const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '');
writeResults('edge', {
  [v8Flags.length ? 'table-v8-flags.md' : 'table.md']: `${table}\n`,
  [`edge-${stamp}.json`]: JSON.stringify({ command, load, results }, null, 1),
});
