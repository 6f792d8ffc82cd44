// Astro with the Node adapter (standalone), no configuration for sluice: the built server on 127.0.0.1, its page
// in Chromium and its on-demand route by HTTP.
import { checkPage } from '../lib/browser.mjs';
import { checkRoute } from '../lib/route_check.mjs';
import { freePort, startServer } from '../lib/serve.mjs';

const port = await freePort();
const base = `http://127.0.0.1:${port}/`;
const server = await startServer('node', ['dist/server/entry.mjs'], {
  url: base,
  env: { HOST: '127.0.0.1', PORT: String(port) },
});
try {
  for (const line of await checkPage(base, ['chromium'])) console.log(`astro page: ${line}`);
  console.log(`astro route: ${await checkRoute(`${base}api/items`, 'astro')}`);
} catch (error) {
  console.error(server.output());
  throw error;
} finally {
  await server.stop();
}
