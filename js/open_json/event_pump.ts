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
  protected readonly doc: IterableDocument;
  protected readonly request: R;
  protected readonly path: string;
  protected plan: Plan | null = null;
  protected scan: AsyncGenerator<DriverEvent[], void, undefined> | null = null;
  private events: DriverEvent[] = [];
  private nextEvent = 0;
  private release: (() => void) | null = null;
  protected state: 'new' | 'running' | 'done' = 'new';

  constructor(doc: IterableDocument, request: R, path: string) {
    this.doc = doc;
    this.request = request;
    this.path = path;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  /** The copy filter of the scan (undefined: the driver's default). */
  protected abstract copyFilter(): CopyFilter | undefined;

  /** Produces the next element, or finishes the iteration; called once started, with a plan. */
  protected abstract step(plan: Plan): Promise<IteratorResult<T>>;

  /** return() of a transient document while running: reads past the rest of the array. */
  protected abstract skipRest(): Promise<void>;

  /** Called once, when the iteration finishes, before the scan is closed. */
  protected abstract closing(): void;

  async next(): Promise<IteratorResult<T>> {
    if (this.state === 'done') return { done: true, value: undefined };
    try {
      if (this.state === 'new') {
        this.state = 'running';
        this.release = await this.doc.holdForIteration(this.path);
        this.plan = planRequest(this.doc.cursor, this.request, this.path);
        if (this.plan === null) return await this.finish();
        this.scan = this.doc.scan(this.plan, this.copyFilter());
      }
      return await this.step(this.plan!);
    } catch (error) {
      await this.finish();
      throw error;
    }
  }

  /** The next event of the scan, or why there is none. */
  protected async pull(): Promise<DriverEvent | PullEnd> {
    while (this.nextEvent >= this.events.length) {
      if (this.scan === null) return 'closed';
      const r = await this.scan.next();
      if (r.done === true) return 'end';
      this.events = r.value;
      this.nextEvent = 0;
    }
    return this.events[this.nextEvent++]!;
  }

  protected async finish(): Promise<IteratorResult<T>> {
    if (this.state !== 'done') {
      this.closing();
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
    if (this.state === 'running' && this.doc.transient) {
      try {
        await this.skipRest();
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
