// Standard output, written synchronously from the caller's bytes (the parser's batch text in wasm memory: no copy
// in JS). A blocking pipe blocks the write, which is the backpressure: nothing more is read until the reader took
// the output. A non-blocking one (EAGAIN) waits in the event loop instead. EPIPE, the reader gone, ends the command
// quietly (OutputClosed).
import { writeSync } from 'node:fs';
import { IoError, OutputClosed, systemCode } from './exit_codes.js';
import { describeSystemError } from './input.js';

const encoder = new TextEncoder();

export class Output {
  private readonly fd_: number;
  /** Called before each write (the progress bar clears itself when it shares the terminal). */
  beforeWrite_: (() => void) | undefined;

  constructor(fd = 1) {
    this.fd_ = fd;
  }

  /** Writes bytes[offset, offset + length); a promise only when it had to wait for a non-blocking descriptor. */
  write(bytes: Uint8Array, offset: number, length: number): void | Promise<void> {
    this.beforeWrite_?.();
    const end = offset + length;
    while (offset < end) {
      let written: number;
      try {
        written = writeSync(this.fd_, bytes, offset, end - offset);
      } catch (error) {
        const code = systemCode(error);
        if (code === 'EAGAIN') return this.later_(bytes, offset, end - offset);
        if (code === 'EPIPE') throw new OutputClosed();
        throw new IoError(`cannot write to standard output: ${describeSystemError(error)}`, { cause: error });
      }
      offset += written;
    }
  }

  writeText_(text: string): void | Promise<void> {
    const bytes = encoder.encode(text);
    return this.write(bytes, 0, bytes.length);
  }

  private async later_(bytes: Uint8Array, offset: number, length: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 1));
    await this.write(bytes, offset, length);
  }
}
