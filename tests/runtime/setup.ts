// Loads the wasm build a run asks for (SLUICE_BUILD=simd|scalar, default simd) and proves it is the one in use,
// as tests/support/setup_build.ts does for Vitest: a loader that silently fell back to the other build would
// otherwise make a runtime's two runs test the same build twice.
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { init } from '../../dist/index.js';
import { loadedBuildKind } from '../../dist/internal.js';

export type BuildName = 'simd' | 'scalar';

const EXPECTED_KIND = { simd: 'simd128', scalar: 'scalar' } as const;

export function requestedBuild(): BuildName {
  const build = process.env.SLUICE_BUILD ?? 'simd';
  if (build !== 'simd' && build !== 'scalar') throw new Error(`SLUICE_BUILD must be simd or scalar, got ${build}`);
  return build;
}

export async function loadBuild(build: BuildName): Promise<void> {
  const bytes = new Uint8Array(await readFile(new URL(`../../dist/sluice.${build}.wasm`, import.meta.url)));
  await init(bytes);
  const kind = loadedBuildKind();
  if (kind !== EXPECTED_KIND[build]) {
    throw new Error(`expected the ${EXPECTED_KIND[build]} build to be loaded, got ${String(kind)}`);
  }
}
