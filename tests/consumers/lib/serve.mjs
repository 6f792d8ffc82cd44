// Servers for the checks, on 127.0.0.1 only, each stopping by itself after `lifetimeMs` even when a check hangs
// or dies: a static file server for bundles (with application/wasm, which WebAssembly.compileStreaming requires),
// and a tool's own server (vite preview, next start) started as a process group and waited for.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
};

/** Serves the files under `root`; `/` is index.html. Resolves with `{ url, close() }`. */
export async function serveStatic(root, { lifetimeMs = 180_000 } = {}) {
  const base = resolve(root) + sep;
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    const file = normalize(join(base, path.endsWith('/') ? `${path}index.html` : path));
    try {
      if (!file.startsWith(base)) throw new Error('outside the root');
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end(`404 ${path}\n`);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () =>
      new Promise((resolve) => {
        clearTimeout(timer);
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** A free TCP port on 127.0.0.1 (for tools that take `--port`). */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `command args` (a server listening on `url`) in its own process group and resolves once `url` answers
 * HTTP; `stop()` kills the group. The group is killed after `lifetimeMs` and when this process exits, whatever
 * happens. Rejects with the server's output if it exits or does not answer within `startMs`.
 */
export async function startServer(command, args, { url, cwd, env, startMs = 120_000, lifetimeMs = 300_000 } = {}) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = [];
  const collect = (chunk) => output.push(chunk.toString());
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = signal ?? code;
  });
  const kill = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  };
  process.on('exit', kill);
  const timer = setTimeout(kill, lifetimeMs);
  timer.unref();
  const server = {
    output: () => output.join(''),
    async stop() {
      clearTimeout(timer);
      process.off('exit', kill);
      kill();
      if (exited === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
  const deadline = Date.now() + startMs;
  for (;;) {
    if (exited !== null) throw new Error(`${command} ${args.join(' ')} exited (${exited}):\n${server.output()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(5000) });
      return server;
    } catch {}
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`${command} ${args.join(' ')}: no answer at ${url} in ${startMs} ms:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
