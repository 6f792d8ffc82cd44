// A callback that runs once the current burst of promise jobs is over: the moment an encoder is really waiting
// for a source (a database, the network), as opposed to awaiting a promise that settles in the same burst.

declare function setImmediate(callback: () => void): unknown;

/** @internal Runs `callback` in a later task. */
export const scheduleMacrotask: (callback: () => void) => void =
  typeof setImmediate === 'function'
    ? // Node and Bun: runs after pending I/O callbacks, unclamped.
      (callback) => {
        setImmediate(callback);
      }
    : // Browsers, Deno, workers: the only portable task queue. Engines may clamp it to a few milliseconds.
      (callback) => {
        setTimeout(callback, 0);
      };

/** @internal Resolves in a later task (what the encoder awaits to let timers and I/O run). */
export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => scheduleMacrotask(resolve));
}

/** @internal Milliseconds, for the encoder's time slices. */
export const clock: () => number =
  typeof performance === 'object' && typeof performance?.now === 'function' ? () => performance.now() : Date.now;
