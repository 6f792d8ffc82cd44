// Which lazyParse() documents have a native index right now. A document lives in the JS heap (its bytes and
// tables: lazy_document.ts), where the garbage collector sees its size and frees it with its last proxy. The
// native index is only what scans it (build, listings, error positions): a copy of the bytes and the container
// table in the WebAssembly heap, which no collector sees and which never shrinks. So the indexes are a cache of at
// most lazyTuning.residentBudget bytes (64 MiB, or one document if larger), least recently used out first; a
// document whose index was evicted loads it again when it next lists a container. However many documents were
// dropped without releaseLazy(), and however late their finalizers run, the wasm heap holds at most the budget
// (docs/lazy.md, "Memory").
import { JsonLimitError } from '../errors.js';
import { OUT_OF_MEMORY } from '../native/status.js';
import { lazyTuning } from './lazy_tuning.js';
import { Residency, type LazyBinding } from './native_lazy.js';

export { Residency };

/** The JsonLimitError of a document (of `n` bytes) that does not fit; `cause` is the engine's error, if any. */
export function outOfMemory(n: number, cause?: unknown): JsonLimitError {
  const error = new JsonLimitError(
    `Cannot parse JSON: out of memory for a ${n}-byte lazyParse() document (the WebAssembly heap could not grow)`,
    'OUT_OF_MEMORY',
    { offset: 0, line: 1, column: 1 },
  );
  if (cause !== undefined) (error as { cause?: unknown }).cause = cause;
  return error;
}

/** The native bytes `r` holds once its container table is known. */
export function setSize(binding: LazyBinding, r: Residency, size: number): void {
  if (r.handle !== 0) binding.residentBytes += size - r.size;
  r.size = size;
}

/** Marks `r` as the most recently used. */
export function touch(binding: LazyBinding, r: Residency): void {
  if (binding.recent === r) return;
  const set = binding.resident;
  set.delete(r);
  set.add(r);
  binding.recent = r;
}

/** Frees the native index of `r`, if it has one. */
export function evict(binding: LazyBinding, r: Residency): void {
  if (r.handle === 0) return;
  const handle = r.handle;
  r.handle = 0;
  if (binding.recent === r) binding.recent = null;
  binding.resident.delete(r);
  binding.residentBytes -= r.size;
  binding.m.lazy_index_delete(handle);
}

/** Evicts least recently used indexes until `size` more bytes fit the budget (`all`: every one). */
function makeRoom(binding: LazyBinding, size: number, all: boolean): void {
  for (const r of binding.resident) {
    if (!all && binding.residentBytes + size <= lazyTuning.residentBudget) return;
    evict(binding, r);
  }
}

/**
 * Gives `r` a native index of `bytes`, built: returns the build's status (0, or the native error code, the error
 * in lazy_out; `r` then has no index). Out of memory with every other index evicted throws a JsonLimitError.
 */
export function load(binding: LazyBinding, r: Residency, bytes: Uint8Array, maxDepth: number): number {
  const { m, heap } = binding;
  makeRoom(binding, r.size, false);
  for (let attempt = 0; ; attempt++) {
    const handle = m.lazy_index_new(maxDepth);
    // At least one byte: an empty buffer has no address (and the empty document is the parser's error).
    const base = handle === 0 ? 0 : m.lazy_index_reserve(handle, Math.max(1, bytes.length));
    if (base === 0) {
      if (handle !== 0) m.lazy_index_delete(handle);
      if (attempt === 0 && binding.resident.size !== 0) {
        makeRoom(binding, 0, true);
        continue;
      }
      throw outOfMemory(bytes.length);
    }
    heap.sync_();
    heap.u8_.set(bytes, base);
    const status = m.lazy_index_build(handle, bytes.length);
    if (status === OUT_OF_MEMORY && attempt === 0 && binding.resident.size !== 0) {
      m.lazy_index_delete(handle);
      makeRoom(binding, 0, true);
      continue;
    }
    if (status !== 0) {
      // The error stays in lazy_out for the caller; an index that could not be built holds nothing worth keeping.
      m.lazy_index_delete(handle);
      return status;
    }
    r.handle = handle;
    binding.resident.add(r);
    binding.recent = r;
    binding.residentBytes += r.size;
    return 0;
  }
}
