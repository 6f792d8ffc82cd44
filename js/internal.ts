// For the project's own tests only; index.ts does not re-export it and package.json does not expose it.
import { loadedRuntime } from './native/loader.js';
import type { BuildKind, NativeRuntime } from './native/contract.js';

/** Test hooks of the loaded module. */
export interface NativeTestHooks {
  /** Bytes malloc'ed in the wasm heap right now: after freeing every parser it returns to its baseline. */
  heapInUse(): number;
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
  const native = loaded.native;
  return {
    heapInUse: () => native.heapInUse(),
    memoryBytes: () => loaded.memory.buffer.byteLength,
    warmUpStatus: () => loaded.warmUpStatus,
  };
}

/**
 * The raw exports of the loaded module, by name (`_lazy_index_reserve`...): a test replaces one to inject a
 * failure, and puts it back.
 */
export function rawExports(): Record<string, unknown> {
  return runtime().native as unknown as Record<string, unknown>;
}

/** Which build is loaded: `'simd128'` or `'scalar'`. */
export function loadedBuildKind(): BuildKind {
  return runtime().native.buildKind();
}
