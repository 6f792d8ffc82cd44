// Vite, no configuration: the production build served by `vite preview`, then the dev server (which pre-bundles
// dependencies), each page in Chromium and Firefox.
import { checkPage } from '../lib/browser.mjs';
import { freePort, startServer } from '../lib/serve.mjs';

const vite = 'node_modules/.bin/vite';
for (const [mode, args] of [
  ['preview', ['preview']],
  ['dev', []],
]) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const server = await startServer(vite, [...args, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    url,
  });
  try {
    for (const line of await checkPage(url, ['chromium', 'firefox'])) console.log(`vite ${mode}: ${line}`);
  } catch (error) {
    console.error(server.output());
    throw error;
  } finally {
    await server.stop();
  }
}
