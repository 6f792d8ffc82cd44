// A fetch handler served by the runtime's own HTTP server on 127.0.0.1 and a free port: Deno.serve under Deno,
// Bun.serve under Bun, node:http under Node (a Response written to the socket as Node servers do, read only as the
// socket drains, cancelled when the client goes away). The sse_write suite's clients reach it with fetch().

export type Handler = (request: Request) => Response | Promise<Response>;

export interface Served {
  readonly origin: string;
  close(): Promise<void>;
}

interface DenoServer {
  readonly addr: { port: number };
  shutdown(): Promise<void>;
}
interface DenoGlobal {
  serve(options: { hostname: string; port: number; onListen(): void }, handler: Handler): DenoServer;
}
interface BunServer {
  readonly port: number;
  stop(force?: boolean): void;
}
interface BunGlobal {
  serve(options: { hostname: string; port: number; fetch: Handler }): BunServer;
}

export async function serve(handler: Handler): Promise<Served> {
  const deno = (globalThis as { Deno?: DenoGlobal }).Deno;
  if (deno !== undefined) {
    const server = deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, handler);
    return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
  }
  const bun = (globalThis as { Bun?: BunGlobal }).Bun;
  if (bun !== undefined) {
    const server = bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler });
    return { origin: `http://127.0.0.1:${server.port}`, close: async () => server.stop(true) };
  }
  return serveNode(handler);
}

/** Resolves when `res` drains or closes, leaving no listener behind. */
function drained(res: import('node:http').ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

async function serveNode(handler: Handler): Promise<Served> {
  const http = await import('node:http');
  const server = http.createServer(async (req, res) => {
    const response = await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.flushHeaders();
    if (response.body === null) return void res.end();
    const reader = response.body.getReader();
    let finished = false;
    res.on('close', () => {
      if (!finished) void reader.cancel(new Error('the client went away')).catch(() => {});
    });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        // Read the next chunk only once the socket took this one: the body is pulled as the client reads.
        if (!res.write(value)) await drained(res);
        if (res.destroyed) return;
      }
      finished = true;
      res.end();
    } catch {
      res.destroy();
    }
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
