// doc.iterate(query) beyond [*] and .*: the elements of one container streamed as ElementIterator streams them, a
// slice or a filter picking which (js/open_json/open_json_query.ts), and the query's tail evaluated on each element
// picked (js/query/evaluate.ts, `$` being the element). The nodes come in RFC 9535's order: elements in document
// order, then each element's tail nodelist in the evaluator's. Memory: one element and its tail's nodes.
import { evaluateValues } from '../query/evaluate.js';
import type { DriverEvent } from './open_json_driver.js';
import type { IterableDocument } from './open_json_iterable.js';
import { ElementIterator } from './open_json_iterate.js';
import type { Request } from './open_json_plan.js';
import type { IterateQuery } from './open_json_query.js';

/** What take_() gives for the first element past a slice's end: the iteration is over. */
const PAST_END: IteratorResult<unknown> = { done: true, value: undefined };

/** @internal */
export class QueryIterator extends ElementIterator<unknown> {
  private readonly query_: IterateQuery;
  /** The tail's nodes of the element picked last, and the next one to give. */
  private nodes_: unknown[] = [];
  private nextNode_ = 0;
  /** A slice's end was reached: the rest of the container is not read. */
  private pastEnd_ = false;

  constructor(
    doc: IterableDocument,
    request: Request & { readonly kind: 'iterate' },
    path: string,
    query: IterateQuery,
  ) {
    super(doc, request, path);
    this.query_ = query;
  }

  override async next(): Promise<IteratorResult<unknown>> {
    for (;;) {
      if (this.nextNode_ < this.nodes_.length) return { done: false, value: this.nodes_[this.nextNode_++] };
      this.nodes_ = [];
      const r = await super.next();
      if (r.done === true) {
        // Past a slice's end: the iteration stops as a loop broken off there does.
        if (this.pastEnd_) return await this.return();
        return r;
      }
      const tail = this.query_.tail;
      this.nodes_ = tail === null ? [r.value] : evaluateValues(tail, r.value);
      this.nextNode_ = 0;
    }
  }

  override async return(): Promise<IteratorResult<unknown>> {
    this.nodes_ = [];
    return super.return();
  }

  protected override take_(ev: DriverEvent): IteratorResult<unknown> | null {
    const pick = this.query_.pick;
    if (pick.kind === 'slice') {
      // A slice selects array elements only: an object's members (named) are passed over.
      if (typeof ev.key !== 'number' || pick.step === 0 || ev.key < pick.start) return null;
      if (ev.key >= pick.end) {
        this.pastEnd_ = true;
        return PAST_END;
      }
      if ((ev.key - pick.start) % pick.step !== 0) return null;
      return { done: false, value: ev.value() };
    }
    const value = ev.value();
    if (pick.kind === 'filter' && evaluateValues(pick.test, [value]).length === 0) return null;
    return { done: false, value };
  }
}
