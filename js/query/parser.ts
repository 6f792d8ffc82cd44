// parseQuery(): the whole RFC 9535 grammar (section 2 and Appendix A) read by recursive descent into the plain
// tree of ast.ts, every function argument, comparison operand and test checked for well-typedness (§2.4.3) as it
// is read. Blanks are where the ABNF puts S and nowhere else: between segments (`$ .a`, `$ ["a"]`), inside
// brackets and filters, never after `$`'s dot (`$. a`) nor around the whole query.
import { mustBe, type ApiName } from '../validate.js';
import type {
  Comparable,
  ComparisonOperator,
  FunctionArgument,
  FunctionCall,
  LogicalExpression,
  Query,
  Segment,
  Selector,
} from './ast.js';
import { Cursor, isDigit, isLowerAlpha } from './scanner.js';
import { ACCEPTS, asTest, FUNCTIONS, fitsParameter, isComparable, isFunctionName } from './types.js';

const OPERATORS: readonly ComparisonOperator[] = ['==', '!=', '<=', '>=', '<', '>'];
const COMPARABLE = 'a comparable (a literal, a singular query or a function)';
const SELECTOR = 'a selector (a quoted name, "*", an index, a slice or "?" and a filter)';
const EXPRESSION = 'a filter expression (a query, a function, a comparison, "!" or "(")';

/**
 * @internal Parses `text` as an RFC 9535 JSONPath query. `api` and `subject` name it in error messages.
 * @throws {TypeError} for anything but a well-formed, well-typed query: `sluice: path "$[?@.a <]" at 8: expected
 * a comparable (a literal, a singular query or a function), found the end`.
 */
export function parseQuery(text: string, api: ApiName = 'sluice', subject = 'path'): Query {
  if (typeof text !== 'string') throw mustBe(api, subject, 'a string', text);
  const c = new Cursor(text, api, subject);
  if (c.peek() !== 0x24) throw c.expected(0, '"$" (a query starts with the root identifier)');
  c.pos = 1;
  const query = segments(c, '$');
  if (c.pos < text.length) throw c.expected(c.pos, 'a segment ("." or ".." or "[")');
  return query;
}

/** *(S segment) after a root identifier; the blanks before something that is no segment are left unread. */
function segments(c: Cursor, root: '$' | '@'): Query {
  const list: Segment[] = [];
  let singular = true;
  for (;;) {
    const before = c.pos;
    c.blanks();
    const at = c.pos;
    let segment: Segment;
    if (c.eat('..')) {
      segment = { descendant: true, selectors: c.peek() === 0x5b ? bracketed(c) : [dotted(c, '..')], at };
    } else if (c.eat('.')) {
      segment = { descendant: false, selectors: [dotted(c, '.')], at };
    } else if (c.peek() === 0x5b) {
      segment = { descendant: false, selectors: bracketed(c), at };
    } else {
      c.pos = before;
      break;
    }
    const only = segment.selectors.length === 1 ? segment.selectors[0]!.kind : '';
    if (segment.descendant || (only !== 'name' && only !== 'index')) singular = false;
    list.push(segment);
  }
  return { kind: 'query', root, segments: list, singular };
}

/** What follows `.` or `..`: `*` or a member name shorthand. */
function dotted(c: Cursor, after: string): Selector {
  const at = c.pos;
  if (c.eat('*')) return { kind: 'wildcard', at };
  const cp = c.text.codePointAt(c.pos);
  if (cp === undefined || (cp < 0x80 && !/[A-Za-z_]/.test(String.fromCharCode(cp)))) {
    throw c.expected(c.pos, `a member name or "*" after "${after}"`);
  }
  return { kind: 'name', name: c.name(), at };
}

/** bracketed-selection: "[" S selector *(S "," S selector) S "]". */
function bracketed(c: Cursor): Selector[] {
  c.need('[');
  const list: Selector[] = [];
  for (;;) {
    c.blanks();
    list.push(selector(c));
    c.blanks();
    if (c.eat(']')) return list;
    if (!c.eat(',')) throw c.expected(c.pos, '"," or "]"');
  }
}

function selector(c: Cursor): Selector {
  const at = c.pos;
  const ch = c.peek();
  if (ch === 0x27 || ch === 0x22) return { kind: 'name', name: c.string(), at };
  if (c.eat('*')) return { kind: 'wildcard', at };
  if (c.eat('?')) {
    c.blanks();
    return { kind: 'filter', expression: logicalOr(c, null), at };
  }
  const start = c.int();
  const afterStart = c.pos;
  c.blanks();
  if (!c.eat(':')) {
    c.pos = afterStart;
    if (start === null) throw c.expected(c.pos, SELECTOR);
    return { kind: 'index', index: start, at };
  }
  // slice-selector = [start S] ":" S [end S] [":" [S step]]
  c.blanks();
  const end = c.int();
  if (end !== null) c.blanks();
  let step: number | null = null;
  if (c.eat(':')) {
    const beforeStep = c.pos;
    c.blanks();
    step = c.int();
    if (step === null) c.pos = beforeStep;
  }
  return { kind: 'slice', start, end, step, at };
}

/** logical-or-expr; `first`, when given, is a primary already read at its start (a function's argument). */
function logicalOr(c: Cursor, first: Comparable | null): LogicalExpression {
  const operands = [logicalAnd(c, first)];
  for (;;) {
    const before = c.pos;
    c.blanks();
    if (!c.eat('||')) {
      c.pos = before;
      break;
    }
    c.blanks();
    operands.push(logicalAnd(c, null));
  }
  return operands.length === 1 ? operands[0]! : { kind: 'or', operands };
}

function logicalAnd(c: Cursor, first: Comparable | null): LogicalExpression {
  const operands = [basic(c, first)];
  for (;;) {
    const before = c.pos;
    c.blanks();
    if (!c.eat('&&')) {
      c.pos = before;
      break;
    }
    c.blanks();
    operands.push(basic(c, null));
  }
  return operands.length === 1 ? operands[0]! : { kind: 'and', operands };
}

/** basic-expr: paren-expr / comparison-expr / test-expr. */
function basic(c: Cursor, first: Comparable | null): LogicalExpression {
  if (first === null && c.eat('!')) {
    c.blanks();
    if (c.peek() === 0x28) return { kind: 'not', operand: parenthesised(c) };
    const at = c.pos;
    const operand = primary(c);
    const test = operand === null ? null : asTest(operand);
    if (test === null) throw c.expected(at, 'a query, a function of LogicalType or NodesType or "(" after "!"');
    return { kind: 'not', operand: test };
  }
  if (first === null && c.peek() === 0x28) return parenthesised(c);
  const at = c.pos;
  const left = first ?? primary(c);
  if (left === null) throw c.expected(at, EXPRESSION);
  const afterLeft = c.pos;
  c.blanks();
  const operator = OPERATORS.find((op) => c.eat(op));
  if (operator === undefined) {
    c.pos = afterLeft;
    const test = asTest(left);
    if (test !== null) return test;
    throw c.expected(afterLeft, 'a comparison operator (a literal or a function of ValueType is no test)');
  }
  if (!isComparable(left)) throw c.error(at, `expected ${COMPARABLE} before "${operator}": ${describe(left)}`);
  c.blanks();
  const rightAt = c.pos;
  const right = primary(c);
  if (right === null) throw c.expected(rightAt, COMPARABLE);
  if (!isComparable(right)) throw c.error(rightAt, `expected ${COMPARABLE} after "${operator}": ${describe(right)}`);
  return { kind: 'comparison', operator, left, right };
}

/** Why an operand cannot be compared. */
function describe(operand: Comparable): string {
  if (operand.kind === 'query') return 'this query can select more than one node';
  return operand.kind === 'function' ? `${operand.name}() is of ${operand.type}` : 'a literal';
}

/** "(" S logical-expr S ")". */
function parenthesised(c: Cursor): LogicalExpression {
  c.need('(');
  c.blanks();
  const expression = logicalOr(c, null);
  c.blanks();
  c.need(')', '")" or a logical operator');
  return expression;
}

/** A literal, a query (`@...` or `$...`) or a function expression; null when none starts here. */
function primary(c: Cursor): Comparable | null {
  const ch = c.peek();
  if (ch === 0x40 || ch === 0x24) {
    c.pos++;
    return segments(c, ch === 0x40 ? '@' : '$');
  }
  if (ch === 0x27 || ch === 0x22) return { kind: 'literal', value: c.string() };
  if (ch === 0x2d || isDigit(ch)) {
    const value = c.number();
    return value === null ? null : { kind: 'literal', value };
  }
  if (!isLowerAlpha(ch)) return null;
  const start = c.pos;
  while (isLowerAlpha(c.peek()) || isDigit(c.peek()) || c.peek() === 0x5f) c.pos++;
  const word = c.text.slice(start, c.pos);
  if (c.peek() !== 0x28) {
    if (word === 'true' || word === 'false') return { kind: 'literal', value: word === 'true' };
    if (word === 'null') return { kind: 'literal', value: null };
    throw c.expected(c.pos, `"(" after the function name ${word}`);
  }
  if (!isFunctionName(word)) {
    throw c.error(start, `unknown function ${word}(); the functions are ${Object.keys(FUNCTIONS).join(', ')}`);
  }
  return call(c, word, start);
}

/** function-expr from its "(": the arguments, each checked against its parameter's type. */
function call(c: Cursor, name: keyof typeof FUNCTIONS, start: number): FunctionCall {
  const signature = FUNCTIONS[name];
  c.need('(');
  c.blanks();
  const args: FunctionArgument[] = [];
  if (!c.eat(')')) {
    for (;;) {
      const at = c.pos;
      const param = signature.params[args.length];
      const arg = argument(c);
      if (param !== undefined && !fitsParameter(arg, param)) {
        throw c.error(at, `argument ${args.length + 1} of ${name}() must be ${ACCEPTS[param]}`);
      }
      args.push(arg);
      c.blanks();
      if (c.eat(')')) break;
      if (!c.eat(',')) throw c.expected(c.pos, '"," or ")"');
      c.blanks();
    }
  }
  if (args.length !== signature.params.length) {
    const n = signature.params.length;
    throw c.error(start, `${name}() takes ${n} argument${n === 1 ? '' : 's'}, got ${args.length}`);
  }
  return { kind: 'function', name, args, type: signature.result };
}

/** function-argument: literal / filter-query / logical-expr / function-expr, a bare primary kept as it is. */
function argument(c: Cursor): FunctionArgument {
  const first = c.peek() === 0x21 || c.peek() === 0x28 ? null : primary(c);
  if (first !== null) {
    const after = c.pos;
    c.blanks();
    const next = c.peek();
    c.pos = after;
    if (next === 0x2c || next === 0x29) return first;
  }
  return { kind: 'logical', expression: logicalOr(c, first) };
}
