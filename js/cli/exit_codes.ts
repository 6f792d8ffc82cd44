// The exit codes of `sluice` (docs/cli.md), one per kind of failure, and the errors the commands throw to reach
// them. A JSON error keeps the library's own class and message (JsonSyntaxError, JsonLimitError).
import { JsonLimitError, JsonSyntaxError } from '../errors.js';

/** Success: every command ran to its end (or `--limit` was reached, or the reader of the output went away). */
export const EXIT_OK = 0;
/** `get`: the document has no value at the path. */
export const EXIT_NOT_FOUND = 1;
/** The command line is wrong: unknown command or option, a missing or malformed argument, an unsupported path. */
export const EXIT_USAGE = 2;
/** The input is not valid JSON. */
export const EXIT_INVALID = 3;
/** The input ended inside a value (`UNEXPECTED_END`): a truncated file or download. */
export const EXIT_TRUNCATED = 4;
/** A limit was exceeded: `--max-depth`, `--max-element-bytes`, or the WebAssembly heap. */
export const EXIT_LIMIT = 5;
/** The input could not be read (missing file, HTTP error, network failure) or the output not written. */
export const EXIT_IO = 6;
/** `--skip-invalid`: the command ran to its end, but skipped lines (each reported on standard error). */
export const EXIT_SKIPPED = 7;
/** A bug in sluice (the message and stack are printed): please report it. */
export const EXIT_INTERNAL = 70;

/**
 * A mistake on the command line, worded as the library words misuse (validate.ts: `<api>: <problem>`, the api being
 * `sluice` or `sluice <command>`), from the TypeError that misuse(), mustBe() or a library check made of it.
 */
export class UsageError extends Error {
  constructor(misuse: TypeError) {
    super(misuse.message, { cause: misuse });
    this.name = 'UsageError';
  }
}

/** The input could not be opened or read, or the output not written. */
export class IoError extends Error {
  constructor(message: string, options?: { readonly cause: unknown }) {
    super(message, options);
    this.name = 'IoError';
  }
}

/** The reader of standard output went away (`sluice select ... | head`): the command stops quietly. */
export class OutputClosed extends Error {
  constructor() {
    super('standard output was closed');
    this.name = 'OutputClosed';
  }
}

/** The exit code for an error a command threw. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof OutputClosed) return EXIT_OK;
  if (error instanceof UsageError) return EXIT_USAGE;
  if (error instanceof JsonSyntaxError) return error.code === 'UNEXPECTED_END' ? EXIT_TRUNCATED : EXIT_INVALID;
  if (error instanceof JsonLimitError) return EXIT_LIMIT;
  if (error instanceof IoError) return EXIT_IO;
  return EXIT_INTERNAL;
}

/** The `code` of a Node system error (`ENOENT`, `EPIPE`...), if it is one. */
export function systemCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
