// Cloudflare Worker consumer of the installed package: both .wasm modules imported as modules (workerd hands over
// compiled WebAssembly.Modules, and compiles nothing itself), the input streamed and read lazily, answered as JSON.
import { init, lazyParse, parseJsonArray } from 'sluice';
import wasm from 'sluice/sluice.simd.wasm';
import lazyWasm from 'sluice/sluice-lazy.simd.wasm';

export default {
  async fetch(request) {
    await init(wasm, { lazyModule: lazyWasm });
    const text = await request.text();
    const values = [];
    for await (const value of parseJsonArray(text, { path: '$[*]', output: 'text' })) values.push(value);
    return Response.json({ values, lazy: lazyParse(text)[1].a });
  },
};
