// For the project's own tests only; index.ts does not re-export it and package.json does not expose it.
import { loadedRuntime } from './native/loader.js';
import type { BuildKind, NativeRuntime } from './native/contract.js';

/** Test hooks of the loaded module. */
export interface NativeTestHooks {
  /** Bytes malloc'ed in the wasm heap right now: after freeing every parser it returns to its baseline. */
  heapInUse(): number;
  /**
   * The stage-1 masks of each 64-byte block of `input`, by the build's best kernel or, with `scalar`, by the
   * scalar one: per block 4 u64 masks (events, in_string, quote, error; bit i = byte i of the block), each as
   * two u32 words, low word first. The error word is (index + 1) | code << 32 (0: none), with bit 63 set when the
   * kernel's string-interior test disagrees with its classification. A copy, 8 words per block.
   */
  stage1Debug(input: Uint8Array, scalar?: boolean): Uint32Array;
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
    warmUpStatus: () => loaded.warmUpStatus,
    stage1Debug(input, scalar = false) {
      const address = native.stage1Debug(input, scalar);
      loaded.sync();
      const words = Math.ceil(input.length / 64) * 8;
      return loaded.u32.slice(address >>> 2, (address >>> 2) + words);
    },
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
