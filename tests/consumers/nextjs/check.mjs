// Next.js 16, no configuration, built twice in turn (never two builds at once): with Turbopack (the default) and
// with `next build --webpack`. Each build is served by `next start` on 127.0.0.1 and checked: the client page in
// Chromium, and the Node and Edge route handlers by HTTP (the four APIs on the server, then parseJsonArray's
// reshaped upstream array through StreamedJsonResponse, compared with what it must be). Every part is tried;
// the failures are listed at the end.
// The Edge route is built and checked on Turbopack only: `next build --webpack` (16.5.0) fails on any Edge route
// handler, one without imports too ("ENOENT ... app/api/edge/route_client-reference-manifest.js", "Failed to
// collect page data for /api/edge"), a Next.js defect; it is moved aside for that build.
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { checkPage } from '../lib/browser.mjs';
import { checkRoute } from '../lib/route_check.mjs';
import { freePort, startServer } from '../lib/serve.mjs';

const next = 'node_modules/.bin/next';
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
const failures = [];

for (const bundler of ['turbopack', 'webpack']) {
  rmSync('.next', { recursive: true, force: true });
  const edge = bundler === 'turbopack';
  if (!edge) renameSync('app/api/edge', 'edge-route.aside');
  const started = Date.now();
  try {
    execFileSync(next, ['build', ...(bundler === 'webpack' ? ['--webpack'] : [])], { env, stdio: 'inherit' });
  } catch (error) {
    failures.push(`${bundler}: next build failed (${error.status})`);
    continue;
  } finally {
    if (!edge) renameSync('edge-route.aside', 'app/api/edge');
  }
  console.log(`next build (${bundler}): ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  const server = await startServer(next, ['start', '-H', '127.0.0.1', '-p', String(port)], { url: base, env });
  const parts = [
    ['client page', async () => (await checkPage(base, ['chromium'])).join('; ')],
    ['Node route', () => checkRoute(`${base}api/node`, 'nodejs')],
  ];
  if (edge) parts.push(['Edge route', () => checkRoute(`${base}api/edge`, 'edge')]);
  for (const [part, run] of parts) {
    try {
      console.log(`next ${bundler} ${part}: ${await run()}`);
    } catch (error) {
      failures.push(`${bundler} ${part}: ${error.message}`);
    }
  }
  await server.stop();
  if (failures.some((failure) => failure.startsWith(bundler)))
    console.error(`next start's output:\n${server.output()}`);
}
if (failures.length > 0) {
  console.error(`FAILED:\n${failures.join('\n')}`);
  process.exit(1);
}
