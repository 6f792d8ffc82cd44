// Cloudflare Worker consumer as users write it: only `import ... from 'sluice'`, no .wasm import, no init() argument:
// the package's `workerd` condition gives dist/edge.js, which imports the .wasm as a module itself.
import { lazyParse, parseJsonArray, init } from 'sluice';

export default {
  async fetch(request) {
    const text = await request.text();
    const values = [];
    for await (const value of parseJsonArray(text, { path: '$[*]', output: 'text' })) values.push(value);
    await init();
    return Response.json({ values, lazy: lazyParse(text)[1].a });
  },
};
