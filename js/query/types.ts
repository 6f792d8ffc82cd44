// The type system of RFC 9535 §2.4: the five functions' declared parameter and result types, and the
// well-typedness rules the parser applies to every function argument, comparison operand and test.
import type { Comparable, ExpressionType, FunctionArgument, FunctionName, LogicalExpression } from './ast.js';

/** @internal A function's signature. */
export interface Signature {
  readonly params: readonly ExpressionType[];
  readonly result: ExpressionType;
}

/** @internal The function extensions of RFC 9535 §2.4.4 to 2.4.8, by name. */
export const FUNCTIONS: Readonly<Record<FunctionName, Signature>> = {
  length: { params: ['ValueType'], result: 'ValueType' },
  count: { params: ['NodesType'], result: 'ValueType' },
  match: { params: ['ValueType', 'ValueType'], result: 'LogicalType' },
  search: { params: ['ValueType', 'ValueType'], result: 'LogicalType' },
  value: { params: ['NodesType'], result: 'ValueType' },
};

/** @internal Whether `name` is one of the functions. */
export function isFunctionName(name: string): name is FunctionName {
  return Object.hasOwn(FUNCTIONS, name);
}

/** What an argument of each parameter type may be, as messages say it. */
export const ACCEPTS: Readonly<Record<ExpressionType, string>> = {
  ValueType: 'a value (a literal, a singular query or a function of ValueType)',
  LogicalType: 'a logical expression (a query, a comparison or a function of LogicalType or NodesType)',
  NodesType: 'a nodelist (a query or a function of NodesType)',
};

/** @internal Whether `arg` is well-typed for a parameter of type `param` (RFC 9535 §2.4.3). */
export function fitsParameter(arg: FunctionArgument, param: ExpressionType): boolean {
  switch (param) {
    case 'ValueType':
      return (
        arg.kind === 'literal' ||
        (arg.kind === 'query' && arg.singular) ||
        (arg.kind === 'function' && arg.type === 'ValueType')
      );
    case 'LogicalType':
      // A query converts to LogicalType by existence, a function of NodesType too (§2.4.2).
      return arg.kind === 'logical' || arg.kind === 'query' || (arg.kind === 'function' && arg.type !== 'ValueType');
    case 'NodesType':
      return arg.kind === 'query' || (arg.kind === 'function' && arg.type === 'NodesType');
  }
}

/** @internal Whether `operand` may be compared: a literal, a singular query or a function of ValueType. */
export function isComparable(operand: Comparable): boolean {
  return fitsParameter(operand, 'ValueType');
}

/** @internal `operand` as a test expression, or null when it is none (a literal, a function of ValueType). */
export function asTest(operand: Comparable): LogicalExpression | null {
  if (operand.kind === 'query') return { kind: 'exists', query: operand };
  if (operand.kind === 'function' && operand.type !== 'ValueType') return { kind: 'test', call: operand };
  return null;
}
