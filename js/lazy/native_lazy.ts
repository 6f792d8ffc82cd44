// The lazy half of the binding contract (wasm/lazy_bindings.cpp): plain C exports that the Emscripten glue puts
// on the module as `_lazy_*`, and the static `lazy_out` record they report through. Nothing here is exported to
// users.
import { errorFromStatus, type ParserLimits } from '../errors.js';
import type { NativeRuntime } from '../native/contract.js';
import type { Residency } from './residency.js';

/** The raw exports. Pointers and sizes are numbers; every call may grow memory (re-sync views after it). */
export interface LazyExports {
  _lazy_out_address(): number;
  _lazy_index_new(maxDepth: number, scalar: number): number;
  _lazy_index_delete(index: number): void;
  _lazy_index_reserve(index: number, n: number): number;
  _lazy_index_build(index: number, n: number): number;
  _lazy_index_containers(index: number): number;
  _lazy_index_children(index: number, container: number): number;
  _lazy_index_locate(index: number, start: number, end: number): number;
}

// lazy_out, as u32 indices from its start.
/** @internal */
export const OUT_STATUS = 0;
/** @internal */
export const OUT_ERROR_BYTE = 1;
/** @internal */
export const OUT_COUNT = 2;
/** @internal */
export const OUT_ROOT_START = 4;
/** @internal */
export const OUT_ROOT_END = 5;
/** @internal */
export const OUT_ROOT_CONTAINER = 6;
// lazy_out, as f64 indices from its start.
/** @internal */
export const OUT_ERROR_OFFSET = 4;
/** @internal */
export const OUT_ERROR_LINE = 5;
/** @internal */
export const OUT_ERROR_COLUMN = 6;

// Member record (lazy_child): 6 x u32.
/** @internal */
export const CHILD_WORDS = 6;
/** @internal */
export const CHILD_VALUE_START = 0;
/** @internal */
export const CHILD_VALUE_END = 1;
/** @internal */
export const CHILD_CONTAINER = 2;
/** @internal */
export const CHILD_KEY_START = 3;
/** @internal */
export const CHILD_KEY_END = 4;
/** @internal */
export const CHILD_FIRST_BYTE = 5;
/** @internal A member that is not a container. */
export const NO_CONTAINER = 0xffff_ffff;

// Container record (lazy_container): 3 x u32.
/** @internal */
export const CONTAINER_WORDS = 3;
/** @internal */
export const CONTAINER_START = 0;
/** @internal */
export const CONTAINER_END = 1;
/** @internal */
export const CONTAINER_NEXT = 2;

/** @internal The lazy exports of a loaded module and the location of lazy_out. */
export interface LazyBinding {
  readonly runtime: NativeRuntime;
  readonly m: LazyExports;
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

const bindings = new WeakMap<NativeRuntime, LazyBinding>();

/** @internal The lazy exports of `runtime`; an Error for a module built without them. */
export function lazyBinding(runtime: NativeRuntime): LazyBinding {
  let binding = bindings.get(runtime);
  if (binding !== undefined) return binding;
  const m = runtime.native as unknown as Partial<LazyExports>;
  if (typeof m._lazy_out_address !== 'function') {
    throw new Error('sluice: this WebAssembly module was built without lazy documents (wasm/lazy_bindings.cpp)');
  }
  const address = m._lazy_out_address();
  binding = {
    runtime,
    m: m as LazyExports,
    out32: address >>> 2,
    out64: address >>> 3,
    resident: new Set(),
    residentBytes: 0,
    recent: null,
  };
  bindings.set(runtime, binding);
  return binding;
}

/** @internal The error lazy_out describes (status = a native error code), positioned absolutely. */
export function lazyError(binding: LazyBinding, status: number, limits: ParserLimits): Error {
  const runtime = binding.runtime;
  runtime.sync();
  const f64 = runtime.f64;
  return errorFromStatus(
    status,
    runtime.u32[binding.out32 + OUT_ERROR_BYTE]!,
    {
      offset: f64[binding.out64 + OUT_ERROR_OFFSET]!,
      line: f64[binding.out64 + OUT_ERROR_LINE]!,
      column: f64[binding.out64 + OUT_ERROR_COLUMN]!,
    },
    limits,
  );
}
