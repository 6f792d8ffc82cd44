// The resident pool (HACKING.md, "Parser memory"): the module's memory holds the state of at most RESIDENT_LIMIT
// parsers of a runtime; the least recently used is saved to bytes in the JS heap when another needs a place, and
// restored when it is called again. A session (session.ts) holds a Handle, its place in the pool: its native parser
// or its saved state, never its carry or results, so that a dropped parser's bytes go with it.
import { PATH_ACCEPTED, type NativeParser, type NativeRuntime } from './contract.js';

/** What a native parser is created with. */
export interface NativeConfig {
  readonly maxDepth: number;
  readonly maxElementBytes: number;
  readonly flags: number;
  /** Ordinary selectors, then end markers and start markers (openJson). */
  readonly paths: readonly string[];
  readonly markers?: readonly string[];
  readonly starts?: readonly string[];
}

/**
 * Parsers resident in the module at once. Switching costs a save and a load of a few hundred bytes, so a server
 * interleaving fewer streams never switches; the bound is what dropped parsers may hold: this many states of a few
 * kilobytes.
 */
export const RESIDENT_LIMIT = 64;

/** What the pool holds of a parser: its native handle or its saved state. */
export class Handle {
  native_: NativeParser | null = null;
  /** The state while not resident; null before the first call (a fresh parser is configured instead). */
  saved_: Uint8Array | null = null;
  lastUse_ = 0;
  /** Its state could not be restored: the parser fails with OUT_OF_MEMORY. */
  lost_ = false;

  constructor(readonly config_: NativeConfig) {}
}

export class Pool {
  readonly resident_: Handle[] = [];
  clock_ = 0;
}

const pools = new WeakMap<NativeRuntime, Pool>();

/** The pool of `runtime`'s parsers. */
export function poolOf(runtime: NativeRuntime): Pool {
  let pool = pools.get(runtime);
  if (pool === undefined) {
    pool = new Pool();
    pools.set(runtime, pool);
  }
  return pool;
}

function release(pool: Pool, handle: Handle): void {
  const native = handle.native_;
  if (native === null) return;
  handle.native_ = null;
  const at = pool.resident_.indexOf(handle);
  if (at >= 0) pool.resident_.splice(at, 1);
  try {
    native.delete();
  } catch {
    // The module aborted: nothing left to release.
  }
}

// Backstop for parsers dropped without close(): frees their place in the pool (the pool would reuse it anyway).
// The held value is the handle alone, so it keeps neither the parser nor its carry reachable.
const registry = new FinalizationRegistry<{ pool: Pool; handle: Handle }>(({ pool, handle }) => release(pool, handle));

/**
 * Makes `handle`'s parser resident, `owner` being the session that holds it (released if dropped). Returns null
 * when its state cannot be restored (out of memory): then every call reports OUT_OF_MEMORY. Afterwards the input
 * window is free to write: `runtime.inputPtr()`.
 */
export function acquire(runtime: NativeRuntime, pool: Pool, handle: Handle, owner: object): NativeParser | null {
  handle.lastUse_ = ++pool.clock_;
  if (handle.native_ !== null) return handle.native_;
  if (handle.lost_) return null;
  if (pool.resident_.length >= RESIDENT_LIMIT) evictOne(runtime, pool);
  const config = handle.config_;
  const native = new runtime.native_.Parser(config.maxDepth, config.maxElementBytes, config.flags);
  const saved = handle.saved_;
  if (saved === null) {
    addPaths(native, config);
    registry.register(owner, { pool, handle }, owner);
  } else {
    handle.saved_ = null;
    if (!load(runtime, native, saved)) {
      native.delete();
      handle.lost_ = true;
      return null;
    }
  }
  handle.native_ = native;
  pool.resident_.push(handle);
  return native;
}

/** Frees `handle`'s parser for good (the session `owner` closes). */
export function discard(pool: Pool, handle: Handle, owner: object): void {
  registry.unregister(owner);
  release(pool, handle);
  handle.saved_ = null;
  handle.lost_ = true;
}

/** Saves the least recently used resident parser to the JS heap and frees its native state. */
function evictOne(runtime: NativeRuntime, pool: Pool): void {
  const resident = pool.resident_;
  let victim = resident[0]!;
  for (let i = 1; i < resident.length; i++) if (resident[i]!.lastUse_ < victim.lastUse_) victim = resident[i]!;
  const native = victim.native_!;
  native.save();
  runtime.sync_();
  const n = runtime.savedBytes_();
  if (n === 0) {
    victim.lost_ = true;
  } else {
    const at = runtime.inputPtr_();
    victim.saved_ = runtime.u8_.slice(at, at + n);
  }
  release(pool, victim);
}

/** Restores a saved state into `native`: copied into the window, which grows if it must. */
function load(runtime: NativeRuntime, native: NativeParser, saved: Uint8Array): boolean {
  runtime.sync_();
  if (runtime.inputCapacity_() < saved.length && !runtime.native_.reserve_(saved.length)) return false;
  runtime.sync_();
  runtime.u8_.set(saved, runtime.inputPtr_());
  return native.load(saved.length);
}

/** Adds the configured selectors to a fresh parser; deletes it and throws if it refuses one. */
export function addPaths(native: NativeParser, config: NativeConfig): void {
  // The JS lowering (js/query/lower.ts) checked every path and their count: a refusal here means the JS and native
  // grammars disagree, which no user input can cause.
  const refused =
    config.paths.find((p) => native.addPath(p) !== PATH_ACCEPTED) ??
    config.markers?.find((p) => native.addMarkerPath_(p) !== PATH_ACCEPTED) ??
    config.starts?.find((p) => native.addStartMarkerPath_(p) !== PATH_ACCEPTED);
  if (refused !== undefined) {
    native.delete();
    throw new Error(`sluice: the native parser refused the path ${refused}`);
  }
}
