// The typed syntax tree of an RFC 9535 JSONPath query, as parseQuery() builds it. Plain data only (no closures, no
// classes, no cycles), so that a later step can serialize it to the wasm engine as it is, and every node says what
// it is by `kind`. Well-typedness (RFC 9535 §2.4.3) is checked when the tree is built: a tree of these types that
// parseQuery() returned is valid, and the evaluator trusts it.

/** @internal A JSON literal of a filter: a string, a number, `true`, `false` or `null`. */
export interface Literal {
  readonly kind: 'literal';
  readonly value: string | number | boolean | null;
}

/** @internal Where a selector starts in the query's text (a UTF-16 index), for messages about it. */
interface Located {
  readonly at: number;
}

/** @internal `'name'`, `"name"` or `.name`: the member of that name, decoded (escapes resolved). */
export interface NameSelector extends Located {
  readonly kind: 'name';
  readonly name: string;
}

/** @internal `*`: every element of an array, every member value of an object. */
export interface WildcardSelector extends Located {
  readonly kind: 'wildcard';
}

/** @internal `[N]`: the element at N, from the end when N is negative; N within ±(2^53 - 1). */
export interface IndexSelector extends Located {
  readonly kind: 'index';
  readonly index: number;
}

/** @internal `[start:end:step]`, each part optional (`null`: absent, its default depends on the step's sign). */
export interface SliceSelector extends Located {
  readonly kind: 'slice';
  readonly start: number | null;
  readonly end: number | null;
  readonly step: number | null;
}

/** @internal `?expr`: the children for which `expr` is true. */
export interface FilterSelector extends Located {
  readonly kind: 'filter';
  readonly expression: LogicalExpression;
}

/** @internal Any selector of a bracketed selection. */
export type Selector = NameSelector | WildcardSelector | IndexSelector | SliceSelector | FilterSelector;

/** @internal A segment: the selectors applied to each input node (child) or to it and each descendant (`..`). */
export interface Segment extends Located {
  readonly descendant: boolean;
  readonly selectors: readonly Selector[];
}

/**
 * @internal A query: `$` (the document's root) or `@` (a filter's current node, only inside filters) and its
 * segments. `singular` is true when every segment is a child segment of one name or index selector: the query
 * yields at most one node and may be compared (RFC 9535 §2.3.5.1).
 */
export interface Query {
  readonly kind: 'query';
  readonly root: '$' | '@';
  readonly segments: readonly Segment[];
  readonly singular: boolean;
}

/** @internal The five function extensions of RFC 9535 §2.4.4 to 2.4.8. */
export type FunctionName = 'length' | 'count' | 'match' | 'search' | 'value';

/** @internal The declared types of RFC 9535 §2.4.1. */
export type ExpressionType = 'ValueType' | 'LogicalType' | 'NodesType';

/** @internal A function's argument, as its parameter's type reads it. */
export type FunctionArgument =
  | Literal
  | Query
  | FunctionCall
  | { readonly kind: 'logical'; readonly expression: LogicalExpression };

/** @internal `name(args)`, its arguments checked against the function's parameter types; `type` its result type. */
export interface FunctionCall {
  readonly kind: 'function';
  readonly name: FunctionName;
  readonly args: readonly FunctionArgument[];
  readonly type: ExpressionType;
}

/** @internal What a comparison compares: a literal, a singular query or a function of ValueType. */
export type Comparable = Literal | Query | FunctionCall;

/** @internal The comparison operators of RFC 9535 §2.3.5.1. */
export type ComparisonOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** @internal A filter's logical expression (RFC 9535 §2.3.5.1). */
export type LogicalExpression =
  | { readonly kind: 'or'; readonly operands: readonly LogicalExpression[] }
  | { readonly kind: 'and'; readonly operands: readonly LogicalExpression[] }
  | { readonly kind: 'not'; readonly operand: LogicalExpression }
  /** A query as a test: true when it selects at least one node. */
  | { readonly kind: 'exists'; readonly query: Query }
  /** A function of LogicalType (its result) or NodesType (true when not empty) as a test. */
  | { readonly kind: 'test'; readonly call: FunctionCall }
  | {
      readonly kind: 'comparison';
      readonly operator: ComparisonOperator;
      readonly left: Comparable;
      readonly right: Comparable;
    };
