// The command line's input and output: a file, standard input and a URL (a server on 127.0.0.1 that this suite
// starts and stops) give the same lines; --limit stops reading at once, cancelling a download or leaving the rest
// of a pipe unread; a reader that goes away (EPIPE, `| head`) ends the command quietly with exit 0; HTTP and
// connection errors exit 6; the progress bar appears on standard error only on a terminal (a pseudo-terminal by
// `script`) or with --progress, and never on standard output.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, cliEnv, lines, runCli, spawnCli } from './cli_run.js';

const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-io-'));
/** 20,000 elements, 778 kB: several of the CLI's 256 KiB reads. */
const DOC =
  '{"rows": [' +
  Array.from({ length: 20000 }, (_, i) => `{"id": ${i}, "name": "row ${i} é"}`).join(',\n ') +
  '], "total": 20000}';
const EXPECTED = Array.from({ length: 20000 }, (_, i) => `{"id":${i},"name":"row ${i} é"}`);
const docFile = join(dir, 'doc.json');
writeFileSync(docFile, DOC);

// MARK: the server

interface Served {
  /** Bytes written to the response so far. */
  sent: number;
  /** Resolves when the client closed the connection or the response ended. */
  closed: Promise<void>;
}
const served = new Map<string, Served>();
let server: Server;
let base = '';

/** Writes elements as fast as the client takes them, forever: only the client going away stops it. */
function endless(res: ServerResponse, state: Served, prefix: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(prefix);
  let i = 0;
  const pump = (): void => {
    while (!res.destroyed) {
      const chunk = `{"i":${i++},"pad":"${'x'.repeat(100)}"},`;
      state.sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
      if (i % 1000 === 0) {
        setTimeout(pump, 1);
        return;
      }
    }
  };
  pump();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let resolveClosed!: () => void;
    const state: Served = { sent: 0, closed: new Promise((resolve) => (resolveClosed = resolve)) };
    served.set(req.url ?? '', state);
    res.on('close', () => resolveClosed());
    if (req.url === '/doc') {
      // In 64 KiB pieces, a few milliseconds apart: reads see partial bodies.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(DOC)) });
      const body = Buffer.from(DOC);
      let at = 0;
      const next = (): void => {
        if (res.destroyed) return;
        if (at >= body.length) {
          res.end();
          return;
        }
        res.write(body.subarray(at, at + 65536));
        state.sent += Math.min(65536, body.length - at);
        at += 65536;
        setTimeout(next, 2);
      };
      next();
    } else if (req.url === '/endless') {
      endless(res, state, '[');
    } else if (req.url === '/early') {
      endless(res, state, '{"first": 42, "rest": [');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Within `ms`, or the test fails (a command that should have stopped reading did not). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('inputs', () => {
  test('a file, standard input and a URL give the same lines', async () => {
    const fromFile = await runCli(['select', '$.rows[*]', docFile]);
    const fromStdin = await runCli(['select', '$.rows[*]', '-'], { input: DOC });
    const fromStdinDefault = await runCli(['select', '$.rows[*]'], { input: DOC });
    const fromUrl = await runCli(['select', '$.rows[*]', `${base}/doc`]);
    for (const result of [fromFile, fromStdin, fromStdinDefault, fromUrl]) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(lines(result.stdout)).toEqual(EXPECTED);
    }
    expect((await runCli(['count', '$.rows[*]', `${base}/doc`])).stdout).toBe('20000\n');
    expect((await runCli(['get', '$.total', `${base}/doc`])).stdout).toBe('20000\n');
  });

  test('--limit cancels the download at once', async () => {
    const result = await within(
      runCli(['select', '$[*].i', `${base}/endless`, '--limit', '3']),
      20000,
      'select --limit',
    );
    expect(result).toMatchObject({ code: 0, stdout: '0\n1\n2\n', stderr: '' });
    const state = served.get('/endless')!;
    await within(state.closed, 5000, 'the server seeing the connection closed');
    // The server writes as fast as the client reads; what it sent is what sat in buffers when the CLI stopped.
    expect(state.sent).toBeLessThan(64 * 1024 * 1024);
  });

  test('get reads a download only as far as the value', async () => {
    const result = await within(runCli(['get', '$.first', `${base}/early`]), 20000, 'get');
    expect(result).toMatchObject({ code: 0, stdout: '42\n' });
    await within(served.get('/early')!.closed, 5000, 'the server seeing the connection closed');
  });

  test('--limit leaves the rest of standard input unread', async () => {
    const child = spawnCli(['select', '$[*]', '--limit', '2']);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    let written = 0;
    let stopped = false;
    child.stdin.on('error', () => (stopped = true));
    // An endless array on standard input, written as fast as the CLI reads it.
    const feed = async (): Promise<void> => {
      child.stdin.write('[');
      while (!stopped && child.exitCode === null) {
        const chunk = '{"x": 1},'.repeat(1000);
        written += chunk.length;
        if (!child.stdin.write(chunk)) await Promise.race([once(child.stdin, 'drain'), once(child, 'exit')]);
      }
    };
    // The CLI exiting breaks the pipe (EPIPE): that ends the feeding, as intended.
    feed().catch(() => (stopped = true));
    const [code] = (await within(once(child, 'exit'), 20000, 'select --limit on standard input')) as [number];
    stopped = true;
    expect(code).toBe(0);
    expect(stdout).toBe('{"x":1}\n{"x":1}\n');
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  test('HTTP errors and refused connections: exit 6', async () => {
    const missing = await runCli(['select', '$[*]', `${base}/missing`]);
    expect(missing.code).toBe(6);
    expect(missing.stderr).toContain(`cannot fetch ${base}/missing: HTTP 404 Not Found`);
    // A port nothing listens on: the server's own port, once it is closed, is too racy; port 9 (discard) is closed
    // on a CI machine.
    const refused = await runCli(['select', '$[*]', 'http://127.0.0.1:9/x.json']);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('cannot fetch http://127.0.0.1:9/x.json');
  });
});

describe('output', () => {
  test('a reader that goes away ends the command quietly (EPIPE): `sluice select ... | head -n 2`', () => {
    const script = `set -o pipefail; "${process.execPath}" "${BIN}" select '$.rows[*]' "${docFile}" | head -n 2`;
    const out = execFileSync('bash', ['-c', script], {
      env: cliEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toBe(`${EXPECTED[0]}\n${EXPECTED[1]}\n`);
  });

  test('a reader that closes its end: exit 0, nothing on standard error', async () => {
    const child = spawnCli(['select', '$.rows[*]', docFile]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = (await within(once(child, 'exit'), 20000, 'the CLI after EPIPE')) as [number];
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});

describe('progress bar', () => {
  const progressLine = /\d+% \[[#-]+\] [\d.]+ (kB|MB) \/ [\d.]+ (kB|MB) · [\d,]+ elements · \d+ MB\/s/;

  test('not shown when standard error is not a terminal, unless --progress', async () => {
    const quiet = await runCli(['select', '$.rows[*]', docFile]);
    expect(quiet.stderr).toBe('');
    const forced = await runCli(['select', '$.rows[*]', docFile, '--progress']);
    expect(forced.code).toBe(0);
    expect(lines(forced.stdout)).toEqual(EXPECTED);
    const drawn = forced.stderr.trimEnd().split('\n');
    expect(drawn.at(-1)).toMatch(/^100% \[#{20}\] ([\d.]+ kB) \/ \1 · 20,000 elements · \d+ MB\/s$/);
    for (const line of drawn) expect(line).toMatch(progressLine);
    // Without a known total (a pipe): bytes, elements, rate.
    const piped = await runCli(['select', '$.rows[*]', '--progress'], { input: DOC });
    expect(piped.stderr.trimEnd().split('\n').at(-1)).toMatch(/^[\d.]+ kB · 20,000 elements · \d+ MB\/s$/);
  });

  test('standard error on a file is no terminal: no bar unless --progress', () => {
    // A character device other than /dev/null is asked of node:tty (terminal.ts); a file is answered by its fstat.
    const log = join(dir, 'stderr.log');
    for (const [flags, drawn] of [
      [[], false],
      [['--progress'], true],
    ] as const) {
      const stderr = openSync(log, 'w');
      try {
        const out = execFileSync(process.execPath, [BIN, 'count', '$.rows[*]', docFile, ...flags], {
          env: cliEnv(),
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', stderr],
        });
        expect(out).toBe('20000\n');
      } finally {
        closeSync(stderr);
      }
      const text = readFileSync(log, 'utf8');
      if (drawn) expect(text).toMatch(progressLine);
      else expect(text).toBe('');
    }
  });

  function inTerminal(args: readonly string[]): { output: string; code: number } {
    // `script` runs the command on a pseudo-terminal (standard input, output and error) and copies what it
    // writes there to its own standard output.
    const command = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    try {
      const output = execFileSync('script', ['-qec', command, '/dev/null'], { env: cliEnv(), encoding: 'utf8' });
      return { output, code: 0 };
    } catch (error) {
      const e = error as { status: number; stdout: string };
      return { output: e.stdout, code: e.status };
    }
  }

  test('on a terminal: drawn over itself on standard error, erased at the end; --no-progress hides it', () => {
    const shown = inTerminal(['count', '$.rows[*]', docFile]);
    expect(shown.code).toBe(0);
    expect(shown.output).toMatch(progressLine);
    expect(shown.output).toContain('\r');
    // Erased before the count is written, and nothing of it after.
    expect(shown.output.endsWith('\r\x1b[K20000\r\n')).toBe(true);
    const hidden = inTerminal(['count', '$.rows[*]', docFile, '--no-progress']);
    expect(hidden).toEqual({ output: '20000\r\n', code: 0 });
  });
});
