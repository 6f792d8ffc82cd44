// The lazy half of the binding contract (wasm/lazy_bindings.cpp): the lazy index's module (the parser's with the
// index added), a bare wasm module with plain C exports and the static `lazy_out` record they report through,
// loaded by init() where this file is in the bundle (registerCompanion, below), and instantiated apart from the
// parsers' instance (its own memory and heap). Nothing here is exported to users.
import { errorFromStatus, SluiceLoadError, type ParserLimits } from '../errors.js';
import { Heap, type BuildKind, type NativeRuntime } from '../native/contract.js';
import {
  bareImports,
  compileModule,
  messageOf,
  registerCompanion,
  requireRuntime,
  runtimeModule,
} from '../native/loader.js';
import type { ModuleSource } from '../native/module_source.js';
import { misuse } from '../validate.js';
import { lazyWasmUrl } from '../lazy_wasm.js';
import { OUT_ERROR_BYTE, OUT_ERROR_COLUMN, OUT_ERROR_LINE, OUT_ERROR_OFFSET } from './lazy_contract.js';

/** The raw exports. Pointers and sizes are numbers; every call may grow memory (re-sync views after it). */
export interface LazyExports {
  lazy_out_address(): number;
  lazy_index_new(maxDepth: number): number;
  lazy_index_delete(index: number): void;
  lazy_index_reserve(index: number, n: number): number;
  lazy_index_build(index: number, n: number): number;
  lazy_index_containers(index: number): number;
  lazy_index_children(index: number, container: number): number;
  lazy_index_locate(index: number, start: number, end: number): number;
  /** Tests: bytes malloc'ed in the module right now. */
  lazy_heap_in_use(): number;
  /** Tests: 1 for the SIMD128 build. */
  lazy_build_simd(): number;
}

/** Every export of the module JS reads: tests/node/wasm_exports.test.ts checks the module has no others. */
export const LAZY_EXPORTS = [
  'lazy_out_address',
  'lazy_index_new',
  'lazy_index_delete',
  'lazy_index_reserve',
  'lazy_index_build',
  'lazy_index_containers',
  'lazy_index_children',
  'lazy_index_locate',
  'lazy_heap_in_use',
  'lazy_build_simd',
] as const satisfies readonly (keyof LazyExports)[];

/**
 * @internal A document's native index: `handle` 0 while it has none (here, not in residency.ts, which keeps the
 * set of them: the binding holds that set).
 */
export class Residency {
  handle = 0;
  /** Native bytes it holds while resident: the document, then its container table too (setSize). */
  size: number;

  constructor(size: number) {
    this.size = size;
  }
}

/** @internal The lazy module loaded next to a parser module, and the location of lazy_out. */
export interface LazyBinding {
  readonly heap: Heap;
  /** The exports, in a plain object (a test replaces one to inject a failure). */
  readonly m: LazyExports;
  readonly kind: BuildKind;
  /** u32 index of lazy_out. */
  readonly out32: number;
  /** f64 index of lazy_out. */
  readonly out64: number;
  /** The documents whose native index is resident, least recently used first (residency.ts). */
  readonly resident: Set<Residency>;
  /** Their bytes. */
  residentBytes: number;
  /** The most recently used of them (the last in `resident`), or null. */
  recent: Residency | null;
}

/** The lazy module of one parser module: what init() was given, and how loading it went. */
interface LazyLoad {
  readonly input: ModuleSource | PromiseLike<ModuleSource> | undefined;
  readonly loading: Promise<void>;
  binding?: LazyBinding;
  failure_?: unknown;
}

const loads = new WeakMap<NativeRuntime, LazyLoad>();
const LAZY_MODULE = "the lazy index's WebAssembly module";

function defaultLazyUrl(kind: BuildKind): URL {
  return lazyWasmUrl(kind === 'simd128');
}

/** init()'s part for the lazy module: loads it for `runtime` unless it is loaded (or loading) from `input`. */
function loadLazy(runtime: NativeRuntime, input: ModuleSource | PromiseLike<ModuleSource> | undefined): Promise<void> {
  const previous = loads.get(runtime);
  if (previous !== undefined && previous.failure_ === undefined && (input === undefined || input === previous.input)) {
    return previous.loading;
  }
  const kind = runtime.native_.buildKind_();
  const module = input === undefined ? runtimeModule(runtime) : undefined;
  const own = module !== undefined && hasLazyExports(module) ? module : undefined;
  const load: LazyLoad = {
    input,
    // The parser's module, when it is the lazy index's (init()'s default here, or given as `module`), instantiated
    // again: one download, and the index's heap apart from the parsers'.
    loading: (own !== undefined
      ? Promise.resolve(own)
      : compileModule(input, () => defaultLazyUrl(kind), 'options.lazyModule', LAZY_MODULE)
    )
      .then((module) => instantiateLazy(module))
      .then(
        (binding) => {
          load.binding = binding;
        },
        (error: unknown) => {
          load.failure_ = error;
          // Asked for by name, the failure is init()'s; the default one is lazyParse()'s to report.
          if (input !== undefined) throw error;
        },
      ),
  };
  // A previous binding stays in use until this one is ready.
  if (previous?.binding !== undefined && previous.failure_ === undefined) load.binding = previous.binding;
  loads.set(runtime, load);
  return load.loading;
}

function hasLazyExports(module: WebAssembly.Module): boolean {
  const names = WebAssembly.Module.exports(module).map((e) => e.name);
  return ['memory', '_initialize', ...LAZY_EXPORTS].every((name) => names.includes(name));
}

async function instantiateLazy(module: WebAssembly.Module): Promise<LazyBinding> {
  if (!hasLazyExports(module)) {
    const names = WebAssembly.Module.exports(module).map((e) => e.name);
    throw new SluiceLoadError("sluice: this is not the lazy index's WebAssembly module (sluice-lazy.*.wasm)", {
      cause: names,
    });
  }
  let instance: WebAssembly.Instance;
  try {
    instance = await WebAssembly.instantiate(module, bareImports("the lazy index's module"));
  } catch (error) {
    throw new SluiceLoadError(`sluice: cannot instantiate the lazy index's WebAssembly module: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const exports = instance.exports;
  const m = {} as Record<string, unknown>;
  for (const name of LAZY_EXPORTS) m[name] = exports[name];
  // The WASI reactor's constructors.
  (exports._initialize as () => void)();
  const lazy = m as unknown as LazyExports;
  const address = lazy.lazy_out_address();
  return {
    heap: new Heap(exports.memory as WebAssembly.Memory),
    m: lazy,
    kind: lazy.lazy_build_simd() === 1 ? 'simd128' : 'scalar',
    out32: address >>> 2,
    out64: address >>> 3,
    resident: new Set(),
    residentBytes: 0,
    recent: null,
  };
}

registerCompanion(loadLazy, (simd) => defaultLazyUrl(simd ? 'simd128' : 'scalar'));

/**
 * @internal The lazy module of the parser module in use. A TypeError before init() has loaded it; the
 * SluiceLoadError when loading it failed.
 */
export function lazyBinding(api: string): LazyBinding {
  const runtime = requireRuntime(api);
  const load = loads.get(runtime);
  if (load?.binding !== undefined) return load.binding;
  if (load?.failure_ !== undefined) {
    const cause = load.failure_;
    throw new SluiceLoadError(
      `${api}: the lazy index's WebAssembly module could not be loaded (${messageOf(cause)}); pass it as ` +
        'init(module, { lazyModule })',
      { cause },
    );
  }
  throw misuse(api, "the lazy index's WebAssembly module is not loaded yet: call `await init()` first");
}

/** @internal The lazy module of `runtime`, if loaded (test hooks). */
export function loadedLazyBinding(runtime: NativeRuntime): LazyBinding | undefined {
  return loads.get(runtime)?.binding;
}

/** @internal The error lazy_out describes (status = a native error code), positioned absolutely. */
export function lazyError(binding: LazyBinding, status: number, limits: ParserLimits): Error {
  const heap = binding.heap;
  heap.sync_();
  const f64 = heap.f64_;
  return errorFromStatus(
    status,
    heap.u32_[binding.out32 + OUT_ERROR_BYTE]!,
    {
      offset: f64[binding.out64 + OUT_ERROR_OFFSET]!,
      line: f64[binding.out64 + OUT_ERROR_LINE]!,
      column: f64[binding.out64 + OUT_ERROR_COLUMN]!,
    },
    limits,
  );
}
