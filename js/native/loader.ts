// Finds, compiles (module_source.ts) and instantiates the WebAssembly module, once, and warms it up.
import { SluiceLoadError } from '../errors.js';
import { parserWasmUrl } from '../parser_wasm.js';
import { NativeRuntime, VIEW_INPUT_PTR } from './contract.js';
import { checkModuleSource, compile, type ModuleSource } from './module_source.js';
import { bindParserModule, PARSER_EXPORTS, type ParserExports } from './native_module.js';
import { checkOptions, misuse, type ApiName } from '../validate.js';

/** Options of {@link init}. */
export interface InitOptions {
  /**
   * The lazy index's module (what {@link lazyParse} runs on), in any form `module` takes. init() loads it only where
   * lazyParse is in the bundle (or the whole package is imported, as in Node without a bundler). By default, the
   * build next to the package that matches the parser's: `sluice-lazy.simd.wasm` or `sluice-lazy.scalar.wasm`,
   * which holds the parser too, so init() without `module` then loads it alone, for both. Cloudflare Workers, which
   * cannot fetch or compile it themselves: `import lazy from 'sluice/sluice-lazy.simd.wasm'`, then `init(lazy)`
   * (or `init(wasm, { lazyModule: lazy })`).
   *
   * Given here, a failure to load it rejects init(); loaded by default, it leaves init() fulfilled (the parser
   * works) and lazyParse() throws the SluiceLoadError.
   */
  readonly lazyModule?: ModuleSource | PromiseLike<ModuleSource>;
}

/**
 * @internal A module init() loads next to the parser's: js/lazy registers the lazy index's as it is evaluated, so
 * bundles without lazyParse neither load nor ship it. Called once per init(); resolves when that module is ready
 * (or, for the default module, has failed: lazyParse then reports it).
 */
export type CompanionLoader = (
  runtime: NativeRuntime,
  module: ModuleSource | PromiseLike<ModuleSource> | undefined,
) => Promise<void>;

let companion: CompanionLoader | undefined;
let companionUrl: ((simd: boolean) => URL) | undefined;

/**
 * @internal Registers the lazy index's loader (js/lazy/native_lazy.ts), and the module init() then loads by default
 * in place of the parser's: the lazy index's, which holds the parser too (wasm/CMakeLists.txt), so that a page
 * with lazyParse downloads one module.
 */
export function registerCompanion(loader: CompanionLoader, defaultUrl: (simd: boolean) => URL): void {
  companion = loader;
  companionUrl = defaultUrl;
}

const compiled = new WeakMap<NativeRuntime, WebAssembly.Module>();

/** @internal The compiled module `runtime` is an instance of (the lazy index instantiates it again if it can). */
export function runtimeModule(runtime: NativeRuntime): WebAssembly.Module | undefined {
  return compiled.get(runtime);
}

// The smallest module using a SIMD128 instruction: (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt).
// Engines without SIMD reject it in validate(), which is what picks the scalar build.
const SIMD_PROBE = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // magic, version 1
  0x01,
  0x05,
  0x01,
  0x60,
  0x00,
  0x01,
  0x7b, // type section: () -> v128
  0x03,
  0x02,
  0x01,
  0x00, // function section: one function of type 0
  0x0a,
  0x0a,
  0x01,
  0x08,
  0x00,
  0x41,
  0x00,
  0xfd,
  0x0f,
  0xfd,
  0x62,
  0x0b, // code: i32.const 0, splat, popcnt, end
]);

let current: Promise<NativeRuntime> | undefined;
let warmUpWanted = true;

/**
 * @internal Loads without the warm-up parse (the command line: its first read compiles what the scan runs and
 * nothing else, where the warm-up also compiles the value and byte-range modes it never uses).
 */
export function skipWarmUp(): void {
  warmUpWanted = false;
}

let currentInput: unknown;
let loaded: NativeRuntime | undefined;
let provided: ModuleSource | undefined;

/**
 * @internal The module init() loads when given none, in place of the file beside the package: the edge entry
 * (js/edge.ts) imports it as a module where the runtime compiles it (workerd, Next.js Edge routes); Bun's
 * (js/bun.ts) imports its path, which `bun build` copies beside the bundle.
 */
export function provideModule(module: ModuleSource): void {
  provided = module;
}

/**
 * Loads the WebAssembly module. Optional: the first {@link parseJsonArray} or {@link JsonArrayStream} loads the
 * default build, but {@link createParser} is synchronous and needs `await init()` first.
 *
 * `module` may be a compiled `WebAssembly.Module` (Cloudflare Workers: `import wasm from 'sluice/sluice.simd.wasm'`),
 * a `URL` or URL string, a `Response`, the bytes, or a promise of one of them. By default the SIMD build next to
 * the package is used where the engine validates SIMD128, the scalar build elsewhere. The result is cached:
 * concurrent calls share one load, and a later call with a different module replaces it for parsers created
 * afterwards. Where lazyParse is in the bundle, init() also loads the lazy index's module
 * ({@link InitOptions.lazyModule}).
 *
 * @throws {SluiceLoadError} when the module cannot be fetched, compiled or instantiated (`cause` says why).
 * @throws {TypeError} for a `module` (or what its promise gives) of another type, or invalid options.
 */
export function init(module?: ModuleSource | PromiseLike<ModuleSource>, options?: InitOptions): Promise<void> {
  let lazyModule: InitOptions['lazyModule'];
  try {
    lazyModule = checkOptions('init()', options, ['lazyModule']).lazyModule as InitOptions['lazyModule'];
  } catch (error) {
    return Promise.reject(error);
  }
  if (module === undefined && provided !== undefined) {
    // The edge or Bun entry's: the lazy index's module, which holds the parser too (loaded once, for both).
    module = provided;
    lazyModule ??= provided;
  }
  if (current === undefined || (module !== undefined && module !== currentInput)) {
    const loading = load(module);
    current = loading;
    currentInput = module;
    // Registered before any caller's then(), so `loaded` is set by the time `await init()` returns.
    loading.then(
      (runtime) => {
        if (current === loading) loaded = runtime;
      },
      () => {
        // Forget the failure so a later init() retries; parsers keep the module loaded before, if any.
        if (current === loading) {
          current = loaded === undefined ? undefined : Promise.resolve(loaded);
          currentInput = undefined;
        }
      },
    );
  }
  return current.then((runtime) => (companion === undefined ? undefined : companion(runtime, lazyModule)));
}

function noop(): void {}

/** @internal The module parsers use, loading the default one first if nobody called {@link init}. */
export function loadRuntime(): Promise<NativeRuntime> {
  if (current === undefined) init().catch(noop);
  return current!;
}

/**
 * @internal The loaded module. Before one is loaded, a synchronous API (`createParser()`, `lazyParse()`) is called
 * in the wrong state: a TypeError telling the user to `await init()`.
 */
export function requireRuntime(api: ApiName): NativeRuntime {
  if (loaded === undefined) throw misuse(api, 'the WebAssembly module is not loaded yet: call `await init()` first');
  return loaded;
}

/** @internal The loaded module, if any. */
export function loadedRuntime(): NativeRuntime | undefined {
  return loaded;
}

/** @internal Whether the engine validates SIMD128, which picks the default build. */
export function simdSupported(): boolean {
  return WebAssembly.validate(SIMD_PROBE);
}

/** @internal The build init() loads by default: SIMD where the engine validates SIMD128, else scalar. */
function defaultModuleUrl(): URL {
  return parserWasmUrl(simdSupported());
}

async function load(input: ModuleSource | PromiseLike<ModuleSource> | undefined): Promise<NativeRuntime> {
  // By default where lazyParse is in the bundle, the lazy index's module, which holds the parser too; failing that,
  // the parser's (lazyParse() then reports why the index could not be had).
  const lazyUrl = input === undefined ? companionUrl : undefined;
  const module =
    (lazyUrl !== undefined && (await compileModule(undefined, () => lazyUrl(simdSupported()), '', '').catch(noop))) ||
    (await compileModule(input, defaultModuleUrl, 'module', 'the WebAssembly module'));
  try {
    return await instantiate(module);
  } catch (error) {
    throw new SluiceLoadError(`sluice: cannot instantiate the WebAssembly module: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/**
 * @internal The compiled module for what init() was given as `subject` (`module`, `options.lazyModule`), or from
 * `defaultUrl()` when nothing was. A SluiceLoadError naming `what` when it cannot be had; a TypeError for a source
 * of another type.
 */
export async function compileModule(
  input: ModuleSource | PromiseLike<ModuleSource> | undefined,
  defaultUrl: () => URL,
  subject: string,
  what: string,
): Promise<WebAssembly.Module> {
  let source: unknown;
  try {
    source = input === undefined ? defaultUrl() : await input;
  } catch (error) {
    throw new SluiceLoadError(`sluice: cannot load ${what}: ${messageOf(error)}`, { cause: error });
  }
  // Misuse, not a failure to load: a TypeError of its own (rejecting init()'s promise), never wrapped.
  checkModuleSource(source, subject);
  try {
    return await compile(source);
  } catch (error) {
    throw new SluiceLoadError(`sluice: cannot load ${what}: ${messageOf(error)}`, { cause: error });
  }
}

/** @internal */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** @internal The imports of a bare Emscripten module (STANDALONE_WASM), the parser's and the lazy index's. */
export function bareImports(what: string): WebAssembly.Imports {
  return {
    // Views are re-created when memory.buffer changed (NativeRuntime.sync): nothing to do when it grows.
    env: { emscripten_notify_memory_growth() {} },
    // Reached only on a native abort, which the core never calls for (allocation failures are statuses).
    wasi_snapshot_preview1: {
      proc_exit(code: number): never {
        throw new Error(`${what} exited (${code})`);
      },
    },
  };
}

async function instantiate(module: WebAssembly.Module): Promise<NativeRuntime> {
  const names = WebAssembly.Module.exports(module).map((e) => e.name);
  if (!['memory', '_initialize', ...PARSER_EXPORTS].every((name) => names.includes(name))) {
    throw new Error("this is not sluice's parser module (sluice.*.wasm)");
  }
  const instance = await WebAssembly.instantiate(module, bareImports("sluice's module"));
  const exports = instance.exports;
  // The WASI reactor's constructors.
  (exports._initialize as () => void)();
  const memory = exports.memory as WebAssembly.Memory;
  const runtime = new NativeRuntime(bindParserModule(exports as unknown as ParserExports, memory), memory);
  compiled.set(runtime, module);
  if (warmUpWanted) warmUp(runtime);
  return runtime;
}

/**
 * Engines compile wasm lazily and optimise only what runs hot, so the first chunk of the first parse paid for
 * compiling the scanner (tens of milliseconds on Node 20: most of the time to the first element). Parsing a small
 * document that takes every hot path moves that cost into init(), once per module.
 */
function warmUp(runtime: NativeRuntime): void {
  // JSON text (String.raw keeps its escapes for the parser): every escape kind, 2-, 3- and 4-byte UTF-8, numbers,
  // literals, nesting. The tests check it parses cleanly (warmUpStatus()): an error would end the warm-up early. The
  // raw UTF-8 is interpolated, a string bundlers escape: bundled code stays ASCII, which V8 keeps as one-byte text.
  const row = String.raw`{"id":12,"name":"caf\u00e9 \\ \"q\" \/\b\f\n\r\t \ud83d\ude00 ${'é 中文 😀'}","n":-1.5e3,"ok":true,"none":null,"tags":["a",[0,1],{}]}`;
  const text = new TextEncoder().encode(`{"rows":[${new Array(200).fill(row).join(',')}],"total":200}\n`);
  // NDJSON (flag 1), so the document can be fed again and again; value batches (2), then byte ranges (4).
  for (const flags of [1 | 2, 1 | 4]) {
    const parser = new runtime.native_.Parser(1024, 1 << 20, flags);
    try {
      parser.addPath('$.rows[*]');
      for (let round = 0; round < 4; ++round) {
        runtime.sync_();
        runtime.u8_.set(text, runtime.u32_[runtime.view_ + VIEW_INPUT_PTR]!);
        const status = parser.feed(text.length);
        if (status !== 0) {
          if (runtime.warmUpStatus_ === 0) runtime.warmUpStatus_ = status;
          break;
        }
      }
    } finally {
      parser.delete();
    }
  }
}
