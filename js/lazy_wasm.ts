// Where the lazy index's .wasm files are: beside this module (dist/), named `./x.wasm` (see parser_wasm.ts). A module
// of its own, imported only by js/lazy, so that bundles without lazyParse never emit them.

/** @internal The lazy index's build beside the package: SIMD128 or scalar. */
export function lazyWasmUrl(simd: boolean): URL {
  // Written out twice, literally, so bundlers see both `new URL(..., import.meta.url)` patterns and copy the files.
  return simd
    ? new URL('./sluice-lazy.simd.wasm', import.meta.url)
    : new URL('./sluice-lazy.scalar.wasm', import.meta.url);
}
