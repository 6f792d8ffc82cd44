// Whether a descriptor is a terminal, without loading node:tty where the answer is plainly no: node:tty loads
// node:net and the streams, 9 million instructions (callgrind, Node 20.20: a tenth of Node's own start), while a
// file, a pipe or /dev/null (what scripts and benchmarks give the command) is no terminal by its fstat alone.
import { fstatSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The device number of /dev/null; null where there is none (Windows). */
let nullDevice: number | null | undefined;

function nullDeviceNumber(): number | null {
  if (nullDevice === undefined) {
    try {
      nullDevice = statSync('/dev/null').rdev;
    } catch {
      nullDevice = null;
    }
  }
  return nullDevice;
}

/** What node:tty's isatty(fd) says, loading node:tty only for a character device other than /dev/null. */
export function isTerminal(fd: number): boolean {
  let stats: ReturnType<typeof fstatSync>;
  try {
    stats = fstatSync(fd);
  } catch {
    return false; // a closed descriptor: isatty says no as well
  }
  if (!stats.isCharacterDevice() || stats.rdev === nullDeviceNumber()) return false;
  // node:module is loaded with Node itself; createRequire works in the ES modules and in the CommonJS bundle.
  const tty = createRequire(import.meta.url)('node:tty') as { isatty(fd: number): boolean };
  return tty.isatty(fd);
}
