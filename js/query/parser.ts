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
  if (c.peek_() !== 0x24) throw c.expected_(0, '"$" (a query starts with the root identifier)');
  c.pos_ = 1;
  const query = segments(c, '$');
  if (c.pos_ < text.length) throw c.expected_(c.pos_, 'a segment ("." or ".." or "[")');
  return query;
}

/** *(S segment) after a root identifier; the blanks before something that is no segment are left unread. */
function segments(c: Cursor, root: '$' | '@'): Query {
  const list: Segment[] = [];
  let singular = true;
  for (;;) {
    const before = c.pos_;
    c.blanks_();
    const at = c.pos_;
    let segment: Segment;
    if (c.eat_('..')) {
      segment = { descendant: true, selectors: c.peek_() === 0x5b ? bracketed(c) : [dotted(c, '..')], at };
    } else if (c.eat_('.')) {
      segment = { descendant: false, selectors: [dotted(c, '.')], at };
    } else if (c.peek_() === 0x5b) {
      segment = { descendant: false, selectors: bracketed(c), at };
    } else {
      c.pos_ = before;
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
  const at = c.pos_;
  if (c.eat_('*')) return { kind: 'wildcard', at };
  const cp = c.text_.codePointAt(c.pos_);
  if (cp === undefined || (cp < 0x80 && !/[A-Za-z_]/.test(String.fromCharCode(cp)))) {
    throw c.expected_(c.pos_, `a member name or "*" after "${after}"`);
  }
  return { kind: 'name', name: c.name_(), at };
}

/** bracketed-selection: "[" S selector *(S "," S selector) S "]". */
function bracketed(c: Cursor): Selector[] {
  c.need_('[');
  const list: Selector[] = [];
  for (;;) {
    c.blanks_();
    list.push(selector(c));
    c.blanks_();
    if (c.eat_(']')) return list;
    if (!c.eat_(',')) throw c.expected_(c.pos_, '"," or "]"');
  }
}

function selector(c: Cursor): Selector {
  const at = c.pos_;
  const ch = c.peek_();
  if (ch === 0x27 || ch === 0x22) return { kind: 'name', name: c.string_(), at };
  if (c.eat_('*')) return { kind: 'wildcard', at };
  if (c.eat_('?')) {
    c.blanks_();
    return { kind: 'filter', expression: logicalOr(c, null), at };
  }
  const start = c.int_();
  const afterStart = c.pos_;
  c.blanks_();
  if (!c.eat_(':')) {
    c.pos_ = afterStart;
    if (start === null) throw c.expected_(c.pos_, SELECTOR);
    return { kind: 'index', index: start, at };
  }
  // slice-selector = [start S] ":" S [end S] [":" [S step]]
  c.blanks_();
  const end = c.int_();
  if (end !== null) c.blanks_();
  let step: number | null = null;
  if (c.eat_(':')) {
    const beforeStep = c.pos_;
    c.blanks_();
    step = c.int_();
    if (step === null) c.pos_ = beforeStep;
  }
  return { kind: 'slice', start, end, step, at };
}

/** logical-or-expr; `first`, when given, is a primary already read at its start (a function's argument). */
function logicalOr(c: Cursor, first: Comparable | null): LogicalExpression {
  const operands = [logicalAnd(c, first)];
  for (;;) {
    const before = c.pos_;
    c.blanks_();
    if (!c.eat_('||')) {
      c.pos_ = before;
      break;
    }
    c.blanks_();
    operands.push(logicalAnd(c, null));
  }
  return operands.length === 1 ? operands[0]! : { kind: 'or', operands };
}

function logicalAnd(c: Cursor, first: Comparable | null): LogicalExpression {
  const operands = [basic(c, first)];
  for (;;) {
    const before = c.pos_;
    c.blanks_();
    if (!c.eat_('&&')) {
      c.pos_ = before;
      break;
    }
    c.blanks_();
    operands.push(basic(c, null));
  }
  return operands.length === 1 ? operands[0]! : { kind: 'and', operands };
}

/** basic-expr: paren-expr / comparison-expr / test-expr. */
function basic(c: Cursor, first: Comparable | null): LogicalExpression {
  if (first === null && c.eat_('!')) {
    c.blanks_();
    if (c.peek_() === 0x28) return { kind: 'not', operand: parenthesised(c) };
    const at = c.pos_;
    const operand = primary(c);
    const test = operand === null ? null : asTest(operand);
    if (test === null) throw c.expected_(at, 'a query, a function of LogicalType or NodesType or "(" after "!"');
    return { kind: 'not', operand: test };
  }
  if (first === null && c.peek_() === 0x28) return parenthesised(c);
  const at = c.pos_;
  const left = first ?? primary(c);
  if (left === null) throw c.expected_(at, EXPRESSION);
  const afterLeft = c.pos_;
  c.blanks_();
  const operator = OPERATORS.find((op) => c.eat_(op));
  if (operator === undefined) {
    c.pos_ = afterLeft;
    const test = asTest(left);
    if (test !== null) return test;
    throw c.expected_(afterLeft, 'a comparison operator (a literal or a function of ValueType is no test)');
  }
  if (!isComparable(left)) throw c.error_(at, `expected ${COMPARABLE} before "${operator}": ${describe(left)}`);
  c.blanks_();
  const rightAt = c.pos_;
  const right = primary(c);
  if (right === null) throw c.expected_(rightAt, COMPARABLE);
  if (!isComparable(right)) throw c.error_(rightAt, `expected ${COMPARABLE} after "${operator}": ${describe(right)}`);
  return { kind: 'comparison', operator, left, right };
}

/** Why an operand cannot be compared. */
function describe(operand: Comparable): string {
  if (operand.kind === 'query') return 'this query can select more than one node';
  return operand.kind === 'function' ? `${operand.name}() is of ${operand.type}` : 'a literal';
}

/** "(" S logical-expr S ")". */
function parenthesised(c: Cursor): LogicalExpression {
  c.need_('(');
  c.blanks_();
  const expression = logicalOr(c, null);
  c.blanks_();
  c.need_(')', '")" or a logical operator');
  return expression;
}

/** A literal, a query (`@...` or `$...`) or a function expression; null when none starts here. */
function primary(c: Cursor): Comparable | null {
  const ch = c.peek_();
  if (ch === 0x40 || ch === 0x24) {
    c.pos_++;
    return segments(c, ch === 0x40 ? '@' : '$');
  }
  if (ch === 0x27 || ch === 0x22) return { kind: 'literal', value: c.string_() };
  if (ch === 0x2d || isDigit(ch)) {
    const value = c.number_();
    return value === null ? null : { kind: 'literal', value };
  }
  if (!isLowerAlpha(ch)) return null;
  const start = c.pos_;
  while (isLowerAlpha(c.peek_()) || isDigit(c.peek_()) || c.peek_() === 0x5f) c.pos_++;
  const word = c.text_.slice(start, c.pos_);
  if (c.peek_() !== 0x28) {
    if (word === 'true' || word === 'false') return { kind: 'literal', value: word === 'true' };
    if (word === 'null') return { kind: 'literal', value: null };
    throw c.expected_(c.pos_, `"(" after the function name ${word}`);
  }
  if (!isFunctionName(word)) {
    throw c.error_(start, `unknown function ${word}(); the functions are ${Object.keys(FUNCTIONS).join(', ')}`);
  }
  return call(c, word, start);
}

/** function-expr from its "(": the arguments, each checked against its parameter's type. */
function call(c: Cursor, name: keyof typeof FUNCTIONS, start: number): FunctionCall {
  const signature = FUNCTIONS[name];
  c.need_('(');
  c.blanks_();
  const args: FunctionArgument[] = [];
  if (!c.eat_(')')) {
    for (;;) {
      const at = c.pos_;
      const param = signature.params[args.length];
      const arg = argument(c);
      if (param !== undefined && !fitsParameter(arg, param)) {
        throw c.error_(at, `argument ${args.length + 1} of ${name}() must be ${ACCEPTS[param]}`);
      }
      args.push(arg);
      c.blanks_();
      if (c.eat_(')')) break;
      if (!c.eat_(',')) throw c.expected_(c.pos_, '"," or ")"');
      c.blanks_();
    }
  }
  if (args.length !== signature.params.length) {
    const n = signature.params.length;
    throw c.error_(start, `${name}() takes ${n} argument${n === 1 ? '' : 's'}, got ${args.length}`);
  }
  return { kind: 'function', name, args, type: signature.result };
}

/** function-argument: literal / filter-query / logical-expr / function-expr, a bare primary kept as it is. */
function argument(c: Cursor): FunctionArgument {
  const first = c.peek_() === 0x21 || c.peek_() === 0x28 ? null : primary(c);
  if (first !== null) {
    const after = c.pos_;
    c.blanks_();
    const next = c.peek_();
    c.pos_ = after;
    if (next === 0x2c || next === 0x29) return first;
  }
  return { kind: 'logical', expression: logicalOr(c, first) };
}
