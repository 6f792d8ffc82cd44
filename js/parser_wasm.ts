// Where the parser's .wasm files are: beside this module (dist/), named `./x.wasm`, so that a bundle that copies them
// beside itself finds them (Rollup, esbuild, Parcel: every module becomes one file, and `import.meta.url` is its URL).

/** @internal The parser's build beside the package: SIMD128 or scalar. */
export function parserWasmUrl(simd: boolean): URL {
  // Written out twice, literally, so bundlers see both `new URL(..., import.meta.url)` patterns and copy the files.
  return simd ? new URL('./sluice.simd.wasm', import.meta.url) : new URL('./sluice.scalar.wasm', import.meta.url);
}
