// Loads the wasm build named by the Vitest project before any suite runs, and proves it is the one in use: a
// loader that silently fell back to the other build would otherwise make one project test the same build twice.
// The lazy index's module is left to init()'s default, which follows the parser's build: checked here too.
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { init } from '../../dist/index.js';
import { loadedBuildKind, loadedLazyBuildKind } from '../../dist/internal.js';

declare module 'vitest' {
  export interface ProvidedContext {
    sluiceBuild: 'simd' | 'scalar';
  }
}

const EXPECTED_KIND = { simd: 'simd128', scalar: 'scalar' } as const;

const build = inject('sluiceBuild');
const bytes = new Uint8Array(readFileSync(new URL(`../../dist/sluice.${build}.wasm`, import.meta.url)));
await init(bytes);
const kinds = { parser: loadedBuildKind(), lazy: loadedLazyBuildKind() };
for (const [module, kind] of Object.entries(kinds)) {
  if (kind !== EXPECTED_KIND[build]) {
    const expected = EXPECTED_KIND[build];
    throw new Error(`project ${build}: expected the ${expected} build of the ${module} module, got ${String(kind)}`);
  }
}
