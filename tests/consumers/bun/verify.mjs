// `bun build` emitted the .wasm beside the bundle (the package's `bun` entry imports it as a file), and the bundle
// runs with Bun from there, away from node_modules.
import { execFileSync } from 'node:child_process';
import { readdirSync, renameSync } from 'node:fs';

const emitted = readdirSync('out');
if (!emitted.some((name) => name.endsWith('.wasm'))) throw new Error(`bun build emitted no .wasm: ${emitted}`);
renameSync('node_modules', 'node_modules.away');
try {
  execFileSync('bun', ['out/check.js'], { stdio: 'inherit' });
} finally {
  renameSync('node_modules.away', 'node_modules');
}
