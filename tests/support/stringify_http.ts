// A Node HTTP server on 127.0.0.1 that answers with a web Response, as edge runtimes do, for the encoder's
// end-to-end tests (the benchmark has its own server).
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Writes `response` to `res`. pipeline() destroys the body's Node stream when the client goes away, and
 * Readable.fromWeb then cancels the web stream: that is what reaches the encoder.
 */
export async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as never), res).catch(() => {});
}

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `handler` on an ephemeral port of 127.0.0.1. */
export async function serve(handler: () => Response | Promise<Response>): Promise<TestServer> {
  const server: Server = createServer((_req, res) => {
    Promise.resolve(handler()).then(
      (response) => sendResponse(res, response),
      () => {
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
