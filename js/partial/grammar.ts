// The grammar's vocabulary for tokenizer.ts: the states between characters, the number automaton's states, the
// native status codes the errors use (js/native/status.ts), and the character classes. Internal to js/partial.

// States between characters.
export const S_VALUE = 0; // a value (the root, an object member's, or an array element after ',')
export const S_ARRAY_FIRST = 1; // after '[': a value or ']'
export const S_AFTER_VALUE = 2; // after a member: ',' or the closing bracket
export const S_OBJECT_FIRST = 3; // after '{': a key or '}'
export const S_KEY = 4; // after ',' in an object: a key
export const S_COLON = 5; // after a key
export const S_END = 6; // after the root value: whitespace only
export const S_STRING = 7; // in a string value
export const S_KEY_STRING = 8; // in an object key
export const S_NUMBER = 9; // in a number
export const S_LITERAL = 10; // in true, false or null
export const S_LITERAL_END = 11; // right after a literal: the next character must end it
export const S_START = 12; // before the root value

// Number states: the last character read was ...
export const N_MINUS = 0; // '-'
export const N_ZERO = 1; // the integer part's only digit, 0
export const N_INT = 2; // a digit of the integer part
export const N_DOT = 3; // '.'
export const N_FRAC = 4; // a fraction digit
export const N_E = 5; // 'e' or 'E'
export const N_ESIGN = 6; // the exponent's sign
export const N_EXP = 7; // an exponent digit
// numberStep()'s answers for a character that does not continue the number.
export const N_OUTSIDE = -1; // not part of it: it may end the number
export const N_INVALID = -2; // no number continues so (a digit after a leading 0)

/** The number's state after its next character `c`, or N_OUTSIDE or N_INVALID. */
export function numberStep(ns: number, c: number): number {
  if (c >= 48 && c <= 57) {
    if (ns === N_MINUS) return c === 48 ? N_ZERO : N_INT;
    if (ns === N_ZERO) return N_INVALID;
    if (ns === N_DOT) return N_FRAC;
    return ns === N_E || ns === N_ESIGN ? N_EXP : ns;
  }
  if (c === 46) return ns === N_ZERO || ns === N_INT ? N_DOT : N_OUTSIDE;
  if (c === 101 || c === 69) return ns === N_ZERO || ns === N_INT || ns === N_FRAC ? N_E : N_OUTSIDE;
  if (c === 43 || c === 45) return ns === N_E ? N_ESIGN : N_OUTSIDE;
  return N_OUTSIDE;
}

/** Whether a number whose last character left it in state `ns` is a whole number. */
export function isCompleteNumber(ns: number): boolean {
  return ns === N_ZERO || ns === N_INT || ns === N_FRAC || ns === N_EXP;
}

// Native status codes (their one home: js/native/status.ts).
export {
  CONTROL_CHARACTER,
  DEPTH_LIMIT,
  EXPECTED_COLON,
  EXPECTED_COMMA_OR_BRACE,
  EXPECTED_COMMA_OR_BRACKET,
  EXPECTED_KEY,
  EXPECTED_VALUE,
  INVALID_ESCAPE,
  INVALID_LITERAL,
  INVALID_NUMBER,
  INVALID_UNICODE_ESCAPE,
  TRAILING_DATA,
} from '../native/status.js';

export const LITERALS: Readonly<Record<number, string>> = { 116: 'true', 102: 'false', 110: 'null' };
export const LITERAL_VALUES: Readonly<Record<string, boolean | null>> = { true: true, false: false, null: null };
// What a simple escape stands for, by the character after the backslash.
export const ESCAPES: readonly (string | undefined)[] = (() => {
  const table: (string | undefined)[] = [];
  for (const [c, s] of [
    ['"', '"'],
    ['\\', '\\'],
    ['/', '/'],
    ['b', '\b'],
    ['f', '\f'],
    ['n', '\n'],
    ['r', '\r'],
    ['t', '\t'],
  ] as const)
    table[c.charCodeAt(0)] = s;
  return table;
})();

export function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** Whitespace, or a structural character or quote: what may follow a number or a literal. */
export function endsToken(c: number): boolean {
  return (
    c === 32 ||
    c === 10 ||
    c === 13 ||
    c === 9 ||
    c === 44 ||
    c === 93 ||
    c === 125 ||
    c === 58 ||
    c === 34 ||
    c === 91 ||
    c === 123
  );
}

/** A character that may continue a number (so it belongs to it for the size limit). */
export function continuesNumber(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}
