#!/usr/bin/env node
// The edge claim: the same worker written with sluice and with @streamparser/json-whatwg (what Cloudflare's "Stream
// large JSON" example recommends), in workerd: a 100 MB upstream array (a service binding to a Node server on
// 127.0.0.1) reshaped to NDJSON. Per request: workerd's CPU time (user + system of the process, /proc), time to the
// first byte and to the last; peak memory (VmHWM) of the workerd process, one process per worker.
//
//   npm run bench:edge   (or: cd bench/edge && npm ci && node main.mjs [--mb 100] [--runs 3] [--only sluice,...];
//   needs dist/ built). @streamparser/json-whatwg 0.0.22 is quadratic in the rows here: run it at --mb 5.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(args[i + 1]);
};
const MB = option('mb', 100);
const RUNS = option('runs', 3);
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;
const WORKERS = [
  ['sluice', 'worker_sluice.js'],
  ['@streamparser/json-whatwg', 'worker_streamparser.js'],
  ['@streamparser/json', 'worker_streamparser_core.js'],
];
const TICK = 100; // clock ticks per second of /proc/<pid>/stat (getconf CLK_TCK on Linux)

// The upstream document: an array of rows, generated once (the Node side's cost is not measured).
function makeBody(bytes) {
  const rows = [];
  let size = 1;
  for (let id = 0; size < bytes; ++id) {
    const row = JSON.stringify({
      id,
      name: `user ${id}`,
      email: `user${id}@example.com`,
      tags: ['alpha', 'beta', id % 7 === 0 ? 'caf\u00e9' : 'gamma'],
      score: id * 0.25,
      active: id % 2 === 0,
      address: { city: 'Z\u00fcrich', zip: String(8000 + (id % 100)) },
    });
    rows.push(row);
    size += row.length + 1;
  }
  return { body: Buffer.from(`[${rows.join(',')}]`), rows: rows.length };
}

function freePort() {
  return new Promise((resolve) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function bundle(entry, dir) {
  const wasm = [];
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
    plugins: [
      {
        name: 'wasm-module',
        setup(bundler) {
          bundler.onResolve({ filter: /\.wasm\?module$/ }, (a) => {
            const file = join(a.resolveDir, a.path.replace(/\?module$/, ''));
            if (!wasm.includes(file)) wasm.push(file);
            return { path: basename(file), external: true };
          });
        },
      },
    ],
  });
  for (const file of wasm) copyFileSync(file, join(dir, basename(file)));
  return wasm.map((file) => basename(file));
}

function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK; // utime, stime
}

function memoryKb(pid, key) {
  return Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}

async function measure(entry, upstreamPort, expectedRows) {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-edge-'));
  const wasm = await bundle(entry, dir);
  const port = await freePort();
  const modules = [
    '(name = "worker.js", esModule = embed "worker.js")',
    ...wasm.map((n) => `(name = "${n}", wasm = embed "${n}")`),
  ];
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = (modules = [${modules.join(', ')}], compatibilityDate = "2025-09-01",
      bindings = [(name = "UPSTREAM", service = "upstream")])),
    (name = "upstream", external = (address = "127.0.0.1:${upstreamPort}", http = ())),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
`,
  );
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'workerd'), ['serve', 'config.capnp'], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' }).catch((error) => {
          if (error.cause?.code === 'ECONNREFUSED') throw error;
        });
        break;
      } catch (error) {
        if (attempt > 300) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const baseline = memoryKb(child.pid, 'VmRSS');
    const runs = [];
    for (let run = 0; run < RUNS; ++run) {
      const cpu = cpuSeconds(child.pid);
      const start = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/`);
      const reader = response.body.getReader();
      let first;
      let lines = 0;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        first ??= performance.now() - start;
        bytes += value.length;
        for (const byte of value) if (byte === 10) lines += 1;
      }
      const total = performance.now() - start;
      if (lines !== expectedRows) throw new Error(`${entry}: ${lines} lines, expected ${expectedRows}`);
      runs.push({ cpu: cpuSeconds(child.pid) - cpu, ttfb: first, total, bytes });
    }
    return { runs, baselineMb: baseline / 1024, peakMb: memoryKb(child.pid, 'VmHWM') / 1024 };
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

const { body, rows } = makeBody(MB * 1e6);
const upstream = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  let offset = 0;
  const write = () => {
    while (offset < body.length) {
      const end = Math.min(offset + 65536, body.length);
      const more = res.write(body.subarray(offset, end));
      offset = end;
      if (!more) return void res.once('drain', write);
    }
    res.end();
  };
  write();
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const median = (values) => values.toSorted((a, b) => a - b)[values.length >> 1];
const results = {};
try {
  for (const [name, entry] of WORKERS.filter(([name]) => ONLY === undefined || ONLY.includes(name))) {
    const result = await measure(entry, upstream.address().port, rows);
    results[name] = result;
    console.log(
      `${name}: CPU ${result.runs.map((r) => r.cpu.toFixed(2)).join(', ')} s; TTFB ${result.runs.map((r) => r.ttfb.toFixed(0)).join(', ')} ms; ` +
        `total ${result.runs.map((r) => (r.total / 1000).toFixed(2)).join(', ')} s; RSS ${result.baselineMb.toFixed(0)} MB idle, peak ${result.peakMb.toFixed(0)} MB`,
    );
  }
} finally {
  upstream.close();
}
const version = JSON.parse(
  readFileSync(join(HERE, 'node_modules', '@streamparser', 'json-whatwg', 'package.json'), 'utf8'),
).version;
const core = JSON.parse(
  readFileSync(join(HERE, 'node_modules', '@streamparser', 'json', 'package.json'), 'utf8'),
).version;
const workerd = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'workerd', 'package.json'), 'utf8')).version;
const cpu = (name) => median(results[name].runs.map((x) => x.cpu));
const table = [
  `${(body.length / 1e6).toFixed(0)} MB upstream array (${rows} rows) reshaped to NDJSON in workerd ${workerd}, ` +
    `median of ${RUNS} requests (the first of each includes compiling the worker); @streamparser/json-whatwg ${version} ` +
    `(over @streamparser/json 0.0.22), @streamparser/json ${core}. ` +
    `\`npm run bench:edge -- --mb ${MB} --runs ${RUNS}${ONLY ? ` --only ${ONLY.join(',')}` : ''}\`.`,
  '',
  '| worker | CPU per request | time to first byte | whole response | workerd peak RSS (idle) |',
  '|---|---|---|---|---|',
  ...Object.entries(results).map(
    ([name, r]) =>
      `| ${name} | ${median(r.runs.map((x) => x.cpu)).toFixed(2)} s | ${median(r.runs.map((x) => x.ttfb)).toFixed(0)} ms | ` +
      `${(median(r.runs.map((x) => x.total)) / 1000).toFixed(2)} s | ${r.peakMb.toFixed(0)} MB (${r.baselineMb.toFixed(0)} MB) |`,
  ),
  '',
  `CPU per request against sluice's: ${Object.keys(results)
    .filter((name) => name !== 'sluice' && results.sluice)
    .map((name) => `${name} ${(cpu(name) / cpu('sluice')).toFixed(1)}x`)
    .join(', ')}.`,
].join('\n');
console.log(`\n${table}`);
// docs/benchmarks.md shows each size's (bench/render/markdown.mjs), as bench:cli's table.
mkdirSync(join(ROOT, 'bench', 'results', 'edge'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'edge', `table-${MB}mb.md`), `${table}\n`);
