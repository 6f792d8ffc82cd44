// openJson: a JSON document over a stream, read only as far as the values asked for (docs/open_json.md).
//
// The document has one forward cursor: the path and end offset of the last value a request finished at. Each
// request runs a fresh native parser whose selectors are the request's path plus markers on its ancestors (a
// marker reports where a container ends without keeping its bytes: the end of an ancestor before the value means
// the value is absent). A request ahead of the cursor restarts at the cursor behind a synthetic prefix that puts
// the parser in the same containers at the same keys and indices, so it never re-reads more than the current
// chunk; everything before the cursor was skipped at SIMD speed by the earlier requests. A kept (default)
// document holds every byte read, and answers a request behind the cursor by scanning those bytes from the start;
// a transient one holds only the chunk being read and rejects such a request with JsonPassedError.
import { JsonPassedError, type ParserLimits } from '../errors.js';
import { MAX_DEPTH, MAX_ELEMENT_BYTES, MAX_SELECTORS } from '../native/contract.js';
import { loadRuntime } from '../native/loader.js';
import { describeType } from '../validate.js';
import { checkSource, type JsonSource } from '../sources.js';
import { Driver, type CopyFilter, type DriverEvent } from './open_json_driver.js';
import { ExpandIterator, MAX_EXPAND } from './open_json_expand.js';
import {
  ancestors, displayPath, localPath, parsePath, pathText, relation, syntheticPrefix, type Relation, type Step,
} from './open_json_path.js';
import { ByteStore } from './open_json_store.js';

/** Options of {@link openJson}. */
export interface OpenJsonOptions {
  /**
   * Forward only: keep no byte behind the cursor, so memory stays at one chunk plus the largest value read.
   * Asking for a value whose first byte was already read throws {@link JsonPassedError}.
   * @default false
   */
  readonly transient?: boolean;
  /** @default 1024 */
  readonly maxDepth?: number;
  /** Largest value a request may return (and largest element of an iteration). @default 268435456 */
  readonly maxElementBytes?: number;
}

/** Options of {@link JsonDocument.iterate}. */
export interface IterateOptions {
  /**
   * Member names of each element whose arrays are streamed as async iterables instead of being built. The element
   * is yielded when the first of them starts, with the members before it; every later member (another expanded
   * one too) is set on it once the stream reaches it, that is once the child streams before it were read to their
   * end or `return()`ed (the rest of such a stream is then skipped). Moving the loop to the next element skips the
   * rest of this one: reading one of its streams afterwards throws.
   */
  readonly expand?: readonly string[];
}

/** A JSON document over a stream; see {@link openJson}. */
export interface JsonDocument {
  /** True for a transient (forward-only) document. */
  readonly transient: boolean;
  /**
   * The value at `path` (a path without wildcards), as `JSON.parse` would give it, or `undefined` when the
   * document has no such value. Reads the stream only as far as the value's end (for an absent value: the end of
   * its nearest existing ancestor). Requests are served one at a time, in call order.
   * @throws {TypeError} for an unsupported path; {JsonSyntaxError | JsonLimitError} for invalid input met on the
   * way; {JsonPassedError} in a transient document for a value already passed.
   */
  get<T = unknown>(path: string): Promise<T | undefined>;
  /**
   * The elements of the array (or the member values of the object) at `path`, which ends with `[*]` or `.*` and
   * has no other wildcard: `doc.iterate('$.orders[*]')`. Other requests wait until the loop ends; a `get` inside
   * the loop is rejected. Breaking out of the loop leaves the cursor after the last element taken (transient:
   * after the array, the rest of which is skipped).
   */
  iterate<T = unknown>(path: string, options?: IterateOptions): AsyncIterableIterator<T>;
  /** Stops reading: cancels the source. Later requests are rejected. */
  close(): Promise<void>;
}

/**
 * Opens a JSON document over a stream without reading it: each `get` and `iterate` reads just as far as it needs,
 * skipping everything else in WebAssembly. `source` is anything {@link parseJsonArray} accepts.
 *
 * @example
 * const doc = openJson((await fetch(url)).body, { transient: true });
 * const total = await doc.get('$.meta.total');
 * for await (const order of doc.iterate('$.orders[*]')) use(order);
 *
 * @throws {TypeError} at once for invalid options or a source of another type.
 */
export function openJson(source: JsonSource, options?: OpenJsonOptions): JsonDocument {
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw new TypeError(`openJson: options must be an object, got ${describeType(options)}`);
  }
  const transient = options?.transient ?? false;
  if (typeof transient !== 'boolean') throw new TypeError('openJson: options.transient must be a boolean');
  const limits: ParserLimits = {
    maxDepth: limit(options?.maxDepth, 'maxDepth', 1024, MAX_DEPTH),
    maxElementBytes: limit(options?.maxElementBytes, 'maxElementBytes', 256 * 1024 * 1024, MAX_ELEMENT_BYTES),
  };
  try {
    checkSource(source);
  } catch (error) {
    if (error instanceof TypeError) throw new TypeError(error.message.replace('parseJsonArray(source)', 'openJson(source)'));
    throw error;
  }
  return new OpenDocument(source, transient, limits);
}

function limit(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new TypeError(`openJson: options.${name} must be an integer from 1 to ${max}, got ${String(value)}`);
  }
  return value;
}

const FIRST_PIECE = 1024;
const MAX_CHECKPOINTS = 4096;
const MAX_PIECE = 1 << 20;

/** Where a request's parser starts: the stream's beginning, or just after the value at `loc`. */
interface Start {
  readonly x: number;
  readonly loc: readonly Step[] | null;
}

/** @internal */
export class OpenDocument implements JsonDocument {
  readonly transient: boolean;
  readonly store: ByteStore;
  private readonly limits: ParserLimits;
  /** The cursor: just after the value at `loc` (null: nothing read yet), at absolute offset `x`. */
  loc: readonly Step[] | null = null;
  x = 0;
  private tail: Promise<void> = Promise.resolve();
  /**
   * Transient: the member names passed so far in each object that encloses the cursor (by pathText), for the
   * objects where the record is complete. It tells "passed" from "later or absent" for a sibling member.
   */
  private seen = new Map<string, Set<string>>();
  /** An iteration holds the document. */
  private iterating = false;
  private closed = false;

  constructor(source: JsonSource, transient: boolean, limits: ParserLimits) {
    this.transient = transient;
    this.limits = limits;
    this.store = new ByteStore(source, !transient);
  }

  async get<T>(path: string): Promise<T | undefined> {
    const steps = parsePath(path, 'doc.get(path)');
    if (steps.includes(null)) {
      throw new TypeError(`doc.get(path): ${JSON.stringify(path)} has a wildcard; use doc.iterate() for several values`);
    }
    if (this.iterating) {
      throw new Error(`doc.get(${JSON.stringify(path)}) while doc.iterate() holds the document: finish or break the loop first`);
    }
    const release = await this.acquire();
    try {
      return (await this.resolve(steps, path)) as T | undefined;
    } finally {
      release();
    }
  }

  iterate<T>(path: string, options?: IterateOptions): AsyncIterableIterator<T> {
    const steps = parsePath(path, 'doc.iterate(path)');
    const last = steps.length - 1;
    if (last < 0 || steps[last] !== null || steps.indexOf(null) !== last) {
      throw new TypeError(
        `doc.iterate(path): ${JSON.stringify(path)} must end with [*] or .* and have no other wildcard`);
    }
    const expand = options?.expand;
    if (expand !== undefined) {
      if (!Array.isArray(expand) || expand.some((e) => typeof e !== 'string') || expand.length > MAX_EXPAND) {
        throw new TypeError(
          `doc.iterate(path, options): options.expand must be an array of at most ${MAX_EXPAND} member names`);
      }
      if (expand.length > 0) return new ExpandIterator(this, steps, path, expand) as AsyncIterableIterator<T>;
    }
    return new ElementIterator<T>(this, steps, path);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.store.cancel(undefined);
  }

  /**
   * Starts an iteration: waits for the requests before it, then holds the document (a `get` is rejected) until the
   * returned release is called.
   */
  async holdForIteration(): Promise<() => void> {
    if (this.iterating) throw new Error('doc.iterate(): another iteration holds the document');
    const release = await this.acquire();
    this.iterating = true;
    return () => {
      this.iterating = false;
      release();
    };
  }

  /** Waits for the requests before this one; returns the release. */
  async acquire(): Promise<() => void> {
    if (this.closed) throw new Error('openJson: the document was closed');
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise((resolve) => (release = resolve));
    await before;
    return release;
  }

  /**
   * Kept: positions where requests finished, sorted by offset. Each is a restart point as good as the cursor
   * (its bytes are kept), so a request behind the cursor starts at the latest one it is ahead of, not at byte 0.
   */
  private checkpoints: Start[] = [];

  private remember(loc: readonly Step[], x: number): void {
    const list = this.checkpoints;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]!.x < x) lo = mid + 1;
      else hi = mid;
    }
    if (lo < list.length && list[lo]!.x === x) return;
    list.splice(lo, 0, { x, loc });
    // Bounded: thin out evenly, so restart points stay spread over the document.
    if (list.length > MAX_CHECKPOINTS) this.checkpoints = list.filter((_, i) => i % 2 === 0);
  }

  /** Moves the cursor forward (never back: a scan from the start may finish before it). */
  advance(loc: readonly Step[], x: number): void {
    if (!this.transient) this.remember(loc, x);
    if (this.loc === null || x > this.x) {
      this.loc = loc;
      this.x = x;
      if (this.transient && this.seen.size !== 0) {
        // Only the objects enclosing the cursor matter from now on.
        const enclosing = new Set<string>();
        for (let k = 0; k < loc.length; k++) if (typeof loc[k] === 'string') enclosing.add(pathText(loc.slice(0, k)));
        for (const key of this.seen.keys()) if (!enclosing.has(key)) this.seen.delete(key);
      }
    }
  }

  /**
   * Transient: the containers under which a request is about to read (`prefixes` of its path) get start markers
   * on their members, so that the member names it passes are recorded. Returns the start marker paths and the
   * recorder, or nothing (and forgets every record) when the selectors would not fit.
   */
  track(steps: readonly Step[], upto: number, room: number):
    { starts: Step[][]; record: (j: number, key: unknown) => void } {
    // Only objects have names to record: the containers whose next step on the path is a name.
    const prefixes: Step[][] = [];
    for (let k = 0; k < upto; k++) if (typeof steps[k] === 'string') prefixes.push(steps.slice(0, k));
    if (!this.transient || prefixes.length > room) {
      this.seen.clear();
      return { starts: [], record: () => {} };
    }
    const cursor = this.loc;
    const sets: (Set<string> | undefined)[] = prefixes.map((a) => {
      const key = pathText(a);
      const enclosing = cursor !== null && a.length < cursor.length && a.every((s, k) => cursor[k] === s);
      if (enclosing) return this.seen.get(key); // complete since the cursor entered it, or never recorded
      const fresh = new Set<string>(); // it starts after the cursor: every member of it is still to come
      this.seen.set(key, fresh);
      return fresh;
    });
    return {
      starts: prefixes.map((a) => [...a, null]),
      record: (j, key) => {
        if (typeof key === 'string') sets[j]?.add(key);
      },
    };
  }

  /**
   * Where a request for the value at `steps` must start, or a JsonPassedError for a transient document. Returns
   * null when the cursor shows the value cannot exist.
   */
  startFor(steps: readonly Step[], path: string): { start: Start; rel: Relation } | null {
    let rel = relation(steps, this.loc);
    if (rel.kind === 'absent') return null;
    if (rel.kind === 'unknown' && this.transient) {
      const names = this.seen.get(pathText(rel.object));
      if (names !== undefined) {
        // The record of that object is complete: passed, or still to come (or absent).
        if (names.has(steps[rel.object.length] as string)) throw this.passed(path);
        rel = { kind: 'ahead' };
      }
    }
    if (rel.kind === 'passed' && this.transient) throw this.passed(path);
    if (rel.kind === 'ahead' || this.transient) return { start: { x: this.x, loc: this.loc }, rel };
    // Kept, behind the cursor: a late checkpoint the value is ahead of (a binary search: the checkpoints before
    // the value are ahead of it, those after it are not; one whose relation is unknown counts as after, which
    // can only pick an earlier start), else the start of the stream.
    const list = this.checkpoints;
    let lo = 0;
    let hi = list.length - 1;
    let best: Start | null = null;
    let bestRel: Relation = rel;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const r = relation(steps, list[mid]!.loc);
      if (r.kind === 'absent') return null;
      if (r.kind === 'ahead') {
        best = list[mid]!;
        bestRel = r;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return { start: best ?? { x: 0, loc: null }, rel: bestRel };
  }

  passed(path: string, object?: readonly Step[]): JsonPassedError {
    const where = this.loc === null ? 'the start' : `the end of ${displayPath(this.loc)}`;
    const message = object === undefined
      ? `openJson: ${path} was already passed: the transient document's cursor is at ${where} (byte ${this.x})`
      : `openJson: ${path} is not in ${displayPath(object)} after the transient document's cursor (${where}, byte ` +
        `${this.x}); it may have come before, and a transient document cannot look back`;
    return new JsonPassedError(message, path, this.x);
  }

  private async resolve(steps: readonly Step[], path: string): Promise<unknown> {
    const plan = this.startFor(steps, path);
    if (plan === null) return undefined;
    const { start, rel } = plan;
    // The selectors of one native parser: the request's path, markers on its ancestors, start markers to track.
    const tracking = this.track(steps, steps.length, MAX_SELECTORS - steps.length);
    const parents = ancestors(steps, MAX_SELECTORS - 1 - tracking.starts.length);
    const ambiguous = rel.kind === 'unknown' && this.transient ? rel.object : null;
    const firstStart = 1 + parents.length;
    for await (const events of this.scan(start, [steps], parents, tracking.starts)) {
      for (const ev of events) {
        if (ev.path >= firstStart) {
          tracking.record(ev.path - firstStart, ev.key);
          continue;
        }
        if (ev.path === 0) {
          const value = ev.value();
          this.advance(steps, ev.end);
          return value;
        }
        const parent = parents[ev.path - 1]!;
        this.advance(parent, ev.end);
        if (ambiguous !== null && parent.length <= ambiguous.length) throw this.passed(path, ambiguous);
        return undefined;
      }
    }
    this.advance([], this.store.end);
    if (ambiguous !== null) throw this.passed(path, ambiguous);
    return undefined;
  }

  /**
   * Runs a parser from `start` over the bytes held, then over the source; yields the events of each chunk. Rejects
   * with the input's error after yielding the events before it.
   */
  async *scan(start: Start, paths: readonly (readonly Step[])[], markers: readonly (readonly Step[])[],
    starts: readonly (readonly Step[])[],
    copy?: CopyFilter): AsyncGenerator<DriverEvent[], void, undefined> {
    if (this.closed) throw new Error('openJson: the document was closed');
    const runtime = await loadRuntime();
    const store = this.store;
    if (start.x < store.start) throw new Error('sluice: openJson lost the bytes at its cursor');
    const prefix = start.loc === null ? '' : syntheticPrefix(start.loc);
    const local = (list: readonly (readonly Step[])[]) => list.map((p) => pathText(localPath(p, start.loc)));
    const driver = new Driver(runtime, this.limits, local(paths), local(markers), local(starts), prefix, start.x,
      store.lineAt(start.x), copy);
    try {
      let pos = start.x;
      let piece = FIRST_PIECE;
      for (;;) {
        let chunk = store.chunkAt(pos);
        if (chunk === null) {
          chunk = await store.pull();
          if (chunk === null) break;
          store.forgetBefore(chunk.offset);
        }
        const bytes = pos === chunk.offset ? chunk.bytes : chunk.bytes.subarray(pos - chunk.offset);
        pos = chunk.offset + chunk.bytes.length;
        // Growing pieces: a request that ends soon (the next value of many asked in order) scans little past its
        // answer; a long skip soon feeds whole windows.
        for (let at = 0; at < bytes.length;) {
          const n = Math.min(piece, bytes.length - at);
          const events = driver.feed(at === 0 && n === bytes.length ? bytes : bytes.subarray(at, at + n));
          at += n;
          piece = Math.min(piece * 2, MAX_PIECE);
          if (events.length !== 0) yield events;
          if (driver.failure !== null) throw driver.failure;
        }
      }
      const events = driver.finish();
      if (events.length !== 0) yield events;
      if (driver.failure !== null) throw driver.failure;
    } finally {
      driver.close();
    }
  }
}

/** doc.iterate() without expand: the elements of one array, in order. */
class ElementIterator<T> implements AsyncIterableIterator<T> {
  private readonly doc: OpenDocument;
  private readonly container: Step[];
  private readonly path: string;
  private scan: AsyncGenerator<DriverEvent[], void, undefined> | null = null;
  private events: DriverEvent[] = [];
  private next_ = 0;
  private parents: Step[][] = [];
  private ambiguous: readonly Step[] | null = null;
  private release: (() => void) | null = null;
  private state: 'new' | 'running' | 'done' = 'new';
  private tracking: ReturnType<OpenDocument['track']> | null = null;
  private firstStart = Infinity;
  /** The last element taken, not yet told to the document. */
  private taken: DriverEvent | null = null;

  constructor(doc: OpenDocument, steps: Step[], path: string) {
    this.doc = doc;
    this.container = steps.slice(0, -1);
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
        this.release = await this.doc.holdForIteration();
        const plan = this.doc.startFor(this.container, this.path);
        if (plan === null) return this.finish();
        // Not the array itself: a transient iteration always leaves the cursor after it (return() skips the rest).
        const depth = this.container.length;
        // The selectors of one native parser: the elements, the array's marker, markers on its ancestors, start
        // markers to track.
        this.tracking = this.doc.track(this.container, depth, MAX_SELECTORS - 2 - depth);
        const room = MAX_SELECTORS - 2 - this.tracking.starts.length;
        this.parents = [this.container, ...ancestors(this.container, room)];
        this.firstStart = 1 + this.parents.length;
        this.ambiguous = plan.rel.kind === 'unknown' && this.doc.transient ? plan.rel.object : null;
        this.scan = this.doc.scan(plan.start, [[...this.container, null]], this.parents, this.tracking.starts);
      }
      for (;;) {
        while (this.next_ < this.events.length) {
          const ev = this.events[this.next_++]!;
          if (ev.path >= this.firstStart) {
            this.tracking!.record(ev.path - this.firstStart, ev.key);
            continue;
          }
          if (ev.path === 0) {
            // The cursor moves past it; recorded cheaply here, told to the document when the loop stops.
            this.taken = ev;
            return { done: false, value: ev.value() as T };
          }
          return this.ended(ev);
        }
        const r = await this.scan!.next();
        if (r.done === true) {
          this.flush();
          this.doc.advance([], this.doc.store.end);
          if (this.ambiguous !== null) throw this.doc.passed(this.path, this.ambiguous);
          return this.finish();
        }
        this.events = r.value;
        this.next_ = 0;
      }
    } catch (error) {
      await this.finish();
      throw error;
    }
  }

  /** Moves the document's cursor past the last element taken. */
  private flush(): void {
    const ev = this.taken;
    if (ev === null) return;
    this.taken = null;
    this.doc.advance([...this.container, ev.key as Step], ev.end);
  }

  /** A marker: the array (or an ancestor, when there is no array) ended. */
  private async ended(ev: DriverEvent): Promise<IteratorResult<T>> {
    this.flush();
    const parent = this.parents[ev.path - 1]!;
    this.doc.advance(parent, ev.end);
    if (this.ambiguous !== null && ev.path > 1 && parent.length <= this.ambiguous.length) {
      throw this.doc.passed(this.path, this.ambiguous);
    }
    return this.finish();
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
          while (this.next_ < this.events.length) {
            const ev = this.events[this.next_++]!;
            if (ev.path >= this.firstStart) {
              this.tracking!.record(ev.path - this.firstStart, ev.key);
              continue;
            }
            if (ev.path !== 0) {
              this.flush();
              this.doc.advance(this.parents[ev.path - 1]!, ev.end);
              return await this.finish();
            }
          }
          const r = await this.scan.next();
          if (r.done === true) {
            this.flush();
            this.doc.advance([], this.doc.store.end);
            break;
          }
          this.events = r.value;
          this.next_ = 0;
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
