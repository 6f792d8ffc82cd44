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
import type { ParserLimits } from '../errors.js';
import { loadRuntime } from '../native/loader.js';
import { canonicalPath } from '../parse/json_path.js';
import type { ElementWithNormalizedPath } from '../parse/option_types.js';
import { INTEGERS_NUMBER, resolveIntegers, type IntegersMode, type IntegersOption } from '../parse/integers.js';
import { checkSource, type JsonSource } from '../sources.js';
import { type ApiName, checkOptions, misuse, mustBe, optionalBoolean, resolveLimits } from '../validate.js';
import { Cursor } from './open_json_cursor.js';
import { Driver, type CopyFilter, type DriverEvent } from './open_json_driver.js';
import { ExpandIterator } from './open_json_expand.js';
import { resolveFromEnd } from './open_json_from_end.js';
import { ElementIterator } from './open_json_iterate.js';
import { localPath, syntheticPrefix, type Step } from './open_json_path.js';
import { MAX_EXPAND, endOf, passedBefore, planRequest, recordName, type Plan, type Request } from './open_json_plan.js';
import { iterateQuery, nativeSlice, singularSteps, type SingularStep } from './open_json_query.js';
import { normalizedStep } from '../query/normalized_path.js';
import { QueryIterator, type JsQuery } from './open_json_query_iterate.js';
import { ByteStore } from './open_json_store.js';
import type { IterableDocument } from './open_json_iterable.js';

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
  /**
   * How integers outside ±(2^53 - 1) are read, as the push parser's `integers`: `'number'` rounded, as
   * `JSON.parse` reads them; `'bigint'` as a `BigInt` with every digit; `'string'` as their digits.
   * @default 'number'
   */
  readonly integers?: IntegersOption;
}

/** Options of {@link JsonDocument.iterate}. */
export interface IterateOptions {
  /**
   * Member names of each element whose arrays are streamed as async iterables instead of being built. The element
   * is yielded when the first of them starts, with the members before it; every later member (another expanded
   * one too) is set on it once the stream reaches it, that is once the child streams before it were read to their
   * end or `return()`ed (the rest of such a stream is then skipped). Moving the loop to the next element skips the
   * rest of this one: reading one of its streams afterwards throws. Only for a path ending with `[*]` or `.*`.
   */
  readonly expand?: readonly string[];
  /**
   * Yield `{ value, normalizedPath }`: each node with where it is in the document, as RFC 9535 §2.7 writes it
   * (`$['orders'][3]['lines'][0]`). Not with `expand`.
   * @default false
   */
  readonly withNormalizedPath?: boolean;
}

/** A JSON document over a stream; see {@link openJson}. */
export interface JsonDocument {
  /** True for a transient (forward-only) document. */
  readonly transient: boolean;
  /**
   * The value at `path`, a singular query (names and indices: `$.meta.total`, `$.rows[-1].id`), as `JSON.parse`
   * would give it, or `undefined` when the document has no such value. Reads the stream only as far as the value's
   * end (for an absent value: the end of its nearest existing ancestor; for a negative index: the array's end).
   * Requests are served one at a time, in call order.
   * @throws {TypeError} for an unsupported path; {JsonSyntaxError | JsonLimitError} for invalid input met on the
   * way; {JsonPassedError} in a transient document for a value already passed.
   */
  get<T = unknown>(path: string): Promise<T | undefined>;
  /** The nodes of `path` as the other overload yields them, each as `{ value, normalizedPath }`. */
  iterate<T = unknown>(
    path: string,
    options: IterateOptions & { readonly withNormalizedPath: true },
  ): AsyncIterableIterator<ElementWithNormalizedPath<T>>;
  /**
   * The elements of the array (or the member values of the object) at `path`: `doc.iterate('$.orders[*]')`. The
   * container is named by names and indices >= 0; a slice counted from the start or a filter in place of `[*]`
   * picks elements, and segments after it run on each element: `$.orders[?@.total > 10].lines[*].sku` yields the
   * nodes of that query, in RFC 9535's order, one element in memory. Other requests wait until the loop ends; a
   * `get` inside the loop is rejected. Breaking out of the loop leaves the cursor after the last element taken
   * (transient: after the array, the rest of which is skipped).
   * @throws {TypeError} at the call for a query that needs more than one container's elements in turn (a `..` or
   * a union before it, a filter reading `$`, a negative index before it, a slice counted from the end).
   */
  iterate<T = unknown>(path: string, options?: IterateOptions): AsyncIterableIterator<T>;
  /**
   * Stops reading: a request still pending (and every later one) is rejected with `reason`, or with an
   * `AbortError` when none is given; the native parser is freed at once and the source cancelled. Resolves once
   * the source has stopped, or at once when it is busy producing a chunk (an async generator in an `await` then
   * gets its `return()` when that await ends).
   */
  close(reason?: unknown): Promise<void>;
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
  const api = 'openJson()';
  const checked = checkOptions(api, options, ['transient', 'maxDepth', 'maxElementBytes', 'integers']);
  const transient = optionalBoolean(api, checked, 'transient') ?? false;
  const limits = resolveLimits(api, checked);
  const integers = resolveIntegers(api, checked, 'integers');
  checkSource(source, api);
  return new OpenDocument(source, transient, limits, integers);
}

/** A request's `path`, checked to be a string. */
function requestPath(api: ApiName, path: unknown): string {
  if (typeof path !== 'string') throw mustBe(api, 'path', 'a string', path);
  return path;
}

/** options.expand of doc.iterate(): a copy of its names (none when unset). */
function expandNames(api: ApiName, expand: unknown): string[] {
  if (expand === undefined) return [];
  if (!Array.isArray(expand)) throw mustBe(api, 'options.expand', 'an array of member names', expand);
  if (expand.length > MAX_EXPAND) {
    throw misuse(api, `options.expand holds ${expand.length} names; at most ${MAX_EXPAND} are supported`);
  }
  for (let i = 0; i < expand.length; i++) {
    if (typeof expand[i] !== 'string') throw mustBe(api, `options.expand[${i}]`, 'a string', expand[i]);
  }
  return [...(expand as string[])];
}

const ALL = { kind: 'all' } as const;

const FIRST_PIECE = 1024;
const MAX_PIECE = 1 << 20;

/** The error pending and later requests of a closed document reject with, when close() was given no reason. */
function abortError(): Error {
  const message = 'openJson(): the document was closed';
  if (typeof DOMException === 'function') return new DOMException(message, 'AbortError');
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

/** @internal */
export class OpenDocument implements JsonDocument, IterableDocument {
  readonly transient: boolean;
  readonly store: ByteStore;
  readonly cursor: Cursor;
  private readonly limits_: ParserLimits;
  private tail_: Promise<void> = Promise.resolve();
  /** An iteration holds the document. */
  private iterating_ = false;
  /** Set by close(): what every pending and later request rejects with. */
  private closedWith_: { reason: unknown; done: Promise<void> } | null = null;
  /** The native parsers of the requests under way, freed by close(). */
  private readonly drivers_ = new Set<Driver>();
  /**
   * Transient: the input error a request met. The bytes before it are gone (the cursor stayed behind it), so every
   * later request that reads rejects with this error, as a full read of the stream would end with it.
   */
  private failed_: Error | null = null;

  constructor(
    source: JsonSource,
    transient: boolean,
    limits: ParserLimits,
    /** options.integers. */
    readonly integers: IntegersMode = INTEGERS_NUMBER,
  ) {
    this.transient = transient;
    this.limits_ = limits;
    this.store = new ByteStore(source, !transient);
    this.cursor = new Cursor(transient);
  }

  async get<T>(path: string): Promise<T | undefined> {
    const api = 'doc.get()';
    const steps = singularSteps(api, 'path', requestPath(api, path), 'openJson', 'doc.iterate()');
    if (this.iterating_) {
      throw misuse(
        api,
        `path ${JSON.stringify(path)} cannot be read while doc.iterate() holds the document: ` +
          'finish or break the loop first',
      );
    }
    const release = await this.acquire_();
    try {
      return (await this.answer_(steps, path)) as T | undefined;
    } finally {
      release();
    }
  }

  iterate<T>(path: string, options?: IterateOptions): AsyncIterableIterator<T> {
    const api = 'doc.iterate()';
    const query = iterateQuery(api, requestPath(api, path));
    const container = query.container;
    const checked = checkOptions(api, options, ['expand', 'withNormalizedPath']);
    const names = expandNames(api, checked.expand);
    const withNormalizedPath = optionalBoolean(api, checked, 'withNormalizedPath') ?? false;
    if (withNormalizedPath && names.length > 0) {
      throw misuse(api, 'options.withNormalizedPath and options.expand cannot be used together');
    }
    // The container is named by names and indices: its normalized path is known before it is read.
    const named = withNormalizedPath ? `$${container.map(normalizedStep).join('')}` : null;
    // [*] or .* with nothing after it keeps the plain iterator; a pick or a tail needs the query's.
    const elements = query.pick.kind === 'all' && query.tail === null;
    if (names.length > 0) {
      if (!elements) {
        throw misuse(
          api,
          `options.expand streams the elements of a path ending with [*] or .*, not of ${JSON.stringify(path)} ` +
            '(a slice, a filter or segments after the container)',
        );
      }
      return new ExpandIterator(this, { kind: 'expand', container, names }, path) as AsyncIterableIterator<T>;
    }
    if (elements) return new ElementIterator<T>(this, { kind: 'iterate', container }, path, named);
    // A slice, and a filter the native parser takes, select in wasm, so an element they leave out is never copied
    // out of wasm; with integers other than 'number' the JS evaluator reads the values the user gets, as it always
    // has. A slice's stop marker ends the iteration after its last element without copying the element.
    const pick = query.pick;
    let request: Request & { readonly kind: 'iterate' } = { kind: 'iterate', container };
    let js: JsQuery;
    if (pick.kind === 'slice') {
      request = { kind: 'iterate', container, ...nativeSlice(pick) };
      js = { ...query, pick: ALL };
    } else if (pick.kind === 'filter' && pick.program !== null && this.integers === INTEGERS_NUMBER) {
      request = { kind: 'iterate', container, selector: `[?${pick.program}]` };
      js = { ...query, pick: ALL };
    } else {
      js = { ...query, pick };
    }
    if (js.pick.kind === 'all' && js.tail === null) return new ElementIterator<T>(this, request, path, named);
    return new QueryIterator(this, request, path, js, named) as AsyncIterableIterator<T>;
  }

  close(reason?: unknown): Promise<void> {
    if (this.closedWith_ === null) {
      const why = reason === undefined ? abortError() : reason;
      // Pending requests fail now, not when the source answers: their parsers are freed at once.
      for (const driver of this.drivers_) driver.close();
      this.drivers_.clear();
      this.closedWith_ = { reason: why, done: this.store.abort(why) };
    }
    return this.closedWith_.done;
  }

  /** The input error `error`, remembered by a transient document for the requests after it. */
  private fail_(error: Error): Error {
    if (this.transient) this.failed_ = error;
    return error;
  }

  /** Throws the reason a closed document rejects requests with. */
  assertOpen_(): void {
    if (this.closedWith_ !== null) throw this.closedWith_.reason;
  }

  /**
   * Starts an iteration: waits for the requests before it, then holds the document (a `get` is rejected) until the
   * returned release is called.
   */
  async holdForIteration_(path: string): Promise<() => void> {
    if (this.iterating_) {
      throw misuse(
        'doc.iterate()',
        `path ${JSON.stringify(path)} cannot be iterated while another doc.iterate() holds the document: ` +
          'finish or break that loop first',
      );
    }
    const release = await this.acquire_();
    this.iterating_ = true;
    return () => {
      this.iterating_ = false;
      release();
    };
  }

  /** Waits for the requests before this one; returns the release. */
  async acquire_(): Promise<() => void> {
    this.assertOpen_();
    const before = this.tail_;
    let release!: () => void;
    this.tail_ = new Promise((resolve) => (release = resolve));
    await before;
    if (this.closedWith_ !== null) {
      release();
      throw this.closedWith_.reason;
    }
    return release;
  }

  /** The value at `steps`: a negative index is resolved once its array's length is known (open_json_from_end.ts). */
  private answer_(steps: readonly SingularStep[], path: string): Promise<unknown> {
    const k = steps.findIndex((s) => typeof s === 'number' && s < 0);
    if (k < 0) return this.resolve_(steps, path);
    return resolveFromEnd(this, steps, k, path, (next) => this.answer_(next, path));
  }

  private async resolve_(steps: readonly Step[], path: string): Promise<unknown> {
    const plan = planRequest(this.cursor, { kind: 'get', steps }, path);
    if (plan === null) return undefined;
    for await (const events of this.scan(plan)) {
      for (const ev of events) {
        if (recordName(plan, ev.path, ev.key)) continue;
        if (ev.path === 0) {
          const value = ev.value();
          this.cursor.advance_(steps, ev.end);
          return value;
        }
        const parent = endOf(plan, ev.path)!;
        this.cursor.advance_(parent, ev.end);
        if (passedBefore(plan, parent)) throw this.cursor.passed(path, plan.ambiguous!);
        return undefined;
      }
    }
    this.cursor.advance_([], this.store.end);
    if (plan.ambiguous !== null) throw this.cursor.passed(path, plan.ambiguous);
    return undefined;
  }

  /**
   * Runs the plan's parser from its start over the bytes held, then over the source; yields the events of each
   * chunk. Rejects with the input's error after yielding the events before it, and with the close() reason once
   * the document is closed.
   */
  async *scan(plan: Plan, copy?: CopyFilter): AsyncGenerator<DriverEvent[], void, undefined> {
    this.assertOpen_();
    const runtime = await loadRuntime();
    this.assertOpen_();
    if (this.failed_ !== null) throw this.failed_;
    const store = this.store;
    const start = plan.start;
    if (start.x < store.start) throw new Error('sluice: openJson lost the bytes at its cursor');
    const prefix = start.loc_ === null ? '' : syntheticPrefix(start.loc_);
    const local = (list: readonly (readonly Step[])[]) => list.map((p) => canonicalPath(localPath(p, start.loc_)));
    const paths = local(plan.paths);
    // The element selector `[*]` (3 characters) ends paths[0]; a slice or a filter run in wasm takes its place.
    if (plan.selector !== undefined) paths[0] = paths[0]!.slice(0, -3) + plan.selector;
    const driver = new Driver(
      runtime,
      this.limits_,
      this.integers,
      paths,
      local(plan.markers),
      local(plan.starts),
      prefix,
      start.x,
      store.lineAt_(start.x),
      copy,
    );
    this.drivers_.add(driver);
    try {
      let pos = start.x;
      let piece = FIRST_PIECE;
      for (;;) {
        let chunk = store.chunkAt_(pos);
        if (chunk === null) {
          chunk = await store.pull();
          if (chunk === null) break;
          store.forgetBefore_(chunk.offset);
        }
        const bytes = pos === chunk.offset ? chunk.bytes : chunk.bytes.subarray(pos - chunk.offset);
        pos = chunk.offset + chunk.bytes.length;
        // Growing pieces: a request that ends soon (the next value of many asked in order) scans little past its
        // answer; a long skip soon feeds whole windows.
        for (let at = 0; at < bytes.length; ) {
          this.assertOpen_();
          const n = Math.min(piece, bytes.length - at);
          const events = driver.feed(at === 0 && n === bytes.length ? bytes : bytes.subarray(at, at + n));
          at += n;
          piece = Math.min(piece * 2, MAX_PIECE);
          if (events.length !== 0) yield events;
          if (driver.failure_ !== null) throw this.fail_(driver.failure_);
        }
      }
      this.assertOpen_();
      const events = driver.finish();
      if (events.length !== 0) yield events;
      if (driver.failure_ !== null) throw this.fail_(driver.failure_);
    } finally {
      this.drivers_.delete(driver);
      driver.close();
    }
  }
}
