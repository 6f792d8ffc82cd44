// doc.iterate(path, { expand: names }): each element is rebuilt from its members as they arrive, and the named
// members that are arrays are streamed as async iterables while the stream is read. One parser (planned by
// open_json_plan.ts) whose selectors keep no bytes but the children's: the children of each expanded member, end
// and start markers on the element and its members, end markers on the array and its ancestors.
//
// A member's value (and an element that is not an object) is read from the document's bytes between its start and
// end, which stay held (pinned) meanwhile; an expanded array is never held: only its children, one at a time. So
// memory is bounded by the largest member or child, not by the element. Events come in stream order; whoever needs
// the next one (the element loop, a child loop) pumps it and files it where it belongs.
//
// The rules (docs/open_json.md, "expand"): only arrays are streamed; any other value of an expanded name (null, a
// string, a number, an object) is a plain member like the others. The element is yielded when its first streamed
// array starts, or when it ends. With duplicate names in an element, an expanded name takes its first member (a
// stream cannot be taken back; later ones are skipped), any other name its last, as JSON.parse does.
import { misuse } from '../validate.js';
import { parseIntegers } from '../parse/integers.js';
import { EventPump } from './event_pump.js';
import type { CopyFilter, DriverEvent } from './open_json_driver.js';
import { endOf, passedBefore, type Request } from './open_json_plan.js';
import type { Step } from './open_json_path.js';

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The member being read. */
interface Member {
  readonly key: string;
  /** Where its value starts. */
  readonly start: number;
  /** The stream of an expanded array; null for a plain member. */
  readonly stream: ChildStream | null;
  /** A later member of an expanded name: skipped. */
  readonly skip: boolean;
}

/** One element being rebuilt. */
interface Building {
  /** Offset, first byte and key (index, or name in an object) of the element. */
  start: number;
  first: number;
  key: string | number | null;
  member: Member | null;
  readonly value: Record<string, unknown>;
  /** Due to the element loop (or yielded already). */
  ready: boolean;
  yielded: boolean;
  finished: boolean;
  /** Streams started, in order. */
  readonly streams: ChildStream[];
  /** The expanded names met so far (their first member decides). */
  readonly expandedSeen: Set<number>;
  /** An element that is not an object: its value, read whole. */
  whole: unknown;
  hasWhole: boolean;
}

class ChildStream implements AsyncIterableIterator<unknown> {
  readonly queue_: DriverEvent[] = [];
  /** The array ended, or its element did. */
  done = false;
  returned_ = false;
  /** The element loop moved on before this stream was read to its end. */
  skipped = false;

  constructor(
    private readonly owner_: ExpandIterator,
    private readonly element_: Building,
    /** Its rank among the element's streams. */
    readonly order: number,
    private readonly name_: string,
  ) {}

  [Symbol.asyncIterator](): AsyncIterableIterator<unknown> {
    return this;
  }

  async next(): Promise<IteratorResult<unknown>> {
    if (this.skipped) {
      throw misuse(
        'doc.iterate()',
        `the stream of member ${JSON.stringify(this.name_)} was skipped: the iteration moved to the next element`,
      );
    }
    if (this.returned_) return { done: true, value: undefined };
    await this.owner_.until_(() => this.queue_.length !== 0 || this.done);
    const ev = this.queue_.shift();
    if (ev !== undefined) return { done: false, value: ev.value() };
    await this.trailing_();
    return { done: true, value: undefined };
  }

  async return(): Promise<IteratorResult<unknown>> {
    if (!this.returned_ && !this.skipped) {
      this.returned_ = true;
      this.queue_.length = 0;
      await this.owner_.until_(() => this.done);
      await this.trailing_();
    }
    return { done: true, value: undefined };
  }

  /** The members after this array: read up to the element's end or the next stream's start. */
  private trailing_(): Promise<void> {
    const element = this.element_;
    return this.owner_.until_(() => element.finished || element.streams.length > this.order + 1);
  }
}

/** @internal */
export class ExpandIterator extends EventPump<unknown, Request & { readonly kind: 'expand' }> {
  /** Elements filed but not yet yielded, and the one being built (last). */
  private building_: Building[] = [];
  private current_: Building | null = null;
  private ended_ = false;
  /** The error that stopped the scan: every later pump rethrows it. */
  private failure_: { error: unknown } | null = null;
  private pumping_: Promise<boolean> | null = null;

  protected copyFilter_(): CopyFilter {
    return () => true;
  }

  protected async step(): Promise<IteratorResult<unknown>> {
    // The element loop moved on: the rest of the previous element is skipped.
    const previous = this.current_;
    if (previous?.yielded && !previous.finished) {
      for (const s of previous.streams) if (!s.done && !s.returned_) s.skipped = true;
      await this.until_(() => previous.finished);
    }
    await this.until_(() => this.building_.some((b) => b.ready && !b.yielded));
    const element = this.building_.find((b) => b.ready && !b.yielded);
    if (element === undefined) return await this.finish();
    element.yielded = true;
    this.building_ = this.building_.filter((b) => !b.yielded || !b.finished);
    return { done: false, value: element.hasWhole ? element.whole : element.value };
  }

  /** Pumps events until `done()` holds or the iteration ended; rethrows the error that stopped it. */
  async until_(done: () => boolean): Promise<void> {
    while (!done()) {
      if (this.failure_ !== null) throw this.failure_.error;
      if (this.ended_) return;
      if (this.pumping_ === null) this.pumping_ = this.pumpOne_().finally(() => (this.pumping_ = null));
      await this.pumping_;
    }
  }

  /** Files the next event; false at the end. */
  private async pumpOne_(): Promise<boolean> {
    try {
      const ev = await this.pull();
      if (ev === 'closed') {
        this.ended_ = true;
        return false;
      }
      if (ev === 'end') {
        this.doc_.cursor.advance_([], this.doc_.store.end);
        this.ended_ = true;
        const ambiguous = this.plan_!.ambiguous;
        if (ambiguous !== null && this.current_ === null) throw this.doc_.cursor.passed(this.path, ambiguous);
        return false;
      }
      this.file_(ev);
      return true;
    } catch (error) {
      this.failure_ ??= { error };
      this.ended_ = true;
      throw error;
    }
  }

  private element_(): Building {
    let b = this.current_;
    if (b === null || b.finished) {
      b = {
        start: 0,
        first: 0,
        key: null,
        member: null,
        value: {},
        ready: false,
        yielded: false,
        finished: false,
        streams: [],
        expandedSeen: new Set(),
        whole: undefined,
        hasWhole: false,
      };
      this.current_ = b;
      this.building_.push(b);
    }
    return b;
  }

  private file_(ev: DriverEvent): void {
    const plan = this.plan_!;
    const e = this.request.names.length;
    const path = ev.path;
    const parent = endOf(plan, path);
    if (parent !== undefined) {
      // The array (or an ancestor) ended; the iteration is over.
      this.doc_.cursor.advance_(parent, ev.end);
      this.ended_ = true;
      this.scan?.return().catch(() => {});
      this.scan = null;
      if (passedBefore(plan, parent)) throw this.doc_.cursor.passed(this.path, plan.ambiguous!);
      return;
    }
    const store = this.doc_.store;
    if (path === plan.firstStart) {
      // An element starts. One that is not an object is read whole from the bytes.
      const b = this.element_();
      b.start = ev.end;
      b.first = ev.first;
      b.key = ev.key;
      if (b.first !== OPEN_BRACE) store.pin_(b.start);
      return;
    }
    const b = this.element_();
    if (path === e) {
      // The element ends.
      if (b.first !== OPEN_BRACE) {
        b.whole = parseIntegers(decoder.decode(store.slice(b.start, ev.end)), this.doc_.integers);
        b.hasWhole = true;
        store.unpin_();
      }
      b.finished = true;
      b.ready = true;
      this.doc_.cursor.advance_([...this.request.container, b.key as Step], ev.end);
      for (const s of b.streams) s.done = true;
      return;
    }
    if (path === plan.firstStart + 1) {
      // A member starts (an array element's index key: the element is read whole).
      if (typeof ev.key === 'string' && b.first === OPEN_BRACE) this.memberStarts_(b, ev.key, ev);
      return;
    }
    if (path === e + 1) {
      // A member ends.
      const m = b.member;
      if (m === null) return;
      b.member = null;
      if (m.stream !== null) {
        m.stream.done = true;
      } else if (!m.skip) {
        defineMember(b.value, m.key, parseIntegers(decoder.decode(store.slice(m.start, ev.end)), this.doc_.integers));
        store.unpin_();
      }
      return;
    }
    // A child of expanded member `path`: kept only for the member's stream (a child of an object, or of a later
    // member of that name, is not).
    const stream = b.member?.stream;
    if (stream != null && !stream.returned_ && !stream.skipped) stream.queue_.push(ev);
  }

  private memberStarts_(b: Building, key: string, ev: DriverEvent): void {
    const j = this.request.names.indexOf(key);
    if (j !== -1 && b.expandedSeen.has(j)) {
      b.member = { key, start: ev.end, stream: null, skip: true };
      return;
    }
    if (j !== -1) b.expandedSeen.add(j);
    if (j !== -1 && ev.first === OPEN_BRACKET) {
      const stream = new ChildStream(this, b, b.streams.length, key);
      b.streams.push(stream);
      defineMember(b.value, key, stream);
      b.ready = true; // the element is due: a streamed array starts
      b.member = { key, start: ev.end, stream, skip: false };
      return;
    }
    b.member = { key, start: ev.end, stream: null, skip: false };
    this.doc_.store.pin_(ev.end);
  }

  /** Forward only: skip the rest of the array now, so the cursor stands after it. */
  protected async skipRest_(): Promise<void> {
    for (const b of this.building_) for (const s of b.streams) s.skipped = !s.done;
    await this.until_(() => false);
  }

  protected closing_(): void {
    this.ended_ = true;
  }
}

/** Sets a member as JSON.parse does: an own, enumerable, writable property, `__proto__` included. */
function defineMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
