// doc.iterate(path) without expand: the elements of one array (or the member values of one object), in order, from
// one parser planned by open_json_plan.ts. The document's cursor moves past each element taken when the loop stops.
import type { DriverEvent } from './open_json_driver.js';
import type { IterableDocument } from './open_json_iterable.js';
import { endOf, passedBefore, planRequest, recordName, type Plan, type Request } from './open_json_plan.js';
import type { Step } from './open_json_path.js';

/** @internal */
export class ElementIterator<T> implements AsyncIterableIterator<T> {
  private readonly doc: IterableDocument;
  private readonly request: Request & { readonly kind: 'iterate' };
  private readonly path: string;
  private plan: Plan | null = null;
  private scan: AsyncGenerator<DriverEvent[], void, undefined> | null = null;
  private events: DriverEvent[] = [];
  private nextEvent = 0;
  private release: (() => void) | null = null;
  private state: 'new' | 'running' | 'done' = 'new';
  /** The last element taken, not yet told to the cursor. */
  private taken: DriverEvent | null = null;

  constructor(doc: IterableDocument, request: Request & { readonly kind: 'iterate' }, path: string) {
    this.doc = doc;
    this.request = request;
    this.path = path;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  async next(): Promise<IteratorResult<T>> {
    if (this.state === 'done') return { done: true, value: undefined };
    try {
      if (this.state === 'new') {
        this.state = 'running';
        this.release = await this.doc.holdForIteration(this.path);
        this.plan = planRequest(this.doc.cursor, this.request, this.path);
        if (this.plan === null) return await this.finish();
        this.scan = this.doc.scan(this.plan);
      }
      const plan = this.plan!;
      for (;;) {
        const ev = await this.pull();
        if (ev === null) {
          this.flush();
          this.doc.cursor.advance([], this.doc.store.end);
          if (plan.ambiguous !== null) throw this.doc.cursor.passed(this.path, plan.ambiguous);
          return await this.finish();
        }
        if (recordName(plan, ev.path, ev.key)) continue;
        if (ev.path === 0) {
          // The cursor moves past it; recorded cheaply here, told to the cursor when the loop stops.
          this.taken = ev;
          return { done: false, value: ev.value() as T };
        }
        // The container (or an ancestor, when there is no container) ended.
        const parent = this.ended(ev);
        if (passedBefore(plan, parent)) throw this.doc.cursor.passed(this.path, plan.ambiguous!);
        return await this.finish();
      }
    } catch (error) {
      await this.finish();
      throw error;
    }
  }

  /** The next event of the scan; null at the end of the stream. */
  private async pull(): Promise<DriverEvent | null> {
    while (this.nextEvent >= this.events.length) {
      const r = await this.scan!.next();
      if (r.done === true) return null;
      this.events = r.value;
      this.nextEvent = 0;
    }
    return this.events[this.nextEvent++]!;
  }

  /** Moves the cursor past the last element taken. */
  private flush(): void {
    const ev = this.taken;
    if (ev === null) return;
    this.taken = null;
    this.doc.cursor.advance([...this.request.container, ev.key as Step], ev.end);
  }

  /** An end marker: moves the cursor after the container it closes, which it returns. */
  private ended(ev: DriverEvent): readonly Step[] {
    this.flush();
    const parent = endOf(this.plan!, ev.path)!;
    this.doc.cursor.advance(parent, ev.end);
    return parent;
  }

  private async finish(): Promise<IteratorResult<T>> {
    if (this.state !== 'done') {
      this.flush();
      this.state = 'done';
      const scan = this.scan;
      this.scan = null;
      this.events = [];
      if (this.release !== null) {
        this.release();
        this.release = null;
      }
      await scan?.return();
    }
    return { done: true, value: undefined };
  }

  async return(): Promise<IteratorResult<T>> {
    if (this.state === 'running' && this.doc.transient && this.scan !== null) {
      // Forward only: the rest of the array is skipped now, so the cursor stands after it.
      try {
        for (;;) {
          const ev = await this.pull();
          if (ev === null) {
            this.flush();
            this.doc.cursor.advance([], this.doc.store.end);
            break;
          }
          if (recordName(this.plan!, ev.path, ev.key) || ev.path === 0) continue;
          this.ended(ev);
          break;
        }
      } catch (error) {
        await this.finish();
        throw error;
      }
    }
    return this.finish();
  }

  async throw(error: unknown): Promise<IteratorResult<T>> {
    await this.return();
    throw error;
  }
}
