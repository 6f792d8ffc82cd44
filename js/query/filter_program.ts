// A filter expression lowered to the native filter program (src/select/filter.h has the grammar): postfix, the
// singular relative queries as steps `."name"` / `#N` between `@` and `;`, literals as their JSON text. Only what
// the native side evaluates exactly is lowered: comparisons of singular relative queries (names, indices >= 0) and
// literals, existence tests of such queries, `&&`, `||`, `!`. Anything else (functions, `$` queries, non-singular
// queries, negative indices) gives null, and the query is refused.
import type { Comparable, LogicalExpression, Query } from './ast.js';

/** The native evaluator's stack (max_filter_stack in src/select/filter.cpp). */
const MAX_STACK = 64;

const OPERATORS = { '==': '=', '!=': 'n', '<': '<', '<=': 'l', '>': '>', '>=': 'g' } as const;

/** @internal The program of `expression`, or null when the native evaluator does not take it. */
export function filterProgram(expression: LogicalExpression): string | null {
  const out: string[] = [];
  let depth = 0;
  let max = 0;
  const push = (text: string) => {
    out.push(text);
    max = Math.max(max, ++depth);
  };
  const pop = (text: string, operands: number) => {
    out.push(text);
    depth -= operands - 1;
  };
  const query = (q: Query): boolean => {
    if (q.root !== '@' || !q.singular) return false;
    let text = '@';
    for (const segment of q.segments) {
      const s = segment.selectors[0]!;
      if (s.kind === 'name') text += `.${JSON.stringify(s.name)}`;
      else if (s.kind === 'index' && s.index >= 0) text += `#${s.index}`;
      else return false;
    }
    push(`${text};`);
    return true;
  };
  const comparable = (c: Comparable): boolean => {
    if (c.kind === 'query') return query(c);
    if (c.kind !== 'literal') return false;
    const v = c.value;
    if (typeof v === 'number' && !Number.isFinite(v)) return false;
    // Numbers as JS writes them (valid JSON; JSON.parse reads the same double back), strings escaped by JSON.
    push(`L${typeof v === 'number' ? String(v) : JSON.stringify(v)}`);
    return true;
  };
  const logical = (e: LogicalExpression): boolean => {
    switch (e.kind) {
      case 'or':
      case 'and':
        for (let i = 0; i < e.operands.length; i++) {
          if (!logical(e.operands[i]!)) return false;
          if (i > 0) pop(e.kind === 'or' ? '|' : '&', 2);
        }
        return true;
      case 'not':
        if (!logical(e.operand)) return false;
        pop('~', 1);
        return true;
      case 'exists':
        if (!query(e.query)) return false;
        pop('E', 1);
        return true;
      case 'comparison':
        if (!comparable(e.left) || !comparable(e.right)) return false;
        pop(OPERATORS[e.operator], 2);
        return true;
      case 'test':
        return false;
    }
  };
  if (!logical(expression) || max > MAX_STACK) return null;
  return out.join('');
}
