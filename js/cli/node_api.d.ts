// The few Node APIs the command line uses, declared here: the package's tsconfig has no @types/node (the library
// stays runtime-neutral, and a global `process` or `Buffer` would hide a slip in its code). Module declarations
// only, so nothing leaks into the library's globals. Shapes as in Node 20's documentation.

declare module 'node:fs' {
  interface Stats {
    readonly size: number;
    /** The device a special file stands for. */
    readonly rdev: number;
    isFile(): boolean;
    isDirectory(): boolean;
    isCharacterDevice(): boolean;
  }
  function openSync(path: string, flags: 'r'): number;
  function closeSync(fd: number): void;
  function fstatSync(fd: number): Stats;
  function statSync(path: string): Stats;
  /** Throws with `code` EAGAIN on a non-blocking descriptor with nothing to read yet. */
  function readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number;
  /** Throws with `code` EAGAIN (non-blocking descriptor, pipe full) or EPIPE (the reader went away). */
  function writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  function readFileSync(path: URL, encoding: 'utf8'): string;
  function readFileSync(path: URL): Uint8Array;
}

declare module 'node:module' {
  function createRequire(from: string): (id: string) => unknown;
}
