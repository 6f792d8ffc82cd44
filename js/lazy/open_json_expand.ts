// doc.iterate(path, { expand: names }): each element is rebuilt from its members as they arrive, and the named
// child arrays are streamed as async iterables while the stream is read. One parser, selectors in this order:
//   0   the element itself (bytes copied only when it is not an object: then it is yielded whole)
//   1   its members (`path.*`; a member named in `expand` is not copied: its children came already)
//   2+j the children of the j-th expanded member (`path.name[*]`)
// and markers on the array and its ancestors (where the iteration ends). Events come in stream order; whoever
// needs the next one (the element loop, a child loop) pumps it and files it where it belongs.
import type { DriverEvent } from './open_json_driver.js';
import type { OpenDocument } from './open_json.js';
import { ancestors, type Step } from './open_json_path.js';

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** One element being rebuilt. */
interface Building {
  readonly value: Record<string, unknown>;
  /** Yielded to the element loop (or due to be: `ready`). */
  ready: boolean;
  yielded: boolean;
  finished: boolean;
  members: number;
  /** Expanded members whose stream started, in order. */
  started: number;
  streams: Map<number, ChildStream>;
  whole: unknown;
  hasWhole: boolean;
}

class ChildStream implements AsyncIterableIterator<unknown> {
  readonly queue: DriverEvent[] = [];
  /** The array ended (its member event came), or it was returned. */
  done = false;
  returned = false;
  /** The element loop moved on before this stream was read to its end. */
  skipped = false;

  constructor(
    private readonly owner: ExpandIterator,
    private readonly element: Building,
    readonly order: number,
    private readonly name: string,
  ) {}

  [Symbol.asyncIterator](): AsyncIterableIterator<unknown> {
    return this;
  }

  async next(): Promise<IteratorResult<unknown>> {
    if (this.skipped) {
      throw new Error(`openJson: the "${this.name}" stream was skipped: the iteration moved to the next element`);
    }
    if (this.returned) return { done: true, value: undefined };
    await this.owner.until(() => this.queue.length !== 0 || this.done);
    const ev = this.queue.shift();
    if (ev !== undefined) return { done: false, value: ev.value() };
    await this.trailing();
    return { done: true, value: undefined };
  }

  async return(): Promise<IteratorResult<unknown>> {
    if (!this.returned && !this.skipped) {
      this.returned = true;
      this.queue.length = 0;
      await this.owner.until(() => this.done);
      await this.trailing();
    }
    return { done: true, value: undefined };
  }

  /** The members after this array: read up to the element's end or the next expanded member's start. */
  private trailing(): Promise<void> {
    const element = this.element;
    return this.owner.until(() => element.finished || element.started > this.order + 1);
  }
}

/** @internal */
export class ExpandIterator implements AsyncIterableIterator<unknown> {
  private readonly doc: OpenDocument;
  private readonly container: Step[];
  private readonly path: string;
  private readonly expand: readonly string[];
  private parents: Step[][] = [];
  private scan: AsyncGenerator<DriverEvent[], void, undefined> | null = null;
  private events: DriverEvent[] = [];
  private nextEvent = 0;
  /** Elements filed but not yet yielded, and the one being built (last). */
  private building: Building[] = [];
  private current: Building | null = null;
  private ended = false;
  private release: (() => void) | null = null;
  private state: 'new' | 'running' | 'done' = 'new';
  private pumping: Promise<boolean> | null = null;
  /** Transient, a sibling member passed: the array is looked for after the cursor up to the end of this object. */
  private ambiguous: readonly Step[] | null = null;

  constructor(doc: OpenDocument, steps: Step[], path: string, expand: readonly string[]) {
    this.doc = doc;
    this.container = steps.slice(0, -1);
    this.path = path;
    this.expand = [...expand];
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<unknown> {
    return this;
  }

  async next(): Promise<IteratorResult<unknown>> {
    if (this.state === 'done') return { done: true, value: undefined };
    try {
      if (this.state === 'new') {
        this.state = 'running';
        if (this.doc.iterating) throw new Error('doc.iterate(): another iteration holds the document');
        this.release = await this.doc.acquire();
        this.doc.iterating = true;
        const plan = this.doc.startFor(this.container, this.path);
        if (plan === null) return await this.finish();
        this.ambiguous = plan.rel.kind === 'unknown' && this.doc.transient ? plan.rel.object : null;
        this.parents = [this.container, ...ancestors(this.container, 29 - this.expand.length)];
        const element = [...this.container, null];
        const paths = [element, [...element, null], ...this.expand.map((name) => [...element, name, null])];
        const expand = new Set(this.expand);
        this.doc.track([], 0, -1); // not recorded here: later sibling requests fall back to reading forward
        this.scan = this.doc.scan(plan.start, paths, this.parents, [], (path, key, first) => {
          if (path === 0) return first !== OPEN_BRACE;
          if (path === 1) return !(typeof key === 'string' && expand.has(key) && first === OPEN_BRACKET);
          return true;
        });
      }
      // The element loop moved on: the rest of the previous element is skipped.
      const previous = this.current;
      if (previous !== null && previous.yielded && !previous.finished) {
        for (const s of previous.streams.values()) if (!s.done && !s.returned) s.skipped = true;
        await this.until(() => previous.finished);
      }
      await this.until(() => this.building.some((b) => b.ready && !b.yielded));
      const element = this.building.find((b) => b.ready && !b.yielded);
      if (element === undefined) return await this.finish();
      element.yielded = true;
      this.building = this.building.filter((b) => !b.yielded || !b.finished);
      return { done: false, value: element.hasWhole ? element.whole : element.value };
    } catch (error) {
      await this.finish();
      throw error;
    }
  }

  /** Pumps events until `done()` holds or the iteration ended. */
  async until(done: () => boolean): Promise<void> {
    while (!done() && !this.ended) {
      if (this.pumping === null) this.pumping = this.pumpOne().finally(() => (this.pumping = null));
      await this.pumping;
    }
  }

  /** Files the next event; false at the end. */
  private async pumpOne(): Promise<boolean> {
    while (this.nextEvent >= this.events.length) {
      if (this.scan === null) {
        this.ended = true;
        return false;
      }
      const r = await this.scan.next();
      if (r.done === true) {
        this.doc.advance([], this.doc.store.end);
        this.ended = true;
        if (this.ambiguous !== null && this.current === null) throw this.doc.passed(this.path, this.ambiguous);
        return false;
      }
      this.events = r.value;
      this.nextEvent = 0;
    }
    this.file(this.events[this.nextEvent++]!);
    return true;
  }

  private element(): Building {
    let b = this.current;
    if (b === null || b.finished) {
      b = {
        value: {}, ready: false, yielded: false, finished: false, members: 0, started: 0, streams: new Map(),
        whole: undefined, hasWhole: false,
      };
      this.current = b;
      this.building.push(b);
    }
    return b;
  }

  private stream(b: Building, j: number): ChildStream {
    let s = b.streams.get(j);
    if (s === undefined) {
      const name = this.expand[j]!;
      s = new ChildStream(this, b, b.started++, name);
      b.streams.set(j, s);
      defineMember(b.value, name, s);
      b.ready = true;
    }
    return s;
  }

  private file(ev: DriverEvent): void {
    const paths = 2 + this.expand.length;
    if (ev.path >= paths) {
      // A marker: the array (or an ancestor) ended; the iteration is over.
      const parent = this.parents[ev.path - paths]!;
      this.doc.advance(parent, ev.end);
      this.ended = true;
      if (this.ambiguous !== null && ev.path > paths && parent.length <= this.ambiguous.length) {
        this.scan?.return().catch(() => {});
        this.scan = null;
        throw this.doc.passed(this.path, this.ambiguous);
      }
      this.scan?.return().catch(() => {});
      this.scan = null;
      return;
    }
    const b = this.element();
    if (ev.path === 0) {
      b.finished = true;
      b.ready = true;
      if (ev.first !== OPEN_BRACE) {
        b.whole = ev.value();
        b.hasWhole = true;
      }
      this.doc.advance([...this.container, ev.key as Step], ev.end);
      for (const s of b.streams.values()) s.done = true;
      return;
    }
    if (ev.path === 1) {
      if (typeof ev.key !== 'string') return; // an array element: the element is yielded whole
      const j = this.expand.indexOf(ev.key);
      if (j !== -1 && ev.first === OPEN_BRACKET) {
        this.stream(b, j).done = true; // its children came already (or it is empty)
        return;
      }
      if (j !== -1) b.ready = true; // not an array: a plain member, but the element is due
      defineMember(b.value, ev.key, ev.value());
      b.members++;
      return;
    }
    const s = this.stream(b, ev.path - 2);
    if (!s.returned && !s.skipped) s.queue.push(ev);
  }

  private async finish(): Promise<IteratorResult<unknown>> {
    if (this.state !== 'done') {
      this.state = 'done';
      this.ended = true;
      const scan = this.scan;
      this.scan = null;
      if (this.release !== null) {
        this.doc.iterating = false;
        this.release();
        this.release = null;
      }
      await scan?.return();
    }
    return { done: true, value: undefined };
  }

  async return(): Promise<IteratorResult<unknown>> {
    if (this.state === 'running' && this.doc.transient) {
      // Forward only: skip the rest of the array now, so the cursor stands after it.
      for (const b of this.building) for (const s of b.streams.values()) s.skipped = !s.done;
      try {
        await this.until(() => false);
      } catch (error) {
        await this.finish();
        throw error;
      }
    }
    return this.finish();
  }

  async throw(error: unknown): Promise<IteratorResult<unknown>> {
    await this.return();
    throw error;
  }
}

/** Sets a member as JSON.parse does: an own, enumerable, writable property, `__proto__` included. */
function defineMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
