// Bun's entry (package.json condition `bun`): `bun build` copies no `new URL('./x.wasm', import.meta.url)` file, but
// Bun imports a .wasm as its path (the file loader), and `bun build` copies it beside the bundle and gives the copy's
// (run unbundled, the file's own path). The lazy index's SIMD module, which holds the parser too (Bun's engine has
// SIMD128). Listed in package.json "sideEffects".
import wasm from './sluice-lazy.simd.wasm';
import { provideModule } from './native/loader.js';

declare const Bun: { pathToFileURL(path: string): URL };

// Bundled, a path relative to the bundle (`./x-<hash>.wasm`); unbundled, the file's absolute path.
provideModule(wasm.startsWith('.') ? new URL(wasm, import.meta.url) : Bun.pathToFileURL(wasm));

export * from './index.js';
