// The errors users catch. Messages are built here from the numeric status the native parser reports (its codes:
// js/native/status.ts, checked against src/sluice/error.h): the core never formats text.
import { STATUS_NAMES } from './native/status.js';

/** The `code` of a {@link JsonSyntaxError}: what the input got wrong (README.md lists an example of each). */
export type JsonSyntaxErrorCode =
  | 'EXPECTED_VALUE'
  | 'EXPECTED_COMMA_OR_BRACKET'
  | 'EXPECTED_COMMA_OR_BRACE'
  | 'EXPECTED_KEY'
  | 'EXPECTED_COLON'
  | 'TRAILING_DATA'
  | 'INVALID_NUMBER'
  | 'INVALID_LITERAL'
  | 'CONTROL_CHARACTER'
  | 'INVALID_ESCAPE'
  | 'INVALID_UNICODE_ESCAPE'
  | 'INVALID_UTF8'
  | 'UNEXPECTED_END';

/** The `code` of a {@link JsonLimitError}: which configured limit the input exceeded. */
export type JsonLimitErrorCode = 'DEPTH_LIMIT' | 'ELEMENT_TOO_LARGE' | 'OUT_OF_MEMORY';

/** Where an error was found. All positions are absolute in the stream, never relative to a chunk. */
export interface JsonErrorPosition {
  /** Bytes before the offending byte since the first byte of the stream (a byte order mark included). */
  readonly offset: number;
  /** 1-based line of the offending byte. */
  readonly line: number;
  /** 1-based column of the offending byte, in bytes from the start of its line. */
  readonly column: number;
}

/**
 * The input is not valid JSON (RFC 8259, strict UTF-8).
 *
 * @example
 * try { createParser().end(); } catch (e) { if (e instanceof JsonSyntaxError) console.log(e.code, e.offset); }
 */
export class JsonSyntaxError extends SyntaxError implements JsonErrorPosition {
  /** What went wrong, e.g. `'EXPECTED_COMMA_OR_BRACKET'`. */
  readonly code: JsonSyntaxErrorCode;
  readonly offset: number;
  readonly line: number;
  readonly column: number;

  constructor(message: string, code: JsonSyntaxErrorCode, position: JsonErrorPosition) {
    super(message);
    this.name = 'JsonSyntaxError';
    this.code = code;
    this.offset = position.offset;
    this.line = position.line;
    this.column = position.column;
  }
}

/**
 * The input exceeds `maxDepth` or `maxElementBytes`, or the WebAssembly heap could not grow to hold what it must
 * keep; the input may well be valid JSON.
 */
export class JsonLimitError extends RangeError implements JsonErrorPosition {
  /** Which limit: `'DEPTH_LIMIT'`, `'ELEMENT_TOO_LARGE'` or `'OUT_OF_MEMORY'`. */
  readonly code: JsonLimitErrorCode;
  readonly offset: number;
  readonly line: number;
  readonly column: number;

  constructor(message: string, code: JsonLimitErrorCode, position: JsonErrorPosition) {
    super(message);
    this.name = 'JsonLimitError';
    this.code = code;
    this.offset = position.offset;
    this.line = position.line;
    this.column = position.column;
  }
}

/**
 * A value given to an encoder (stringifyStream(), StreamedJsonResponse, the stringify streams) nests deeper than
 * its `maxDepth`: the text would be more than a parser with that `maxDepth` reads back (1024 by default, the
 * parsers' default). An encoder has no input, so no position: `path` names the value, as a JSONPath from the
 * value written (`$`; `$[2]` for the third value of a JsonArrayStringifyStream).
 *
 * @example
 * const o = { toJSON: () => ({ o }) }; // a new object at every level: not a cycle, endless
 * // reading stringifyStream(o) errors with JsonStringifyLimitError DEPTH_LIMIT, path $.o.o...
 */
export class JsonStringifyLimitError extends RangeError {
  /** Which limit: `'DEPTH_LIMIT'`. */
  readonly code: 'DEPTH_LIMIT';
  /** The limit exceeded. */
  readonly maxDepth: number;
  /** Where: the value whose array or object would open nesting `maxDepth + 1`, e.g. `$.a[3].b`. */
  readonly path: string;

  constructor(message: string, maxDepth: number, path: string) {
    super(message);
    this.name = 'JsonStringifyLimitError';
    this.code = 'DEPTH_LIMIT';
    this.maxDepth = maxDepth;
    this.path = path;
  }
}

/** The WebAssembly module could not be fetched, compiled or instantiated; `cause` holds the underlying error. */
export class SluiceLoadError extends Error {
  constructor(message: string, options: { readonly cause: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'SluiceLoadError';
  }
}

type ErrorCode = JsonSyntaxErrorCode | JsonLimitErrorCode;

// "expected" entries read "expected X but found Y"; the others read "X: found Y".
const WHAT: Readonly<Record<JsonSyntaxErrorCode, string>> = {
  EXPECTED_VALUE: 'expected a value but found',
  EXPECTED_COMMA_OR_BRACKET: 'expected "," or "]" but found',
  EXPECTED_COMMA_OR_BRACE: 'expected "," or "}" but found',
  EXPECTED_KEY: 'expected a string key but found',
  EXPECTED_COLON: 'expected ":" but found',
  TRAILING_DATA: 'expected end of input after the value but found',
  INVALID_NUMBER: 'invalid number: found',
  INVALID_LITERAL: 'invalid literal (true, false or null): found',
  CONTROL_CHARACTER: 'unescaped control character in a string: found',
  INVALID_ESCAPE: 'invalid escape sequence in a string: found',
  INVALID_UNICODE_ESCAPE: 'invalid \\u escape in a string: found',
  INVALID_UTF8: 'invalid UTF-8: found',
  UNEXPECTED_END: 'unexpected end of input: found',
};

/** @internal The limits a parser was created with, named in limit error messages. */
export interface ParserLimits {
  readonly maxDepth: number;
  readonly maxElementBytes: number;
  /** maxElementBytes was lowered to the longest text every engine holds in a string (stringLimits()). */
  readonly stringLimited_?: boolean;
}

/** @internal Shows a byte the way a reader recognises it: the character for printable ASCII, `0xC3` otherwise. */
export function describeByte(byte: number): string {
  if (byte >= 256) return 'end of input';
  if (byte >= 0x20 && byte < 0x7f) return JSON.stringify(String.fromCharCode(byte));
  return '0x' + byte.toString(16).toUpperCase().padStart(2, '0');
}

/**
 * @internal Builds the error for a non-zero native status. An unknown status (a contract mismatch) is a plain
 * Error.
 */
export function errorFromStatus(
  status: number,
  byte: number,
  position: JsonErrorPosition,
  limits: ParserLimits,
): Error {
  const where = ` at byte ${position.offset} (line ${position.line}, column ${position.column})`;
  const code = status > 0 && status < STATUS_NAMES.length ? (STATUS_NAMES[status] as ErrorCode) : undefined;
  if (code === undefined) return new Error(`sluice: unknown native status ${status}${where}`);
  if (code === 'DEPTH_LIMIT') {
    return new JsonLimitError(
      `Cannot parse JSON: nesting deeper than maxDepth (${limits.maxDepth})${where}`,
      code,
      position,
    );
  }
  if (code === 'ELEMENT_TOO_LARGE') {
    const limit = limits.stringLimited_
      ? `${limits.maxElementBytes} bytes, the longest text a string holds in every engine (output 'bytes' takes ` +
        'elements up to maxElementBytes)'
      : `maxElementBytes (${limits.maxElementBytes})`;
    return new JsonLimitError(`Cannot parse JSON: element larger than ${limit}${where}`, code, position);
  }
  if (code === 'OUT_OF_MEMORY') {
    return new JsonLimitError(
      `Cannot parse JSON: out of memory (the WebAssembly heap could not grow)${where}`,
      code,
      position,
    );
  }
  const message =
    code === 'UNEXPECTED_END' && byte >= 256
      ? `Cannot parse JSON: unexpected end of input${where}`
      : `Cannot parse JSON: ${WHAT[code]} ${describeByte(byte)}${where}`;
  return new JsonSyntaxError(message, code, position);
}

/**
 * A transient document was asked for a value whose first byte it has already read past (and forgotten). `path`
 * is the request's path, `offset` the cursor's absolute offset in the stream.
 */
export class JsonPassedError extends Error {
  readonly code = 'PATH_PASSED' as const;
  readonly path: string;
  readonly offset: number;

  constructor(message: string, path: string, offset: number) {
    super(message);
    this.name = 'JsonPassedError';
    this.path = path;
    this.offset = offset;
  }
}

/** One way a value fails a schema: what, and where (keys and indices from the root). */
export interface JsonSchemaIssue {
  readonly message: string;
  readonly path: readonly (string | number)[];
}

/** `$.a[0]["b c"]` for a path of keys and indices. */
function jsonPath(path: readonly (string | number)[]): string {
  let text = '$';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += /^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`;
  }
  return text;
}

/**
 * The JSON text is valid but its value does not match the `schema` given to `createPartialParser` or
 * `partialJson`: thrown by the push that holds the byte ending the offending value (a closing bracket or quote,
 * a number's delimiter, a literal's last letter), or by `end()` when the schema's own validation of the final value
 * fails. `path` is where (keys and indices from the root), `offset`, `line` and `column` the byte.
 */
export class JsonSchemaError extends TypeError implements JsonErrorPosition {
  readonly code = 'SCHEMA_MISMATCH' as const;
  /** Where the first issue is, as keys and indices from the root. */
  readonly path: readonly (string | number)[];
  /** Every issue found (the early check reports one; the schema's own validation may report more). */
  readonly issues: readonly JsonSchemaIssue[];
  readonly offset: number;
  readonly line: number;
  readonly column: number;

  /** `prefix` starts the message: what was read (readModelStream names the tool call and the event). */
  constructor(issues: readonly JsonSchemaIssue[], position: JsonErrorPosition, prefix = '') {
    const first = issues[0] ?? { message: 'invalid', path: [] };
    super(
      `${prefix}${jsonPath(first.path)}: ${first.message} (offset ${position.offset}, line ${position.line}, column ${position.column})`,
    );
    this.name = 'JsonSchemaError';
    this.path = first.path;
    this.issues = issues;
    this.offset = position.offset;
    this.line = position.line;
    this.column = position.column;
  }
}
