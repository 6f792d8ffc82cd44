// The entry of the runtimes that load WebAssembly as a module import and can neither fetch the .wasm beside the
// package nor compile bytes: workerd (Cloudflare Workers, wrangler) and edge-light (Vercel, Next.js Edge routes), the
// `workerd` and `edge-light` conditions of package.json. It imports the lazy index's SIMD module, which holds the
// parser too (every engine there has SIMD128), so that `import { parseJsonArray } from 'sluice'` works as is, and
// lazyParse too. `?module` is how both wrangler and Next.js name a .wasm imported as a compiled WebAssembly.Module.
// package.json lists this file in "sideEffects": the registration must survive tree shaking.
import wasm from './sluice-lazy.simd.wasm?module';
import { provideModule } from './native/loader.js';

provideModule(wasm);

export * from './index.js';
