// Comparisons of RFC 9535 §2.3.5.2.2 between the values a filter computes: JSON values or Nothing (an empty
// singular query, a function with no result). `==` is deep equality (arrays element by element, objects by their
// set of names and each member), numbers by value (1 == 1.0), Nothing equal only to Nothing; `<` orders numbers,
// and strings by their Unicode scalar values; every other pair is neither less nor greater.
import type { ComparisonOperator } from './ast.js';

/** @internal The absence of a value: what an empty singular query or a function without a result gives. */
export const NOTHING: unique symbol = Symbol('Nothing');

/** @internal A value a comparison reads: a JSON value or Nothing. */
export type Operand = unknown;

/** @internal Whether `value` is a JSON object (a member-bearing value, not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function equal(a: Operand, b: Operand): boolean {
  if (a === b) return true; // Nothing and Nothing, equal primitives, one value with itself (-0 == 0 too)
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (!isObject(a) || !isObject(b)) return false;
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  for (const name of names) if (!Object.hasOwn(b, name) || !equal(a[name], b[name])) return false;
  return true;
}

/** UTF-16 units reordered as their code points order: surrogates above U+E000-FFFF, the rest below. */
function scalarOrder(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/** `a < b` for strings, by Unicode scalar values (JS's `<` compares UTF-16 units, which differs past U+E000). */
function stringLess(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return scalarOrder(x) < scalarOrder(y);
  }
  return a.length < b.length;
}

function less(a: Operand, b: Operand): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a < b;
  if (typeof a === 'string' && typeof b === 'string') return stringLess(a, b);
  return false;
}

/** @internal `left operator right` as RFC 9535 §2.3.5.2.2 defines it. */
export function compare(operator: ComparisonOperator, left: Operand, right: Operand): boolean {
  switch (operator) {
    case '==':
      return equal(left, right);
    case '!=':
      return !equal(left, right);
    case '<':
      return less(left, right);
    case '<=':
      return less(left, right) || equal(left, right);
    case '>':
      return less(right, left);
    case '>=':
      return less(right, left) || equal(left, right);
  }
}
