// Loads the wasm build a run asks for (SLUICE_BUILD=simd|scalar, default simd) and proves it is the one in use,
// as tests/support/setup_build.ts does for Vitest: a loader that silently fell back to the other build would
// otherwise make a runtime's two runs test the same build twice. The lazy index's module is left to init()'s
// default (the file next to dist/index.js), which follows the parser's build: checked here too.
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { init } from '../../dist/index.js';
import { loadedBuildKind, loadedLazyBuildKind } from '../../dist/internal.js';

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
  const kinds = { parser: loadedBuildKind(), lazy: loadedLazyBuildKind() };
  for (const [module, kind] of Object.entries(kinds)) {
    if (kind !== EXPECTED_KIND[build]) {
      throw new Error(`expected the ${EXPECTED_KIND[build]} build of the ${module} module, got ${String(kind)}`);
    }
  }
}
