// `sluice get` in the memory of the other commands (issue 29: 93 MiB of peak RSS where select, count and validate
// stay at about 51): its chunks read into two reused buffers, not a fresh one each (garbage V8 collects only under
// external memory pressure, some 40 MiB of it), and openJson's check of its source without Node's global
// `Response`, a getter that loads Node's fetch (8 MiB).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { init, openJson } from '../../dist/index.js';
import { BIN, cliEnv } from './cli_run.js';

const dir = mkdtempSync(join(tmpdir(), 'sluice-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `sluice args...` and resolves to its exit code and peak RSS in KiB (reported by a preloaded script). */
function peakRss(args: readonly string[]): Promise<{ code: number | null; kib: number; stderr: string }> {
  const preload = join(dir, 'max_rss.cjs');
  writeFileSync(
    preload,
    "process.on('exit', () => require('node:fs').writeSync(2, 'maxRSS ' + process.resourceUsage().maxRSS + '\\n'));\n",
  );
  const child = spawn(process.execPath, ['-r', preload, BIN, ...args], { env: cliEnv(), stdio: 'pipe' });
  const err: Buffer[] = [];
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  child.stdout.resume();
  child.stdin.end();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8');
      const m = /maxRSS (\d+)/.exec(stderr);
      resolve({ code, kib: m === null ? Number.NaN : Number(m[1]), stderr });
    });
  });
}

test('sluice get $.total reads 40 MB in about the peak RSS of select (within 6 MiB)', async () => {
  const row = (i: number): string =>
    `{"id":${i},"title":"Article ${i}","description":"${'lorem ipsum é 中文 '.repeat(1 + (i % 12))}","tags":["a","b"],"score":${i % 97}}`;
  const rows: string[] = [];
  let length = 0;
  for (let i = 0; length < 40_000_000; i++) {
    const r = row(i);
    rows.push(r);
    length += r.length + 1;
  }
  const path = join(dir, 'articles.json');
  writeFileSync(path, `{"rows":[${rows.join(',')}],"total":${rows.length}}`);
  const get = await peakRss(['get', '$.total', path]);
  expect(get.code, get.stderr).toBe(0);
  const select = await peakRss(['select', '$.rows[*]', path]);
  expect(select.code, select.stderr).toBe(0);
  expect(get.kib).toBeLessThan(select.kib + 6 * 1024);
}, 60_000);

test('openJson over an async iterable never reads the global Response (in Node, a getter loading its fetch)', async () => {
  await init();
  const original = Object.getOwnPropertyDescriptor(globalThis, 'Response');
  let reads = 0;
  Object.defineProperty(globalThis, 'Response', {
    configurable: true,
    get() {
      reads++;
      return original?.get !== undefined ? original.get.call(globalThis) : original?.value;
    },
  });
  try {
    const doc = openJson(
      (async function* () {
        yield '{"a": [1, 2],';
        yield ' "b": 3}';
      })(),
      { transient: true },
    );
    expect(await doc.get('$.b')).toBe(3);
    await doc.close();
  } finally {
    if (original === undefined) delete (globalThis as { Response?: unknown }).Response;
    else Object.defineProperty(globalThis, 'Response', original);
  }
  expect(reads).toBe(0);
});
