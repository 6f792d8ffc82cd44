// doc.iterate(query) beyond [*] and .*: the elements of one container streamed as ElementIterator streams them (a
// slice, and a filter the native parser takes, select them in wasm: open_json.ts), a filter the native parser
// does not take picking which (js/open_json/open_json_query.ts), and the query's tail evaluated on each element
// picked (js/query/evaluate.ts, `$` being the element). The nodes come in RFC 9535's order: elements in document
// order, then each element's tail nodelist in the evaluator's. Memory: one element and its tail's nodes.
import { evaluate, evaluateValues } from '../query/evaluate.js';
import type { DriverEvent } from './open_json_driver.js';
import type { IterableDocument } from './open_json_iterable.js';
import { ElementIterator } from './open_json_iterate.js';
import type { Request } from './open_json_plan.js';
import type { IterateQuery, Pick } from './open_json_query.js';
import type { Query } from '../query/ast.js';

/** @internal The query as run in JS: a slice is always the native parser's. */
export type JsQuery = IterateQuery & { readonly pick: Exclude<Pick, { readonly kind: 'slice' }> };

/** @internal */
export class QueryIterator extends ElementIterator<unknown> {
  private readonly query_: JsQuery;
  /** The tail's nodes of the element picked last, and the next one to give. */
  private nodes_: unknown[] = [];
  private nextNode_ = 0;

  constructor(
    doc: IterableDocument,
    request: Request & { readonly kind: 'iterate' },
    path: string,
    query: JsQuery,
    named: string | null,
  ) {
    super(doc, request, path, named);
    this.query_ = query;
  }

  override async next(): Promise<IteratorResult<unknown>> {
    for (;;) {
      if (this.nextNode_ < this.nodes_.length) return { done: false, value: this.nodes_[this.nextNode_++] };
      this.nodes_ = [];
      const r = await super.next();
      if (r.done === true) return r;
      const tail = this.query_.tail;
      this.nodes_ = tail === null ? [r.value] : this.tailNodes_(tail, r.value);
      this.nextNode_ = 0;
    }
  }

  /** The tail's nodes of an element taken: values, or records with the element's path and theirs below it. */
  private tailNodes_(tail: Query, taken: unknown): unknown[] {
    if (this.named_ === null) return evaluateValues(tail, taken);
    const { value, normalizedPath } = taken as { value: unknown; normalizedPath: string };
    return evaluate(tail, value).map((node) => ({
      value: node.value,
      normalizedPath: normalizedPath + node.path.slice(1),
    }));
  }

  override async return(): Promise<IteratorResult<unknown>> {
    this.nodes_ = [];
    return super.return();
  }

  protected override take_(ev: DriverEvent): IteratorResult<unknown> | null {
    const pick = this.query_.pick;
    const value = ev.value();
    if (pick.kind === 'filter' && evaluateValues(pick.test, [value]).length === 0) return null;
    return { done: false, value: this.record_(ev, value) };
  }
}
