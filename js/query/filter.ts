// A filter's logical expression evaluated for one candidate (RFC 9535 §2.3.5.2): `||`, `&&`, `!`, existence tests,
// comparisons and the five functions (§2.4.4 to 2.4.8). The queries inside a filter are run by the caller's
// `select` (evaluate.ts), handed in so that this module and the segment evaluator import nothing of each other.
import type { Comparable, FunctionArgument, FunctionCall, LogicalExpression, Query } from './ast.js';
import { compare, isObject, NOTHING, type Operand } from './compare.js';
import { iregexpMatch, iregexpSearch } from './iregexp.js';

/** @internal Runs a query of a filter: `@` from `current`, `$` from `root`; the values of its nodelist. */
export type Select = (query: Query, current: unknown, root: unknown) => unknown[];

/** What one filter evaluation reads: the candidate (`@`), the document (`$`) and how to run queries. */
class Scope {
  constructor(
    readonly current_: unknown,
    readonly root_: unknown,
    readonly select_: Select,
  ) {}
}

/** @internal Whether `expression` is true with `current` as `@` and `root` as `$`. */
export function filterTest(expression: LogicalExpression, current: unknown, root: unknown, select: Select): boolean {
  return logical(expression, new Scope(current, root, select));
}

function logical(e: LogicalExpression, scope: Scope): boolean {
  switch (e.kind) {
    case 'or':
      return e.operands.some((operand) => logical(operand, scope));
    case 'and':
      return e.operands.every((operand) => logical(operand, scope));
    case 'not':
      return !logical(e.operand, scope);
    case 'exists':
      return nodes(e.query, scope).length > 0;
    case 'test':
      return asLogical(call(e.call, scope));
    case 'comparison':
      return compare(e.operator, operand(e.left, scope), operand(e.right, scope));
  }
}

function nodes(query: Query, scope: Scope): unknown[] {
  return scope.select_(query, scope.current_, scope.root_);
}

/** A function's result as a test: LogicalType as it is, NodesType true when not empty (§2.4.2). */
function asLogical(result: Operand): boolean {
  return Array.isArray(result) ? result.length > 0 : result === true;
}

/** A comparable's value: a literal, the value of a singular query (Nothing when empty), a ValueType function's. */
function operand(c: Comparable, scope: Scope): Operand {
  if (c.kind === 'literal') return c.value;
  if (c.kind === 'function') return call(c, scope);
  const list = nodes(c, scope);
  return list.length === 1 ? list[0] : NOTHING;
}

/** An argument as its parameter's type reads it; what the parser's type rules let through, nothing else. */
function value(arg: FunctionArgument, scope: Scope): Operand {
  return arg.kind === 'logical' ? logical(arg.expression, scope) : operand(arg, scope);
}

function nodelist(arg: FunctionArgument, scope: Scope): unknown[] {
  if (arg.kind === 'query') return nodes(arg, scope);
  // No function of the five returns NodesType, so a nodelist argument is always a query; kept total anyway.
  const result = arg.kind === 'function' ? call(arg, scope) : NOTHING;
  return Array.isArray(result) ? result : [];
}

/** The number of Unicode scalar values of a string (length() counts those, not UTF-16 units). */
function scalarCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** A function's result: a value or Nothing (ValueType), a boolean (LogicalType). */
function call(f: FunctionCall, scope: Scope): Operand {
  const [a, b] = f.args;
  switch (f.name) {
    case 'length': {
      const v = value(a!, scope);
      if (typeof v === 'string') return scalarCount(v);
      if (Array.isArray(v)) return v.length;
      return isObject(v) ? Object.keys(v).length : NOTHING;
    }
    case 'count':
      return nodelist(a!, scope).length;
    case 'value': {
      const list = nodelist(a!, scope);
      return list.length === 1 ? list[0] : NOTHING;
    }
    case 'match':
      return iregexpMatch(value(a!, scope), value(b!, scope));
    case 'search':
      return iregexpSearch(value(a!, scope), value(b!, scope));
  }
}
