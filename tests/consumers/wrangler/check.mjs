// Serves what `wrangler deploy --dry-run --outdir out` bundled (exactly what it would upload: the worker and its
// .wasm modules) with workerd, the runtime wrangler installed, and checks the answers over HTTP.
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

const modules = readdirSync('out').filter((name) => /\.(js|wasm)$/.test(name));
const wasm = modules.filter((name) => name.endsWith('.wasm'));
if (wasm.length === 0) throw new Error(`wrangler bundled no .wasm module: ${modules.join(', ')}`);
const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const list = [
  '(name = "index.js", esModule = embed "out/index.js")',
  ...wasm.map((name) => `(name = "${name}", wasm = embed "out/${name}")`),
];
writeFileSync(
  'config.capnp',
  `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = (modules = [${list.join(', ')}], compatibilityDate = "2025-09-01"))],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
`,
);
const child = spawn('workerd', ['serve', 'config.capnp'], { stdio: ['ignore', 'inherit', 'inherit'] });
const origin = `http://127.0.0.1:${port}`;
try {
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(origin);
      break;
    } catch (error) {
      if (attempt > 150 || child.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const usage = await response.json();
  if (response.status !== 200 || usage.ok !== true) throw new Error(`GET: ${response.status} ${JSON.stringify(usage)}`);
  const rows = Array.from({ length: 1000 }, (_, id) => ({ id, name: `row ${id}` }));
  const posted = await fetch(origin, { method: 'POST', body: JSON.stringify({ rows }) });
  const { ids } = await posted.json();
  if (JSON.stringify(ids) !== JSON.stringify(rows.map((row) => row.id))) throw new Error(`POST: got ${ids}`);
  console.log(`wrangler + workerd: ${wasm.join(', ')}; ${JSON.stringify(usage)}; ${ids.length} rows streamed`);
} finally {
  child.kill();
}
