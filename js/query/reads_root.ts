// Whether a filter reads the document's root `$`: such a filter needs the whole document, which neither a stream
// nor openJson's iteration holds, so both refuse it (js/query/split.ts, js/open_json/open_json_query.ts).
import type { FunctionArgument, LogicalExpression, Query, Segment } from './ast.js';

/** Where the first filter of `segments` that reads `$` starts, or null. */
export function rootFilterAt(segments: readonly Segment[]): number | null {
  for (const segment of segments) {
    for (const s of segment.selectors) if (s.kind === 'filter' && readsRoot(s.expression)) return s.at;
  }
  return null;
}

/** Whether a filter expression reads `$` (in any query of it, nested filters included). */
export function readsRoot(expression: LogicalExpression): boolean {
  switch (expression.kind) {
    case 'or':
    case 'and':
      return expression.operands.some(readsRoot);
    case 'not':
      return readsRoot(expression.operand);
    case 'exists':
      return queryReadsRoot(expression.query);
    case 'test':
      return expression.call.args.some(argumentReadsRoot);
    case 'comparison':
      return argumentReadsRoot(expression.left) || argumentReadsRoot(expression.right);
  }
}

function argumentReadsRoot(arg: FunctionArgument): boolean {
  if (arg.kind === 'query') return queryReadsRoot(arg);
  if (arg.kind === 'function') return arg.args.some(argumentReadsRoot);
  if (arg.kind === 'logical') return readsRoot(arg.expression);
  return false;
}

function queryReadsRoot(query: Query): boolean {
  return query.root === '$' || rootFilterAt(query.segments) !== null;
}
