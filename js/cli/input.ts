// Where the JSON comes from: a file, standard input or an http(s) URL, each read straight into a caller's buffer
// (the parser's input window in wasm memory, for files and standard input: no copy in JS). Reads are synchronous
// when the descriptor allows it (a file, a blocking pipe) and wait in the event loop otherwise (EAGAIN, a
// download), so a download keeps flowing while nothing else runs.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { misuse } from '../validate.js';
import { IoError, UsageError, systemCode } from './exit_codes.js';
import { isTerminal } from './terminal.js';

/** An open input. */
export interface Input {
  /** What the user named, for messages: the file name, `standard input` or the URL. */
  readonly name: string;
  /** Its length in bytes when known (a regular file, a download with Content-Length), else undefined. */
  readonly size: number | undefined;
  /**
   * Reads up to `length` bytes into target[offset...]; 0 at the end of the input. A number when the bytes were
   * there, a promise when it had to wait: no other code may touch `target` until it settles.
   */
  read(target: Uint8Array, offset: number, length: number): number | Promise<number>;
  /** Stops reading: closes the file, cancels the download. Never throws. */
  close(): void;
}

/** Opens what the command line named: a URL, `-` or nothing for standard input, else a file. */
export async function openInput(spec: string | undefined): Promise<Input> {
  if (spec !== undefined && /^https?:\/\//i.test(spec)) return openUrl(spec);
  if (spec === undefined || spec === '-') {
    if (spec === undefined && isTerminal(0)) {
      throw new UsageError(
        misuse('sluice', 'no input: name a file or an http(s) URL, or pipe the JSON in (`-` reads standard input)'),
      );
    }
    return new DescriptorInput(0, 'standard input', false);
  }
  let fd: number;
  try {
    fd = openSync(spec, 'r');
  } catch (error) {
    throw new IoError(`cannot open ${spec}: ${describeSystemError(error)}`, { cause: error });
  }
  return new DescriptorInput(fd, spec, true);
}

/** A Node system error in a few words: `no such file or directory (ENOENT)`. */
export function describeSystemError(error: unknown): string {
  const code = systemCode(error);
  const message = error instanceof Error ? error.message : String(error);
  // Node's messages read `ENOENT: no such file or directory, open 'x'`: keep the words, then the code.
  const words =
    code !== undefined && message.startsWith(`${code}: `) ? message.slice(code.length + 2).split(',')[0]! : message;
  return code !== undefined ? `${words} (${code})` : words;
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1));
}

class DescriptorInput implements Input {
  readonly name: string;
  readonly size: number | undefined;
  private readonly fd_: number;
  private readonly owned_: boolean;
  private closed_ = false;

  constructor(fd: number, name: string, owned: boolean) {
    this.fd_ = fd;
    this.name = name;
    this.owned_ = owned;
    const stats = fstatSync(fd);
    if (stats.isDirectory()) {
      this.close();
      throw new IoError(`cannot read ${name}: it is a directory`);
    }
    // A pipe or a terminal has no length; a regular file's is the progress bar's total.
    this.size = stats.isFile() ? stats.size : undefined;
  }

  read(target: Uint8Array, offset: number, length: number): number | Promise<number> {
    if (this.closed_) return 0;
    try {
      return readSync(this.fd_, target, offset, length, null);
    } catch (error) {
      // A non-blocking pipe or terminal with nothing to read yet: wait in the event loop, then try again.
      if (systemCode(error) === 'EAGAIN') return pause().then(() => this.read(target, offset, length));
      throw new IoError(`cannot read ${this.name}: ${describeSystemError(error)}`, { cause: error });
    }
  }

  close(): void {
    if (this.closed_) return;
    this.closed_ = true;
    if (this.owned_) {
      try {
        closeSync(this.fd_);
      } catch {
        // Nothing more will be read from it either way.
      }
    }
  }
}

async function openUrl(url: string): Promise<Input> {
  const controller = new AbortController();
  let response: Response;
  try {
    response = await fetch(url, { signal: controller.signal });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    const why = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
    throw new IoError(`cannot fetch ${url}: ${why}`, { cause: error });
  }
  if (!response.ok) {
    controller.abort();
    throw new IoError(
      `cannot fetch ${url}: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
    );
  }
  // A compressed body is decoded by fetch(): Content-Length then counts other bytes than those read.
  const length = response.headers.get('content-length');
  const size = length !== null && response.headers.get('content-encoding') === null ? Number(length) : undefined;
  return new DownloadInput(url, response, controller, Number.isSafeInteger(size) ? size : undefined);
}

class DownloadInput implements Input {
  readonly name: string;
  readonly size: number | undefined;
  private readonly reader_: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly controller_: AbortController;
  private chunk_: Uint8Array = new Uint8Array(0);
  private closed_ = false;

  constructor(url: string, response: Response, controller: AbortController, size: number | undefined) {
    this.name = url;
    this.size = size;
    this.controller_ = controller;
    this.reader_ = response.body?.getReader();
  }

  read(target: Uint8Array, offset: number, length: number): number | Promise<number> {
    if (this.chunk_.length > 0) return this.take_(target, offset, length);
    if (this.closed_ || this.reader_ === undefined) return 0;
    return this.reader_.read().then(
      (result) => {
        if (result.done) return 0;
        this.chunk_ = result.value;
        return this.chunk_.length > 0 ? this.take_(target, offset, length) : this.read(target, offset, length);
      },
      (error: unknown) => {
        if (this.closed_) return 0;
        throw new IoError(`cannot read ${this.name}: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      },
    );
  }

  private take_(target: Uint8Array, offset: number, length: number): number {
    const chunk = this.chunk_;
    const n = Math.min(length, chunk.length);
    target.set(n === chunk.length ? chunk : chunk.subarray(0, n), offset);
    this.chunk_ = chunk.subarray(n);
    return n;
  }

  close(): void {
    if (this.closed_) return;
    this.closed_ = true;
    this.chunk_ = new Uint8Array(0);
    this.reader_?.cancel().catch(() => {});
    this.controller_.abort();
  }
}
