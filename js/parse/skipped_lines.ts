// The lines a call skipped with onInvalidLine (the native skipped records, read by js/native), as the errors they
// would have thrown, with the line's first bytes. Read right after the call, before any user code runs.
import { errorFromStatus, type ParserLimits } from '../errors.js';
import type { SkippedLine } from '../native/contract.js';
import type { InvalidLine } from './option_types.js';

const decoder = new TextDecoder();

/** @internal The errors of a call's skipped lines, each with its `lineText`. */
export function skippedLineErrors(lines: readonly SkippedLine[], limits: ParserLimits): InvalidLine[] {
  return lines.map((line) => skippedLineError(line, limits));
}

/** @internal One skipped line's error, with its `lineText`. */
export function skippedLineError(line: SkippedLine, limits: ParserLimits): InvalidLine {
  const position = { offset: line.offset, line: line.line, column: line.column };
  const error = errorFromStatus(line.status, line.byte, position, limits);
  return Object.assign(error, { lineText: decoder.decode(line.text) }) as InvalidLine;
}
