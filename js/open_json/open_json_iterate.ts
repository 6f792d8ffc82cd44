// doc.iterate(path) without expand: the elements of one array (or the member values of one object), in order, from
// one parser planned by open_json_plan.ts. The document's cursor moves past each element taken when the loop stops.
// The lifecycle (start, pull, errors, return(), done) is event_pump.ts's.
import { normalizedStep } from '../query/normalized_path.js';
import { EventPump } from './event_pump.js';
import type { IterableDocument } from './open_json_iterable.js';
import type { CopyFilter, DriverEvent } from './open_json_driver.js';
import { endOf, passedBefore, recordName, type Plan, type Request } from './open_json_plan.js';
import type { Step } from './open_json_path.js';

/** @internal */
export class ElementIterator<T> extends EventPump<T, Request & { readonly kind: 'iterate' }> {
  /** The last element taken, not yet told to the cursor. */
  private taken_: DriverEvent | null = null;
  /** options.withNormalizedPath: the container's normalized path; null without it. */
  protected readonly named_: string | null;

  constructor(
    doc: IterableDocument,
    request: Request & { readonly kind: 'iterate' },
    path: string,
    named: string | null,
  ) {
    super(doc, request, path);
    this.named_ = named;
  }

  /** What next() gives for an element the scan reached: its value; null to pass over it (a query's pick). */
  protected take_(ev: DriverEvent): IteratorResult<T> | null {
    return { done: false, value: this.record_(ev, ev.value()) as T };
  }

  /** The element's value, or with options.withNormalizedPath `{ value, normalizedPath }`. */
  protected record_(ev: DriverEvent, value: unknown): unknown {
    if (this.named_ === null) return value;
    return { value, normalizedPath: this.named_ + normalizedStep(ev.key!) };
  }

  protected copyFilter_(): CopyFilter | undefined {
    return undefined;
  }

  protected async step(plan: Plan): Promise<IteratorResult<T>> {
    for (;;) {
      const ev = await this.pull();
      if (typeof ev === 'string') {
        this.flush_();
        this.doc_.cursor.advance_([], this.doc_.store.end);
        if (plan.ambiguous !== null) throw this.doc_.cursor.passed(this.path, plan.ambiguous);
        return await this.finish();
      }
      if (recordName(plan, ev.path, ev.key)) continue;
      if (ev.path === 0) {
        // The cursor moves past it; recorded cheaply here, told to the cursor when the loop stops.
        this.taken_ = ev;
        const taken = this.take_(ev);
        if (taken !== null) return taken;
        continue;
      }
      if (ev.path === plan.stop) {
        // A slice's last element ended (its record came first): the iteration stops as a loop broken off there does.
        this.flush_();
        this.doc_.cursor.advance_([...this.request.container, this.request.stop!], ev.end);
        return await this.return();
      }
      // The container (or an ancestor, when there is no container) ended.
      const parent = this.ended_(ev);
      if (passedBefore(plan, parent)) throw this.doc_.cursor.passed(this.path, plan.ambiguous!);
      return await this.finish();
    }
  }

  /** Forward only: the rest of the array is skipped now, so the cursor stands after it. */
  protected async skipRest_(): Promise<void> {
    if (this.scan === null) return;
    for (;;) {
      const ev = await this.pull();
      if (typeof ev === 'string') {
        this.flush_();
        this.doc_.cursor.advance_([], this.doc_.store.end);
        return;
      }
      const plan = this.plan_!;
      if (recordName(plan, ev.path, ev.key) || ev.path === 0 || ev.path === plan.stop) continue;
      this.ended_(ev);
      return;
    }
  }

  protected closing_(): void {
    this.flush_();
  }

  /** Moves the cursor past the last element taken. */
  private flush_(): void {
    const ev = this.taken_;
    if (ev === null) return;
    this.taken_ = null;
    this.doc_.cursor.advance_([...this.request.container, ev.key as Step], ev.end);
  }

  /** An end marker: moves the cursor after the container it closes, which it returns. */
  private ended_(ev: DriverEvent): readonly Step[] {
    this.flush_();
    const parent = endOf(this.plan_!, ev.path)!;
    this.doc_.cursor.advance_(parent, ev.end);
    return parent;
  }
}
