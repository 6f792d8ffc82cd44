// How `sluice` reports an error on standard error: the library's message (code, byte offset, line, column), and
// for invalid JSON the offending line with a caret under the byte, from the input bytes still at hand.
import { JsonLimitError, JsonSyntaxError } from '../errors.js';
import { UsageError } from './exit_codes.js';

/** Bytes of the line shown before and after the offending byte, at most. */
const BEFORE = 60;
const AFTER = 30;
const NEWLINE = 0x0a;
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export interface InputBytes {
  /** Absolute offset of bytes[0]. */
  readonly start: number;
  readonly bytes: Uint8Array;
}

/** The lines to print for `error`, met while reading the input named `name`. */
export function describeError(error: unknown, name: string, around?: InputBytes): string {
  if (error instanceof JsonSyntaxError || error instanceof JsonLimitError) {
    const lines = [`sluice: ${name}: ${error.message}`, `  code: ${error.code}`];
    const excerpt = around === undefined ? undefined : excerptAt(around, error.offset, error.line);
    if (excerpt !== undefined) lines.push(...excerpt);
    return lines.join('\n');
  }
  // A usage error names its api already (`sluice select: ...`).
  if (error instanceof UsageError) return error.message;
  return `sluice: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * `  3 | {"a": [1, 2}` and a caret under the byte at `offset`, or undefined when that line is not at hand. The line is
 * cut to a window around the byte (marked with an ellipsis); tabs and other control bytes show as spaces so the
 * caret stays aligned; invalid UTF-8 shows as U+FFFD.
 */
export function excerptAt(around: InputBytes, offset: number, line: number): string[] | undefined {
  const { bytes, start } = around;
  const at = offset - start;
  if (at < 0 || at > bytes.length) return undefined;
  let from = at;
  while (from > 0 && bytes[from - 1] !== NEWLINE && at - from < BEFORE) from--;
  // Never start inside a UTF-8 sequence.
  while (from < at && (bytes[from]! & 0xc0) === 0x80) from++;
  let to = at;
  while (to < bytes.length && bytes[to] !== NEWLINE && to - at < AFTER) to++;
  while (to < bytes.length && to > at && (bytes[to]! & 0xc0) === 0x80) to++;
  const cutBefore = from > 0 && bytes[from - 1] !== NEWLINE;
  const cutAfter = to < bytes.length && bytes[to] !== NEWLINE;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is replaced.
  const shown = (b: Uint8Array): string => decoder.decode(b).replace(/[\u0000-\u001f\u007f]/g, ' ');
  const head = (cutBefore ? '…' : '') + shown(bytes.subarray(from, at));
  const text = head + shown(bytes.subarray(at, to)) + (cutAfter ? '…' : '');
  const number = String(line);
  const caret = ' '.repeat([...head].length) + '^';
  return [`  ${number} | ${text}`, `  ${' '.repeat(number.length)} | ${caret}`];
}

/** An error met while reading, with the input bytes at hand around it (for the excerpt). */
export class ExcerptedError extends Error {
  readonly error: Error;
  readonly around_: InputBytes;

  constructor(error: Error, around: InputBytes) {
    super(error.message, { cause: error });
    this.name = 'ExcerptedError';
    this.error = error;
    this.around_ = around;
  }
}
