// A .wasm imported as a compiled module (js/edge.ts): what wrangler and Next.js give for `x.wasm?module`.
declare module '*.wasm?module' {
  const module: WebAssembly.Module;
  export default module;
}

// A .wasm imported by Bun's entry (js/bun.ts): Bun gives its path.
declare module '*.wasm' {
  const path: string;
  export default path;
}
