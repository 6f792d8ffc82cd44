// The lifecycle shared by doc.iterate()'s two iterators (open_json_iterate.ts, open_json_expand.ts): the document
// held and the request planned on the first next(), the scan's batches read one event at a time, an error closing
// the iteration after the elements already yielded, return() skipping the rest forward (a transient source) and
// closing the scan, and the done state. What differs, the step that produces the next element and the skip of the
// rest, is each subclass's.
import type { CopyFilter, DriverEvent } from './open_json_driver.js';
import type { IterableDocument } from './open_json_iterable.js';
import { planRequest, type Plan, type Request } from './open_json_plan.js';

/** What pull() gives when no event is left: the stream ended, or the scan was closed. */
export type PullEnd = 'end' | 'closed';

/** @internal */
export abstract class EventPump<T, R extends Request> implements AsyncIterableIterator<T> {
  protected readonly doc_: IterableDocument;
  protected readonly request: R;
  protected readonly path: string;
  protected plan_: Plan | null = null;
  protected scan: AsyncGenerator<DriverEvent[], void, undefined> | null = null;
  private events_: DriverEvent[] = [];
  private nextEvent_ = 0;
  private release_: (() => void) | null = null;
  protected state: 'new' | 'running' | 'done' = 'new';

  constructor(doc: IterableDocument, request: R, path: string) {
    this.doc_ = doc;
    this.request = request;
    this.path = path;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  /** The copy filter of the scan (undefined: the driver's default). */
  protected abstract copyFilter_(): CopyFilter | undefined;

  /** Produces the next element, or finishes the iteration; called once started, with a plan. */
  protected abstract step(plan: Plan): Promise<IteratorResult<T>>;

  /** return() of a transient document while running: reads past the rest of the array. */
  protected abstract skipRest_(): Promise<void>;

  /** Called once, when the iteration finishes, before the scan is closed. */
  protected abstract closing_(): void;

  async next(): Promise<IteratorResult<T>> {
    if (this.state === 'done') return { done: true, value: undefined };
    try {
      if (this.state === 'new') {
        this.state = 'running';
        this.release_ = await this.doc_.holdForIteration_(this.path);
        this.plan_ = planRequest(this.doc_.cursor, this.request, this.path);
        if (this.plan_ === null) return await this.finish();
        this.scan = this.doc_.scan(this.plan_, this.copyFilter_());
      }
      return await this.step(this.plan_!);
    } catch (error) {
      await this.finish();
      throw error;
    }
  }

  /** The next event of the scan, or why there is none. */
  protected async pull(): Promise<DriverEvent | PullEnd> {
    while (this.nextEvent_ >= this.events_.length) {
      if (this.scan === null) return 'closed';
      const r = await this.scan.next();
      if (r.done === true) return 'end';
      this.events_ = r.value;
      this.nextEvent_ = 0;
    }
    return this.events_[this.nextEvent_++]!;
  }

  protected async finish(): Promise<IteratorResult<T>> {
    if (this.state !== 'done') {
      this.closing_();
      this.state = 'done';
      const scan = this.scan;
      this.scan = null;
      this.events_ = [];
      if (this.release_ !== null) {
        this.release_();
        this.release_ = null;
      }
      await scan?.return();
    }
    return { done: true, value: undefined };
  }

  async return(): Promise<IteratorResult<T>> {
    if (this.state === 'running' && this.doc_.transient) {
      try {
        await this.skipRest_();
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
