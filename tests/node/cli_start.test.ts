// How the command starts: the bin (dist/cli/sluice.cjs) runs the bundle with a V8 code cache of it, which the
// package does not ship (a cache is valid for one Node build only): the first run writes it into the user's cache
// folder (SLUICE_CACHE_DIR here), later runs use it. V8 must accept what a run wrote (else every start compiles the
// bundle again, unnoticed), and the command must work the same without a cache and with a rejected one.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { afterAll, expect, test } from 'vitest';
import { BIN, cliEnv } from './cli_run.js';

interface Launcher {
  readonly BUNDLE: string;
  cacheFile(): string | undefined;
  compile(cachedData?: Uint8Array): { readonly cachedDataRejected?: boolean };
}

const launcher = createRequire(import.meta.url)(BIN) as Launcher;
const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const INPUT = '{"rows": [{"id": 1}, {"id": 2}]}';
const EXPECTED = '{"id":1}\n{"id":2}\n';

function select(cacheDir: string): string {
  return execFileSync(process.execPath, [BIN, 'select', '$.rows[*]', '-'], {
    env: cliEnv({ SLUICE_CACHE_DIR: cacheDir }),
    input: INPUT,
    encoding: 'utf8',
  });
}

/** The cache file the launcher uses with SLUICE_CACHE_DIR=`cacheDir`, as this process (the same Node) names it. */
function cacheFileIn(cacheDir: string): string {
  const saved = process.env.SLUICE_CACHE_DIR;
  process.env.SLUICE_CACHE_DIR = cacheDir;
  try {
    return launcher.cacheFile()!;
  } finally {
    if (saved === undefined) delete process.env.SLUICE_CACHE_DIR;
    else process.env.SLUICE_CACHE_DIR = saved;
  }
}

test('the first run writes the code cache, and V8 accepts it (the same Node runs the tests)', () => {
  const cacheDir = join(dir, 'first');
  const file = cacheFileIn(cacheDir);
  expect(existsSync(file)).toBe(false);
  expect(select(cacheDir)).toBe(EXPECTED);
  expect(launcher.compile(readFileSync(file)).cachedDataRejected).toBe(false);
  // The cache of another script is refused (V8 checks the source's length and the flags, not the text itself: the
  // file name holds the bundle's size and time, and the Node version).
  const foreign = new Script('(function () { return 1; })').createCachedData();
  expect(launcher.compile(foreign).cachedDataRejected).toBe(true);
  expect(select(cacheDir)).toBe(EXPECTED);
});

test('without a cache folder, and with a rejected cache, the command runs the same; a rejected one is rewritten', () => {
  expect(select('')).toBe(EXPECTED);
  const cacheDir = join(dir, 'rejected');
  expect(select(cacheDir)).toBe(EXPECTED);
  const file = cacheFileIn(cacheDir);
  // Not a code cache at all: V8 rejects it, the command runs, and exit writes a good one in its place.
  writeFileSync(file, 'not a code cache');
  expect(select(cacheDir)).toBe(EXPECTED);
  expect(launcher.compile(readFileSync(file)).cachedDataRejected).toBe(false);
});
