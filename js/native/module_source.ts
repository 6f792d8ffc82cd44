// What init() accepts as a module (ModuleSource), checked, and compiled: a compiled module as it is (never compiled
// again: Cloudflare Workers forbid compiling from bytes), a URL fetched or, outside a page, read from a file beside
// the package, a Response, the bytes.
import { isArrayBuffer, isResponse, isUrl, isWasmModule } from '../realm.js';
import { mustBe } from '../validate.js';

/**
 * `WebAssembly.Module`, named through `globalThis` so the declarations also compile in Node-only type setups
 * (`@types/node` without the DOM lib), which have no `WebAssembly` namespace.
 */
export type CompiledModule = typeof globalThis extends {
  // biome-ignore lint/suspicious/noExplicitAny: any constructor's arguments, to infer what it constructs
  WebAssembly: { Module: abstract new (...args: any[]) => infer M };
}
  ? M
  : never;

/** What {@link init} accepts: a compiled module, where to get one, or its bytes (or a promise of any of them). */
export type ModuleSource = CompiledModule | URL | string | Response | ArrayBuffer | ArrayBufferView;

/** @internal A TypeError naming `subject` (init()'s argument or option) unless `input` is a ModuleSource. */
export function checkModuleSource(input: unknown, subject: string): asserts input is ModuleSource {
  // Of any realm: Next.js compiles its `?module` imports in the vm context of its Edge sandbox (js/realm.ts).
  if (isWasmModule(input) || typeof input === 'string' || isUrl(input)) return;
  if (isArrayBuffer(input) || ArrayBuffer.isView(input)) return;
  if (isResponse(input)) return;
  throw mustBe('init()', subject, 'a WebAssembly.Module, a URL, a URL string, a Response or bytes', input);
}

/** @internal Compiles what checkModuleSource() accepted. */
export async function compile(input: ModuleSource): Promise<WebAssembly.Module> {
  if (isWasmModule(input)) return input;
  if (typeof input === 'string' || isUrl(input)) return compileUrl(toUrl(input));
  if (isArrayBuffer(input)) return WebAssembly.compile(input);
  if (ArrayBuffer.isView(input)) {
    const view = input as ArrayBufferView;
    return WebAssembly.compile(new Uint8Array(view.buffer, view.byteOffset, view.byteLength) as BufferSource);
  }
  return compileResponse(input as Response);
}

/**
 * The URL to read, or the path of a relative one that cannot be resolved against a page (Node, Deno, Bun: no
 * `location`). A URL of any realm, or webpack's RelativeURL (Next.js's `--webpack` server bundles: a URL object whose
 * href is a path such as `/_next/static/media/sluice.simd.<hash>.wasm`).
 */
function toUrl(input: string | URL): URL | string {
  const href = typeof input === 'string' ? input : String(input.href);
  // Relative URL strings resolve against the page, as fetch() would.
  const base = (globalThis as { location?: { href?: string } }).location?.href;
  if (base !== undefined) return new URL(href, base);
  return /^[a-z][a-z0-9+.-]*:/i.test(href) ? new URL(href) : href;
}

// Hidden from bundlers, which would otherwise try to resolve a Node built-in for the browser.
const FS_MODULE = 'node:fs/promises';

interface Fs {
  readFile(path: URL): Promise<Uint8Array>;
}

async function nodeFs(): Promise<Fs> {
  // Node, Deno and Bun: fetch() does not read file: URLs everywhere, but all three provide node:fs.
  return (await import(/* @vite-ignore */ /* webpackIgnore: true */ FS_MODULE)) as Fs;
}

async function compileUrl(url: URL | string): Promise<WebAssembly.Module> {
  if (typeof url === 'string') return WebAssembly.compile((await readBeside(url, await nodeFs())) as BufferSource);
  if (url.protocol === 'file:') return WebAssembly.compile((await (await nodeFs()).readFile(url)) as BufferSource);
  return compileResponse(await fetch(url));
}

/**
 * A relative URL outside a page: the file at that path under this module's folder or one of its parents, its
 * leading segments dropped one by one. A server bundle names an emitted asset by its public path
 * (`/_next/static/media/x.wasm` is `.next/static/media/x.wasm`, and the chunk is in `.next/server/chunks/`);
 * fetch() cannot read it. Then the same name without the bundler's hash (`sluice.simd.6002eca2.wasm` is
 * `sluice.simd.wasm`): webpack replaces `import.meta.url` with the loader's source file at build time, so in
 * Next.js `--webpack` server bundles the folders searched are the package's in `node_modules`, which hold it.
 */
async function readBeside(path: string, fs: Fs): Promise<Uint8Array> {
  const segments = path
    .replace(/[?#].*$/, '')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');
  const unhashed = segments.at(-1)?.replace(/\.[0-9a-f]{8,}(?=\.wasm$)/, '');
  // Folders as strings, never `new URL('<literal>', import.meta.url)`: webpack and Turbopack take that pattern for
  // an asset to emit, and a folder fails their build ("Module not found: Can't resolve './'"), even through a variable.
  const here = import.meta.url;
  const start = here.slice(0, here.lastIndexOf('/') + 1);
  for (const names of [segments, unhashed && unhashed !== segments.at(-1) ? [unhashed] : []]) {
    for (let folder = start; ; ) {
      for (let first = 0; first < names.length; ++first) {
        try {
          return await fs.readFile(new URL(names.slice(first).join('/'), folder));
        } catch {
          // Not there: a shorter path, or the parent folder.
        }
      }
      const parent = folder.replace(/[^/]+\/$/, '');
      if (parent === folder) break;
      folder = parent;
    }
  }
  throw new Error(`no file ${path} under ${start} or its parent folders`);
}

async function compileResponse(response: Response): Promise<WebAssembly.Module> {
  if (!response.ok) {
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    throw new Error(response.url ? `${status} for ${response.url}` : status);
  }
  const type = response.headers.get('content-type') ?? '';
  // compileStreaming consumes the body and rejects other content types, so decide before calling it.
  if (typeof WebAssembly.compileStreaming === 'function' && /^application\/wasm\b/i.test(type)) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}
