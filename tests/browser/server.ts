// The browser suites' server: the built package (/dist/), the shared test helpers (/support/), the test pages
// (/page/), the runner-neutral suites bundled for a page (/suites/NAME.html and .js), the copied corpus
// (/corpus/), and the documents: a ~20 MB article list, whole or in paced chunks whose last chunk is held back
// until the page reports its first element (or a timeout passes), a ~2 MB one (/data/small.json), and a document
// with a syntax error deep inside. For the encoder: /gate holds a producer until the page reports (POST /mark)
// that it holds bytes of the response.
import { fileURLToPath } from 'node:url';
import { articleDocument } from './dataset.ts';
import { listen, notFound, sendPaced, serveFile, type PacedResult, type RunningServer } from './http.ts';
import { bundleSuite, SUITE_ENTRIES, type SuiteName } from './suite_bundle.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOLD_LAST_CHUNK_MS = 20_000;

export interface Transfer {
  /** performance.now() when the page reported its first element, or null. */
  markAt: number | null;
  /** The last chunk went out because the page never reported, not because it did. */
  heldUntilTimeout: boolean;
  done: Promise<PacedResult>;
}

export interface BrokenDocument {
  readonly bytes: Uint8Array;
  /** Articles complete before the error. */
  readonly validElements: number;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** A producer waiting at /gate?id= until the page posts /mark?id= (the page holds bytes) or the hold times out. */
export interface Gate {
  /** How the producer got through: the page's mark came first, the timeout, or it has not asked yet. */
  openedBy: 'mark' | 'timeout' | null;
}

export interface BrowserTestServer extends RunningServer {
  /** Articles in /data/articles.json. */
  readonly articles: number;
  readonly documentBytes: number;
  /** Articles in /data/small.json. */
  readonly smallArticles: number;
  readonly broken: BrokenDocument;
  transfer(id: string): Transfer | undefined;
  gate(id: string): Gate | undefined;
}

/** Drops the comma before article `index`: `} {` is EXPECTED_COMMA_OR_BRACKET at that article's `{`. */
function brokenDocument(elements: readonly string[], index: number): BrokenDocument {
  const head = `{"_embedded":{"articles":[\n${elements.slice(0, index).join(',\n')}\n`;
  const text = `${head}${elements.slice(index).join(',\n')}\n]}}`;
  const before = Buffer.from(head);
  const lines = before.toString('latin1').split('\n');
  return {
    bytes: Buffer.from(text),
    validElements: index,
    offset: before.length,
    line: lines.length,
    column: Buffer.byteLength(lines[lines.length - 1]!, 'latin1') + 1,
  };
}

export async function startBrowserTestServer(documentBytes = 20e6): Promise<BrowserTestServer> {
  const document = articleDocument(documentBytes);
  const small = articleDocument(2e6, 7);
  const bundles = new Map<SuiteName, Promise<string>>();
  // About 3 MB before the error: dozens of 64 KiB chunks, so the offset must be absolute to be right.
  const broken = brokenDocument(document.elements.slice(0, 9000), 7500);
  const transfers = new Map<string, Transfer & { release?: () => void }>();
  const gates = new Map<string, Gate & { marked: boolean; opened: Promise<void>; open: () => void }>();
  const gateOf = (id: string) => {
    let gate = gates.get(id);
    if (!gate) {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      gate = { openedBy: null, marked: false, opened, open };
      gates.set(id, gate);
    }
    return gate;
  };

  const running = await listen(async (req, res, url) => {
    const [, area, ...rest] = url.pathname.split('/');
    const relative = rest.join('/');
    if (area === 'dist' && serveFile(res, `${ROOT}dist`, relative)) return;
    if (area === 'support' && serveFile(res, `${ROOT}tests/support`, relative)) return;
    if (area === 'page' && serveFile(res, `${ROOT}tests/browser/page`, relative || 'index.html')) return;
    if (area === 'corpus' && serveFile(res, `${ROOT}tests/corpus`, relative)) return;
    const suite = /^\/suites\/(\w+)\.(html|js)$/.exec(url.pathname);
    if (suite && suite[1]! in SUITE_ENTRIES) {
      const name = suite[1] as SuiteName;
      if (suite[2] === 'html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(
          `<!doctype html><meta charset="utf-8"><title>sluice ${name} suite</title>` +
            `<script src="/page/errors.js"></script><script type="module" src="/suites/${name}.js"></script>`,
        );
        return;
      }
      if (!bundles.has(name)) bundles.set(name, bundleSuite(name));
      const code = await bundles.get(name)!;
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(code);
      return;
    }
    if (url.pathname === '/data/small.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(small.bytes);
      return;
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/mark' && req.method === 'POST') {
      const id = url.searchParams.get('id') ?? '';
      const transfer = transfers.get(id);
      if (transfer && transfer.markAt === null) {
        transfer.markAt = performance.now();
        transfer.release?.();
      }
      const gate = gateOf(id);
      gate.marked = true;
      gate.open();
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/gate') {
      const gate = gateOf(url.searchParams.get('id') ?? '');
      const timer = setTimeout(gate.open, HOLD_LAST_CHUNK_MS);
      await gate.opened;
      clearTimeout(timer);
      gate.openedBy ??= gate.marked ? 'mark' : 'timeout';
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end('open');
      return;
    }
    if (url.pathname === '/data/articles.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      const id = url.searchParams.get('paced');
      if (id === null) {
        res.end(document.bytes);
        return;
      }
      const transfer: Transfer & { release?: () => void } = { markAt: null, heldUntilTimeout: false, done: null! };
      const marked = new Promise<void>((resolve) => {
        transfer.release = resolve;
      });
      const beforeLast = () =>
        Promise.race([
          marked,
          new Promise<void>((resolve) =>
            setTimeout(() => {
              transfer.heldUntilTimeout = transfer.markAt === null;
              resolve();
            }, HOLD_LAST_CHUNK_MS).unref(),
          ),
        ]);
      transfer.done = sendPaced(res, document.bytes, { beforeLast });
      transfers.set(id, transfer);
      await transfer.done;
      return;
    }
    if (url.pathname === '/data/broken.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      await sendPaced(res, broken.bytes, { pauseEvery: 256 * 1024, pauseMs: 2 });
      return;
    }
    notFound(res);
  });
  return {
    ...running,
    articles: document.elements.length,
    documentBytes: document.bytes.length,
    smallArticles: small.elements.length,
    broken,
    transfer: (id) => transfers.get(id),
    gate: (id) => gates.get(id),
  };
}
