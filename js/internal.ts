// For the project's own tests only; index.ts does not re-export it and package.json does not expose it.
import { loadedRuntime } from './native/loader.js';
import type { BuildKind, NativeRuntime } from './native/contract.js';
import { loadedLazyBinding } from './lazy/native_lazy.js';
import { setCarryLimit } from './native/session.js';
import { poolOf } from './native/parser_pool.js';
import { pathVerdict } from './native/native_module.js';

/** Test hooks of the loaded module. */
export interface NativeTestHooks {
  /**
   * Bytes malloc'ed in the wasm heaps right now (the parser's module, plus the lazy index's once loaded): after
   * freeing every parser and document it returns to its baseline.
   */
  heapInUse(): number;
  /**
   * The parser's module alone: what parsers hold, whatever the collector has yet to free of dropped lazy documents
   * (their indexes are freed when it runs, at a time no test controls).
   */
  parserHeapInUse(): number;
  /**
   * Parsers whose native state is in the module now (open ones, and dropped ones the collector has yet to free):
   * at 0, nothing but a test's own parsers can move `heapInUse()` while it measures.
   */
  residentParsers(): number;
  /** Bytes of wasm memory (it only grows): a test proves that memory grew under a call. */
  memoryBytes(): number;
  /** The status of init()'s warm-up parse: 0 when its document parsed cleanly. */
  warmUpStatus(): number;
}

function runtime(): NativeRuntime {
  const loaded = loadedRuntime();
  if (loaded === undefined) throw new Error('sluice internal: no module loaded; `await init()` first');
  return loaded;
}

/** The test hooks of the module that parsers created now would use. */
export function nativeModule(): NativeTestHooks {
  const loaded = runtime();
  const native = loaded.native_;
  return {
    heapInUse: () => native.heapInUse() + (loadedLazyBinding(loaded)?.m.lazy_heap_in_use() ?? 0),
    parserHeapInUse: () => native.heapInUse(),
    residentParsers: () => poolOf(loaded).resident_.length,
    memoryBytes: () => loaded.memory_.buffer.byteLength,
    warmUpStatus: () => loaded.warmUpStatus_,
  };
}

/**
 * The raw exports of the lazy index's module, by name (`lazy_index_reserve`...): a test replaces one to inject a
 * failure, and puts it back.
 */
export function rawExports(): Record<string, unknown> {
  const binding = loadedLazyBinding(runtime());
  if (binding === undefined) throw new Error("sluice internal: the lazy index's module is not loaded");
  return binding.m as unknown as Record<string, unknown>;
}

/**
 * What the native selector compiler says of `path` (the native grammar, as js/query/lower.ts writes it): -1
 * accepted, else the byte index of the offending character.
 */
export function nativePathVerdict(path: string): number {
  return pathVerdict(runtime().native_, path);
}

/** Which build is loaded: `'simd128'` or `'scalar'`. */
export function loadedBuildKind(): BuildKind {
  return runtime().native_.buildKind_();
}

/** Which build of the lazy index's module is loaded, if any. */
export function loadedLazyBuildKind(): BuildKind | undefined {
  return loadedLazyBinding(runtime())?.kind;
}

/**
 * Push parsers' carries may not grow past `bytes` (Infinity: no limit), as if the engine refused the buffer: the
 * parser then fails with OUT_OF_MEMORY. Put it back to Infinity after the test.
 */
export function limitCarryBytes(bytes: number): void {
  setCarryLimit(bytes);
}
