// Runs Cloudflare's real runtime offline: a worker is bundled with esbuild the way wrangler bundles it (the
// `.wasm` import kept as a module import, so workerd hands the worker a compiled WebAssembly.Module), then served
// by `workerd serve` (npm package `workerd`) on 127.0.0.1 from a generated config. Nothing is compiled from bytes
// and nothing is eval'ed: workerd refuses both, so a test passing here proves the package needs neither.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { freePort } from '../browser/http.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKERD = join(ROOT, 'node_modules', '.bin', 'workerd');
// A date this workerd release supports; the date selects runtime behaviour, so it is fixed, not "today".
export const COMPATIBILITY_DATE = '2025-09-01';

export interface WasmModule {
  /** The specifier the worker imports, e.g. `sluice/sluice.simd.wasm`. */
  readonly name: string;
  readonly file: string;
}

export interface WorkerSpec {
  /** The worker's entry module (it may import 'sluice' and `sluice/*.wasm`). */
  readonly entry: string;
  /** Directory to resolve 'sluice' from (a folder whose node_modules has it, or the repository itself). */
  readonly resolveDir?: string;
  readonly wasm: readonly WasmModule[];
  /** Service bindings to HTTP servers outside workerd: binding name -> `127.0.0.1:port`. */
  readonly externals?: Readonly<Record<string, string>>;
}

export interface RunningWorkerd {
  readonly origin: string;
  /** Everything workerd printed: the worker's console output and workerd's errors. */
  readonly output: () => string;
  stop(): Promise<void>;
}

/**
 * Bundles `entry` as wrangler would: ESM, worker conditions, `.wasm` imports left to the runtime. Resolves with the
 * `x.wasm?module` imports (the package's workerd entry, dist/edge.js): each left as the module `x.wasm`, to embed.
 */
export async function bundleWorker(entry: string, outfile: string, resolveDir?: string): Promise<WasmModule[]> {
  const imported: WasmModule[] = [];
  await build({
    plugins: [
      {
        name: 'wasm-module',
        setup(bundler) {
          bundler.onResolve({ filter: /\.wasm\?module$/ }, (args) => {
            const file = join(args.resolveDir, args.path.replace(/\?module$/, ''));
            if (!imported.some((module) => module.file === file)) imported.push({ name: basename(file), file });
            return { path: basename(file), external: true };
          });
        },
      },
    ],
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['*.wasm'],
    logLevel: 'error',
    ...(resolveDir ? { nodePaths: [join(resolveDir, 'node_modules')] } : {}),
  });
  return imported;
}

function capnpString(text: string): string {
  return JSON.stringify(text);
}

function configText(spec: WorkerSpec, wasmFiles: string[], port: number): string {
  const externals = Object.entries(spec.externals ?? {});
  const modules = [
    '(name = "worker.js", esModule = embed "worker.js")',
    ...spec.wasm.map((module, i) => `(name = ${capnpString(module.name)}, wasm = embed ${capnpString(wasmFiles[i]!)})`),
  ];
  const bindings = externals.map(([name]) => `(name = ${capnpString(name)}, service = ${capnpString(`ext-${name}`)})`);
  const services = [
    `(name = "main", worker = (modules = [${modules.join(', ')}], compatibilityDate = "${COMPATIBILITY_DATE}", ` +
      `bindings = [${bindings.join(', ')}]))`,
    ...externals.map(
      ([name, address]) =>
        `(name = ${capnpString(`ext-${name}`)}, external = (address = ${capnpString(address)}, http = ()))`,
    ),
  ];
  return [
    'using Workerd = import "/workerd/workerd.capnp";',
    'const config :Workerd.Config = (',
    `  services = [${services.join(',\n    ')}],`,
    `  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],`,
    ');',
    '',
  ].join('\n');
}

function waitForPort(port: number, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        reject(new Error(`workerd exited (${child.exitCode ?? child.signalCode}):\n${output()}`));
        return;
      }
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline)
          reject(new Error(`workerd did not listen on ${port} in ${timeoutMs} ms:\n${output()}`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

/**
 * Serves `config` (a workerd config whose socket is named `http`) on a free port of 127.0.0.1, overriding the
 * socket's address; `cleanup` runs after workerd stopped.
 */
export async function serveConfig(
  config: string,
  cwd: string,
  cleanup: () => void = () => {},
): Promise<RunningWorkerd> {
  // Another process may take the free port before workerd binds it: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(WORKERD, ['serve', config, '--verbose', '--socket-addr', `http=127.0.0.1:${port}`], {
      cwd,
      env: { ...process.env, PWD: cwd },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout!.on('data', (data) => {
      printed += data;
    });
    child.stderr!.on('data', (data) => {
      printed += data;
    });
    const output = () => printed;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await waitForPort(port, child, output, 30_000);
    } catch (error) {
      child.kill('SIGKILL');
      await exited;
      if (attempt < 3 && /address already in use/i.test(printed)) continue;
      cleanup();
      throw error;
    }
    return {
      origin: `http://127.0.0.1:${port}`,
      output,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          await exited;
          clearTimeout(timer);
        }
        cleanup();
      },
    };
  }
}

/** Bundles the worker into a temporary directory and serves it with workerd on a free port. */
export async function startWorkerd(spec: WorkerSpec): Promise<RunningWorkerd> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-workerd-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const imported = await bundleWorker(spec.entry, join(dir, 'worker.js'), spec.resolveDir);
    spec = { ...spec, wasm: [...spec.wasm, ...imported] };
    const wasmFiles = spec.wasm.map((module, i) => {
      const name = `${i}-${basename(module.file)}`;
      copyFileSync(module.file, join(dir, name));
      return name;
    });
    // The socket's address is overridden on the command line; the one written here is never used.
    writeFileSync(join(dir, 'config.capnp'), configText(spec, wasmFiles, 8787));
  } catch (error) {
    cleanup();
    throw error;
  }
  return serveConfig(join(dir, 'config.capnp'), dir, cleanup);
}
