// How the command starts: the bin (dist/cli/sluice.cjs) runs the bundle with the V8 code cache the build made of it.
// The cache must be accepted by the Node that built it (else every start compiles the bundle again, unnoticed), and
// the command must work the same without it (another Node rejects it; a build may have none).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { afterAll, expect, test } from 'vitest';
import { BIN, cliEnv } from './cli_run.js';

interface Launcher {
  readonly BUNDLE: string;
  readonly CACHE: string;
  compile(cachedData?: Uint8Array): { readonly cachedDataRejected?: boolean };
}

const launcher = createRequire(import.meta.url)(BIN) as Launcher;
const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('V8 accepts the code cache the build made (the same Node runs the tests)', () => {
  expect(dirname(launcher.CACHE)).toBe(dirname(BIN));
  expect(launcher.compile(readFileSync(launcher.CACHE)).cachedDataRejected).toBe(false);
  // The cache of another script is refused (V8 checks the source's length and the flags, not the text itself: the
  // build deletes the cache before it bundles).
  const foreign = new Script('(function () { return 1; })').createCachedData();
  expect(launcher.compile(foreign).cachedDataRejected).toBe(true);
});

test('without a cache, and with a rejected one, the command runs the same', () => {
  const cli = join(dir, 'cli');
  const expected = '{"id":1}\n{"id":2}\n';
  const input = '{"rows": [{"id": 1}, {"id": 2}]}';
  mkdirSync(cli);
  for (const file of [BIN, launcher.BUNDLE]) copyFileSync(file, join(cli, basename(file)));
  // The wasm is found next to the bundle's directory, as in dist/.
  for (const wasm of ['sluice-cli.simd.wasm', 'sluice-cli.scalar.wasm'])
    copyFileSync(join(dirname(BIN), '..', wasm), join(dir, wasm));
  const run = () =>
    execFileSync(process.execPath, [join(cli, basename(BIN)), 'select', '$.rows[*]', '-'], {
      env: cliEnv(),
      input,
      encoding: 'utf8',
    });
  expect(run()).toBe(expected);
  // Not a code cache at all: V8 rejects it.
  copyFileSync(join(dirname(BIN), '..', 'sluice.simd.wasm'), join(cli, basename(launcher.CACHE)));
  expect(run()).toBe(expected);
});
