// doc.iterate(path, { expand: names }): each element is rebuilt from its members as they arrive, and the named
// child arrays are streamed as async iterables while the stream is read. One parser whose selectors keep no bytes
// but the children's:
//   0..E-1         the children of the j-th expanded member (`path.name[*]`), ordinary selectors
//   E, E+1         end markers: the element, each of its members
//   E+2...         end markers: the array and its ancestors (where the iteration ends)
//   then           start markers: the element (its first byte), each of its members (name and first byte)
// A member's value (and an element that is not an object) is read from the document's bytes between its start and
// end, which stay held (pinned) meanwhile; an expanded array is never held: only its children, one at a time. So
// memory is bounded by the largest member or child, not by the element. Events come in stream order; whoever needs
// the next one (the element loop, a child loop) pumps it and files it where it belongs.
import { MAX_SELECTORS } from '../native/contract.js';
import type { DriverEvent } from './open_json_driver.js';
import type { OpenDocument } from './open_json.js';
import { ancestors, type Step } from './open_json_path.js';

/**
 * The most names options.expand may hold: an expanded iteration spends one selector per name and five more (the
 * element and its members, each as a marker and as a start marker, and the container's marker) of the native
 * parser's MAX_SELECTORS; the rest go to markers on the container's ancestors.
 */
export const MAX_EXPAND = MAX_SELECTORS - 5;

const OPEN_BRACE = 0x7b;
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const OPEN_BRACKET = 0x5b;

/** One element being rebuilt. */
interface Building {
  /** Offset, first byte and key (index, or name in an object) of the element. */
  start: number;
  first: number;
  key: string | number | null;
  /** The member being read: its name, where its value starts, the expanded member's index (or -1). */
  member: { key: string; start: number; expanded: number } | null;
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
  private firstParent = 0;
  private firstStart = 0;
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
        this.release = await this.doc.holdForIteration();
        const plan = this.doc.startFor(this.container, this.path);
        if (plan === null) return await this.finish();
        this.ambiguous = plan.rel.kind === 'unknown' && this.doc.transient ? plan.rel.object : null;
        const e = this.expand.length;
        this.parents = [this.container, ...ancestors(this.container, MAX_EXPAND - e)];
        this.firstParent = e + 2;
        this.firstStart = e + 2 + this.parents.length;
        const element = [...this.container, null];
        const children = this.expand.map((name) => [...element, name, null]);
        this.doc.track([], 0, -1); // not recorded here: later sibling requests fall back to reading forward
        this.scan = this.doc.scan(plan.start, children, [element, [...element, null], ...this.parents],
          [element, [...element, null]], () => true);
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
        start: 0, first: 0, key: null, member: null,
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
    const e = this.expand.length;
    const path = ev.path;
    if (path >= this.firstParent && path < this.firstStart) {
      // A marker: the array (or an ancestor) ended; the iteration is over.
      const parent = this.parents[path - this.firstParent]!;
      this.doc.advance(parent, ev.end);
      this.ended = true;
      this.scan?.return().catch(() => {});
      this.scan = null;
      if (this.ambiguous !== null && path > this.firstParent && parent.length <= this.ambiguous.length) {
        throw this.doc.passed(this.path, this.ambiguous);
      }
      return;
    }
    const store = this.doc.store;
    if (path === this.firstStart) {
      // An element starts. One that is not an object is read whole from the bytes.
      const b = this.element();
      b.start = ev.end;
      b.first = ev.first;
      b.key = ev.key;
      if (b.first !== OPEN_BRACE) store.pin(b.start);
      return;
    }
    const b = this.element();
    if (path === e) {
      // The element ends.
      if (b.first !== OPEN_BRACE) {
        b.whole = JSON.parse(decoder.decode(store.slice(b.start, ev.end)));
        b.hasWhole = true;
        store.unpin();
      }
      b.finished = true;
      b.ready = true;
      this.doc.advance([...this.container, b.key as Step], ev.end);
      for (const s of b.streams.values()) s.done = true;
      return;
    }
    if (path === this.firstStart + 1) {
      // A member starts (an array element's index key: the element is read whole).
      if (typeof ev.key !== 'string' || b.first !== OPEN_BRACE) return;
      const j = ev.first === OPEN_BRACKET ? this.expand.indexOf(ev.key) : -1;
      b.member = { key: ev.key, start: ev.end, expanded: j };
      if (j !== -1) this.stream(b, j); // the element is due: its first expanded array starts
      else store.pin(ev.end);
      return;
    }
    if (path === e + 1) {
      // A member ends.
      const m = b.member;
      if (m === null) return;
      b.member = null;
      if (m.expanded !== -1) {
        this.stream(b, m.expanded).done = true;
        return;
      }
      const value = JSON.parse(decoder.decode(store.slice(m.start, ev.end)));
      store.unpin();
      if (this.expand.includes(m.key)) b.ready = true; // not an array: a plain member, but the element is due
      defineMember(b.value, m.key, value);
      b.members++;
      return;
    }
    const s = this.stream(b, path);
    if (!s.returned && !s.skipped) s.queue.push(ev);
  }

  private async finish(): Promise<IteratorResult<unknown>> {
    if (this.state !== 'done') {
      this.state = 'done';
      this.ended = true;
      const scan = this.scan;
      this.scan = null;
      if (this.release !== null) {
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
