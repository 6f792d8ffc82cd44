#!/usr/bin/env node
// Runs the llm-stream example with one command: the mock provider (provider.mjs) and the worker (worker.js), in
// workerd (Cloudflare's runtime, bundled as wrangler would) or in Node behind a small adapter; prints the page's
// address. The page is served by the worker (its env.ASSETS is the provider's server).
// Usage: node examples/llm-stream/run.mjs [--port N] [--rate DELTAS/S] [--runtime workerd|node] [--hold-last]
//          [--exit-after SECONDS]
//   --port 0 picks a free port; --rate 0 sends as fast as possible; --hold-last holds each stream's last delta
//   until POST /release; --exit-after stops everything by itself (the smoke test uses it).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { startProvider } from './provider.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const USAGE =
  'usage: node examples/llm-stream/run.mjs [--port N] [--rate DELTAS/S] [--runtime workerd|node] [--hold-last] ' +
  '[--exit-after SECONDS]';

function parseArgs(argv) {
  const options = { port: 8787, rate: 60, runtime: 'workerd', 'hold-last': false, 'exit-after': 0 };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'hold-last') options[name] = true;
    else if (name === 'runtime' && ['workerd', 'node'].includes(argv[i + 1])) options.runtime = argv[++i];
    else if (['port', 'rate', 'exit-after'].includes(name) && Number(argv[i + 1]) >= 0) options[name] = +argv[++i];
    else {
      console.error(`${USAGE}\nunexpected: ${argv[i]}`);
      process.exit(2);
    }
  }
  return options;
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something listens on `port`. */
async function listening(port, child) {
  for (let tries = 0; tries < 300; tries++) {
    if (child.exitCode !== null) throw new Error(`workerd exited (${child.exitCode})`);
    const ok = await new Promise((resolve) => {
      const socket = createConnection(port, '127.0.0.1');
      const done = (connected) => {
        socket.destroy();
        resolve(connected);
      };
      socket.once('connect', () => done(true));
      socket.once('error', () => done(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`workerd did not listen on ${port}`);
}

/** Bundles worker.js as wrangler does and serves it with workerd; resolves with a stop function. */
async function runWorkerd(port, provider) {
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'llm-stream-'));
  const wasm = [];
  await build({
    entryPoints: [here('worker.js')],
    outfile: join(dir, 'worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    logLevel: 'warning',
    // The package's workerd entry imports its .wasm as a module (`x.wasm?module`): embedded, as wrangler does.
    // (This worker uses only the pure-JS parts; the import comes with the entry.)
    plugins: [
      {
        name: 'wasm-module',
        setup(bundler) {
          bundler.onResolve({ filter: /\.wasm\?module$/ }, (args) => {
            const file = join(args.resolveDir, args.path.replace(/\?module$/, ''));
            copyFileSync(file, join(dir, basename(file)));
            wasm.push(basename(file));
            return { path: basename(file), external: true };
          });
        },
      },
    ],
  });
  const host = provider.origin.replace('http://', '');
  const modules = [
    '(name = "worker.js", esModule = embed "worker.js")',
    ...wasm.map((f) => `(name = "${f}", wasm = embed "${f}")`),
  ];
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "assets", external = (address = "${host}", http = ())),
    (name = "internet", network = (allow = ["public", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [${modules.join(', ')}],
  compatibilityDate = "2025-09-01",
  compatibilityFlags = ["enable_request_signal"],
  bindings = [
    (name = "PROVIDER_URL", text = "${provider.origin}/v1/chat/completions"),
    (name = "ASSETS", service = "assets"),
  ],
  globalOutbound = "internet",
);
`,
  );
  const child = spawn(join(here('../../node_modules/.bin'), 'workerd'), ['serve', 'config.capnp', '--verbose'], {
    cwd: dir,
    env: { ...process.env, PWD: dir },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = () => {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  child.once('exit', (code) => {
    if (!stopping) {
      console.error(`llm-stream: workerd exited (${code})`);
      process.exit(1);
    }
  });
  try {
    await listening(port, child);
  } catch (error) {
    stop();
    throw error;
  }
  return stop;
}

/** The worker in this process: Node's HTTP requests turned into fetch Requests, its Responses streamed back. */
async function runNode(port, provider) {
  const worker = (await import('./worker.js')).default;
  const env = {
    PROVIDER_URL: `${provider.origin}/v1/chat/completions`,
    ASSETS: {
      fetch: (request) => {
        const { pathname, search } = new URL(request.url);
        const { method, body } = request;
        return fetch(`${provider.origin}${pathname}${search}`, { method, body, duplex: 'half' });
      },
    },
  };
  const server = createHttpServer(async (req, res) => {
    try {
      // request.signal aborts when the client leaves, as in workerd (enable_request_signal).
      const left = new AbortController();
      res.once('close', () => left.abort());
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Readable.toWeb(req);
      const url = `http://127.0.0.1:${port}${req.url}`;
      const request = new Request(url, {
        method: req.method,
        headers: req.headers,
        body,
        duplex: 'half',
        signal: left.signal,
      });
      const response = await worker.fetch(request, env);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      const out = response.body && Readable.fromWeb(response.body);
      res.once('close', () => out?.destroy()); // the client left: the response's stream is cancelled
      if (out) out.pipe(res);
      else res.end();
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return () => {
    server.closeAllConnections();
    server.close();
  };
}

let stopping = false;
const options = parseArgs(process.argv.slice(2));
const provider = await startProvider({ rate: options.rate, holdLast: options['hold-last'] });
const port = options.port || (await freePort());
const stopWorker = await (options.runtime === 'workerd' ? runWorkerd : runNode)(port, provider);
const stop = () => {
  stopping = true;
  stopWorker();
  provider.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
if (options['exit-after'] > 0) setTimeout(stop, options['exit-after'] * 1000).unref();
console.log(
  `llm-stream: http://127.0.0.1:${port}/ (the worker in ${options.runtime}; the provider at ${provider.origin})`,
);
