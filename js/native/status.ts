// The native parser's status codes, JS half: src/sluice/error.h's error_code, each under its name in upper case
// (the `code` of the error it becomes, js/errors.ts). The only place in js/ that spells the numbers;
// tests/node/status_codes.test.ts compares them with the header. Plain constants: js/partial (pure JS) uses them too.

/** @internal No error. */
export const OK = 0;
/** @internal */
export const EXPECTED_VALUE = 1;
/** @internal */
export const EXPECTED_COMMA_OR_BRACKET = 2;
/** @internal */
export const EXPECTED_COMMA_OR_BRACE = 3;
/** @internal */
export const EXPECTED_KEY = 4;
/** @internal */
export const EXPECTED_COLON = 5;
/** @internal */
export const TRAILING_DATA = 6;
/** @internal */
export const INVALID_NUMBER = 7;
/** @internal */
export const INVALID_LITERAL = 8;
/** @internal */
export const CONTROL_CHARACTER = 9;
/** @internal */
export const INVALID_ESCAPE = 10;
/** @internal */
export const INVALID_UNICODE_ESCAPE = 11;
/** @internal */
export const INVALID_UTF8 = 12;
/** @internal */
export const UNEXPECTED_END = 13;
/** @internal */
export const DEPTH_LIMIT = 14;
/** @internal */
export const ELEMENT_TOO_LARGE = 15;
/** @internal */
export const OUT_OF_MEMORY = 16;

/** @internal Each status's name, indexed by status (the test checks it against the constants above). */
export const STATUS_NAMES = [
  'OK',
  'EXPECTED_VALUE',
  'EXPECTED_COMMA_OR_BRACKET',
  'EXPECTED_COMMA_OR_BRACE',
  'EXPECTED_KEY',
  'EXPECTED_COLON',
  'TRAILING_DATA',
  'INVALID_NUMBER',
  'INVALID_LITERAL',
  'CONTROL_CHARACTER',
  'INVALID_ESCAPE',
  'INVALID_UNICODE_ESCAPE',
  'INVALID_UTF8',
  'UNEXPECTED_END',
  'DEPTH_LIMIT',
  'ELEMENT_TOO_LARGE',
  'OUT_OF_MEMORY',
] as const;
