// Small HTTP helpers for the test servers (browser, edge, package, examples): listen on 127.0.0.1 on a free port,
// serve files with the content types browsers insist on (application/wasm for compileStreaming, a JavaScript
// type for module scripts), and send a body in paced chunks with backpressure.
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface RunningServer {
  readonly server: Server;
  readonly origin: string;
  close(): Promise<void>;
}

/** Starts `handler` on 127.0.0.1 on a free port; errors in the handler answer 500 instead of killing the run. */
export async function listen(handler: Handler): Promise<RunningServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    Promise.resolve(handler(req, res, url)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error instanceof Error ? error.stack : error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port that was free a moment ago, for programs that take their port on the command line (workerd). */
export async function freePort(): Promise<number> {
  const { server } = await listen(() => {});
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.map': 'application/json',
};

/** Serves the file under `root` that `relative` names; false when there is none (the caller answers 404). */
export function serveFile(res: ServerResponse, root: string, relative: string): boolean {
  const file = normalize(join(root, relative));
  if (!file.startsWith(normalize(root + sep))) return false;
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return false;
    size = stat.size;
  } catch {
    return false;
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': size,
    'cache-control': 'no-store',
  });
  createReadStream(file).pipe(res);
  return true;
}

export function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not found');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface PacedOptions {
  /** Bytes per write. @default 65536 */
  readonly chunkBytes?: number;
  /** Pause after every this many bytes... @default 1 MiB */
  readonly pauseEvery?: number;
  /** ...for this long. @default 5 ms */
  readonly pauseMs?: number;
  /** Awaited before the last chunk is written: the tests hold the tail back until the client proved it streams. */
  readonly beforeLast?: () => Promise<unknown>;
}

export interface PacedResult {
  /** performance.now() when the last byte was handed to the socket, or null if the client went away first. */
  lastByteAt: number | null;
  /** The client closed the connection before the body was complete. */
  aborted: boolean;
  bytesSent: number;
}

/** Writes `body` in paced chunks, waiting for 'drain' when the socket is full. */
export async function sendPaced(
  res: ServerResponse,
  body: Uint8Array,
  options: PacedOptions = {},
): Promise<PacedResult> {
  const { chunkBytes = 65536, pauseEvery = 1 << 20, pauseMs = 5, beforeLast } = options;
  const result: PacedResult = { lastByteAt: null, aborted: false, bytesSent: 0 };
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  res.once('close', () => {
    if (result.lastByteAt === null) result.aborted = true;
  });
  let sincePause = 0;
  for (let at = 0; at < body.length && !result.aborted; at += chunkBytes) {
    const chunk = body.subarray(at, at + chunkBytes);
    // A client that leaves while the last chunk is held ends the wait at once.
    if (at + chunkBytes >= body.length && beforeLast) await Promise.race([beforeLast(), closed]);
    if (result.aborted) break;
    if (!res.write(chunk)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
    result.bytesSent += chunk.length;
    sincePause += chunk.length;
    if (sincePause >= pauseEvery) {
      sincePause = 0;
      await sleep(pauseMs);
    }
  }
  if (!result.aborted) {
    result.lastByteAt = performance.now();
    res.end();
  }
  return result;
}
