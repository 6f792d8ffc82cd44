// A callback that runs once the current burst of promise jobs is over: the moment an encoder is really waiting
// for a source (a database, the network), as opposed to awaiting a promise that settles in the same burst.

type Immediate = (callback: () => void) => unknown;

// Never probed by calling: Next.js's Edge sandbox defines a setImmediate that throws when called (and may define it
// as a getter), so it is read inside try and called inside try, and the first throw switches to setTimeout for good.
let immediate: Immediate | undefined = (() => {
  try {
    const found = (globalThis as { setImmediate?: unknown }).setImmediate;
    return typeof found === 'function' ? (found as Immediate) : undefined;
  } catch {
    return undefined;
  }
})();

/** @internal Runs `callback` in a later task. */
export function scheduleMacrotask(callback: () => void): void {
  if (immediate !== undefined) {
    try {
      // Node and Bun: runs after pending I/O callbacks, unclamped.
      immediate(callback);
      return;
    } catch {
      immediate = undefined;
    }
  }
  // Browsers, Deno, workers: the only portable task queue. Engines may clamp it to a few milliseconds.
  setTimeout(callback, 0);
}
