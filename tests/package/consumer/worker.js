// Cloudflare Worker consumer of the installed package: the .wasm imported as a module (workerd hands over a
// compiled WebAssembly.Module), parsed input answered as JSON.
import { init, parseJsonArray } from 'sluice';
import wasm from 'sluice/sluice.simd.wasm';

export default {
  async fetch(request) {
    await init(wasm);
    const values = [];
    for await (const value of parseJsonArray(request.body, { path: '$[*]', output: 'text' })) values.push(value);
    return Response.json({ values });
  },
};
