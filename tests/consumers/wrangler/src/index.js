// A Worker as users write it: `import ... from 'sluice'`, no .wasm import, no init() argument. The package's
// `workerd` condition gives the entry that imports its .wasm as a module (wrangler bundles it as CompiledWasm).
import * as sluice from 'sluice';
import { exercise } from '../../lib/usage.mjs';

export default {
  async fetch(request) {
    if (request.method === 'POST') {
      const ids = [];
      for await (const row of sluice.parseJsonArray(request.body, { path: '$.rows[*]' })) ids.push(row.id);
      return Response.json({ ids });
    }
    return Response.json(await exercise(sluice));
  },
};
