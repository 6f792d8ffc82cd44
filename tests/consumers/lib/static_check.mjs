// The check of a bundler project whose build wrote a static site (index.html at the project's root and the bundle
// in dist/, or everything in the folder given with `--root`): served from 127.0.0.1, the page run in each engine
// named on the command line (Chromium by default).
import { checkPage } from './browser.mjs';
import { serveStatic } from './serve.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--root');
const root = at >= 0 ? args.splice(at, 2)[1] : '.';
const engines = args;
const server = await serveStatic(root);
try {
  for (const line of await checkPage(server.url, engines.length > 0 ? engines : ['chromium'])) {
    console.log(`${process.env.SLUICE_CONSUMER ?? 'page'}: ${line}`);
  }
} finally {
  await server.close();
}
