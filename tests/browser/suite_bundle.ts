// The runner-neutral suites bundled for a page with esbuild: `api` is tests/runtime/api.ts, `lazy` and `partial`
// are tests/runtime/suites/lazy.ts and partial.ts (Deno and Bun run all three: tests/runtime/all.ts). The built
// package stays external (the page imports /dist/index.js, the same module instance the runner initialises), and
// the few Node built-ins the suites use read files are replaced by an in-memory copy of the JSONTestSuite files
// the conformance cases read (node:fs) and small stand-ins (node:path, node:url, node:process, node:fs/promises).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SUITE_ENTRIES = {
  api: join(ROOT, 'tests/browser/page/suite_api.ts'),
  lazy: join(ROOT, 'tests/browser/page/suite_lazy.ts'),
  partial: join(ROOT, 'tests/browser/page/suite_partial.ts'),
} as const;
export type SuiteName = keyof typeof SUITE_ENTRIES;

/** The files the page's node:fs serves, by the path the suites compute from `import.meta.url` (/corpus/...). */
function corpusModule(): string {
  const dir = join(ROOT, 'tests/corpus/JSONTestSuite');
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).filter((n) => /^[yn]_.*\.json$/.test(n))) {
    files[`/corpus/JSONTestSuite/${name}`] = readFileSync(join(dir, name)).toString('base64');
  }
  return `const FILES = ${JSON.stringify(files)};
const bytesOf = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
export function readdirSync(dir) {
  const prefix = dir.endsWith('/') ? dir : dir + '/';
  return Object.keys(FILES).filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
}
export function readFileSync(path) {
  if (!(path in FILES)) throw new Error('not in the page bundle: ' + path);
  return bytesOf(FILES[path]);
}`;
}

const SHIMS: Record<string, () => string> = {
  'node:fs': corpusModule,
  'node:fs/promises': () => 'export async function readFile(path) { throw new Error("no files in a page: " + path); }',
  'node:path': () => "export function join(...parts) { return parts.join('/').replace(/\\/+/g, '/'); }",
  'node:url': () => 'export function fileURLToPath(url) { return decodeURIComponent(new URL(url).pathname); }',
  'node:process': () => 'export default { env: {} };',
};

const pagePlugin: Plugin = {
  name: 'sluice-page',
  setup(b) {
    // ../../../dist/index.js and friends -> /dist/index.js, loaded by the page itself.
    b.onResolve({ filter: /\/dist\/.+\.js$/ }, (args) => ({
      path: `/dist/${args.path.split('/dist/').pop()}`,
      external: true,
    }));
    b.onResolve({ filter: /^node:/ }, (args) => {
      if (!SHIMS[args.path])
        return { errors: [{ text: `${args.path} has no stand-in in a page (tests/browser/suite_bundle.ts)` }] };
      return { path: args.path, namespace: 'shim' };
    });
    b.onLoad({ filter: /.*/, namespace: 'shim' }, (args) => ({ contents: SHIMS[args.path]!(), loader: 'js' }));
  },
};

/** The page module of `name`, as JavaScript text. */
export async function bundleSuite(name: SuiteName): Promise<string> {
  const result = await build({
    entryPoints: [SUITE_ENTRIES[name]],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
    // The suites register their cases by being imported; package.json's "sideEffects": false would drop them.
    ignoreAnnotations: true,
    plugins: [pagePlugin],
  });
  return result.outputFiles[0]!.text;
}
