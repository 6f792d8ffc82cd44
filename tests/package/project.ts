// Packs the repository with `npm pack` (exactly what `npm publish` would upload) and installs the tarball into a
// fresh project in a temporary directory, as a user's `npm install sluice` would.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface PackedFile {
  path: string;
  size: number;
}

export interface InstalledProject {
  readonly dir: string;
  readonly tarball: string;
  /** The files in the tarball, relative to the package root. */
  readonly files: readonly string[];
}

export function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

export function packAndInstall(): InstalledProject {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-package-'));
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], ROOT)) as {
    filename: string;
    files: PackedFile[];
  }[];
  const tarball = join(dir, packed!.filename);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The package has no dependencies: installing the tarball needs no registry.
  run('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], dir);
  return { dir, tarball, files: packed!.files.map((file) => file.path) };
}
