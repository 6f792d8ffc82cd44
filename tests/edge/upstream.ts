// A local "upstream JSON API" for the edge workers: serves an article document in paced chunks and holds its last
// chunk back until the test releases it (or a timeout passes), so a test can prove the worker streamed, and can
// see from the server side whether the worker cancelled its request.
import type { ServerResponse } from 'node:http';
import { articleDocument, type ArticleDocument } from '../browser/dataset.ts';
import { listen, notFound, sendPaced, type PacedResult, type RunningServer } from '../browser/http.ts';

export interface UpstreamRequest {
  /** Lets the held last chunk go. */
  release(): void;
  /** Whether the last chunk went out only because the hold timed out. */
  readonly timedOut: boolean;
  readonly done: Promise<PacedResult>;
}

export interface Upstream extends RunningServer {
  readonly document: ArticleDocument;
  /** The next request the upstream receives (or the one already received and not yet taken). */
  nextRequest(timeoutMs?: number): Promise<UpstreamRequest>;
}

export async function startUpstream(documentBytes: number, holdMs: number): Promise<Upstream> {
  const document = articleDocument(documentBytes, 7);
  const received: UpstreamRequest[] = [];
  const waiting: ((request: UpstreamRequest) => void)[] = [];

  const serve = (res: ServerResponse) => {
    let release!: () => void;
    let timedOut = false;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold = () =>
      Promise.race([
        released,
        new Promise<void>((resolve) =>
          setTimeout(() => {
            timedOut = true;
            resolve();
          }, holdMs).unref(),
        ),
      ]);
    res.writeHead(200, { 'content-type': 'application/json' });
    // Small pieces, paced: the document takes a while to send, like a real API that computes as it writes.
    const done = sendPaced(res, document.bytes, { chunkBytes: 16384, pauseEvery: 65536, pauseMs: 2, beforeLast: hold });
    const request: UpstreamRequest = {
      release: () => release(),
      get timedOut() {
        return timedOut;
      },
      done,
    };
    const waiter = waiting.shift();
    if (waiter) waiter(request);
    else received.push(request);
    return done;
  };

  const running = await listen(async (_req, res, url) => {
    if (url.pathname === '/articles') await serve(res);
    else notFound(res);
  });
  return {
    ...running,
    document,
    nextRequest: (timeoutMs = 30_000) => {
      const request = received.shift();
      if (request) return Promise.resolve(request);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(take), 1);
          reject(new Error(`the upstream received no request in ${timeoutMs} ms`));
        }, timeoutMs);
        const take = (next: UpstreamRequest) => {
          clearTimeout(timer);
          resolve(next);
        };
        waiting.push(take);
      });
    },
  };
}
