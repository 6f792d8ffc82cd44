// Closing sources when the encoder stops early (the output was cancelled, or something failed). Two kinds:
//
// - the sources it opened, one per source frame: return() on the iterator, cancel(reason) on the stream's reader,
//   destroy() on a Node.js stream (its iterator may not have started);
// - the sources in the part of the value it has not reached yet, found by walking that part as the encoder would
//   have written it, without running user code: array elements, and the own data members of other objects (an
//   array replacer's list if there is one), never a getter, toJSON, a replacer or then(). What is found:
//   - a ReadableStream, also inside rawJson(stream): cancel(reason), unless a reader holds it (not ours then);
//   - an iterator with return(), sync or async (a generator, parseJsonArray's iterator): return(). One that never
//     started only finishes: its body, where a cursor would be opened, never runs;
//   - a Node.js readable stream (opened when it was created): destroy(), without an error (that would be emitted);
//   - a Promise (a native one: then() has no side effects): once it fulfils, the sources in its value;
//   - other iterables (a Map, a Set, an object whose iterator opens its resource when called) hold nothing the
//     encoder could close, and sources' elements are not in the value until produced: neither is entered.
//
// Cost: O(size of the unreached part), paid only when stopping early: one descriptor per member, 0.3 to 0.4 times
// the time JSON.stringify takes for the same part (100,000 and 200,000 of bench:stringify's articles); reading
// members with [[Get]] instead, which runs getters, took 0.2 times. Cycles end the walk (it never enters an object
// it is inside of); a shared subtree is walked once per path to it, as the encoder would have written it.
import { destroyNodeReadable } from '../node_readable.js';
import { isUint8Array } from '../realm.js';
import { ARRAY, OBJECT, RAW_READER, READER, ROOT, type Frame } from './frames.js';
import { rawJsonPayload } from './raw_json.js';
import { isThenable, NOT_A_SOURCE, sourceKind } from './value_kinds.js';

/** What the closer needs to know of the encoder. */
export interface CloseContext {
  /** Given to cancel(). */
  readonly reason: unknown;
  /** The members of objects to follow: an array replacer's list, or the own enumerable ones (undefined). */
  readonly propertyList_: readonly string[] | undefined;
  /** Sources closed already, or to be closed by their frame: never closed twice. */
  readonly closed: WeakSet<object>;
}

/** Closes the source of `frame` if it is still open, and frees its validator. Never rejects. */
export async function closeFrame(frame: Frame, reason: unknown): Promise<void> {
  if (frame.kind === RAW_READER) frame.validator?.close();
  if (frame.kind === ROOT || frame.kind === OBJECT || frame.kind === ARRAY || !frame.open) return;
  frame.open = false;
  try {
    if (frame.kind === READER || frame.kind === RAW_READER) await frame.source.cancel(reason);
    else if (typeof frame.source.return === 'function') await frame.source.return();
    destroyNodeReadable(frame.container);
  } catch {
    // The output failed or went away already.
  }
}

/**
 * Closes every source in what `frame` has not reached (a root not started, the members of an object or the
 * elements of an array after the current one), in the order they come, each awaited. `inside`: the objects the
 * encoder is inside of, never entered (used as the walk's path, and left as it was). Never rejects.
 */
export function closeUnreachedIn(frame: Frame, context: CloseContext, inside: Set<object>): Promise<void> {
  const finder = new SourceFinder(context, inside);
  switch (frame.kind) {
    case ROOT:
      if (!frame.started) finder.pushValues_([frame.value], 0);
      break;
    case OBJECT:
      finder.pushMembers_(frame.container, frame.keys, frame.index);
      break;
    case ARRAY:
      finder.pushValues_(frame.container, frame.index);
      break;
    default:
      // A source's elements are not in the value until produced.
      return Promise.resolve();
  }
  return closeAll(finder.find(), context);
}

/** Closes every source in `value` (one that arrived after the encoder stopped). Never rejects. */
export function closeUnreached(value: unknown, context: CloseContext): Promise<void> {
  const finder = new SourceFinder(context, new Set());
  finder.pushValues_([value], 0);
  return closeAll(finder.find(), context);
}

async function closeAll(sources: readonly object[], context: CloseContext): Promise<void> {
  for (const source of sources) {
    try {
      await closeSource(source, context);
    } catch {
      // A source that fails to stop is not the consumer's error.
    }
  }
}

/** The parts of a source the closer uses. */
interface Closable {
  readonly locked?: unknown;
  readonly cancel?: unknown;
  readonly next?: unknown;
  readonly return?: unknown;
}

async function closeSource(source: object, context: CloseContext): Promise<void> {
  const closable = source as Closable;
  if (source instanceof Promise) {
    // Not awaited: it may never settle.
    Promise.prototype.then.call(
      source,
      (value: unknown) => closeUnreached(value, context),
      () => {},
    );
    return;
  }
  if (typeof (source as { getReader?: unknown }).getReader === 'function') {
    if (closable.locked !== true && typeof closable.cancel === 'function') {
      await (source as ReadableStream<unknown>).cancel(context.reason);
    }
    return;
  }
  if (typeof closable.next === 'function' && typeof closable.return === 'function') {
    await (source as Iterator<unknown>).return!();
    return;
  }
  destroyNodeReadable(source);
}

/** Marks the end of an object's members on the walk's stack: the object is popped off the path after it. */
const LEAVE: unique symbol = Symbol('leave') as never;

/** A depth-first walk of values for the sources in them, with an explicit stack (values may nest deeply). */
class SourceFinder {
  private readonly context_: CloseContext;
  /** The objects being walked (and those the encoder is inside of): a cycle back to one ends the walk there. */
  private readonly path_: Set<object>;
  private readonly stack_: unknown[] = [];
  private readonly found_: object[] = [];
  /** The members of one object, reversed onto the stack so that they come in order. */
  private readonly members_: unknown[] = [];

  /** `path`: the objects not to enter; what the walk adds to it, it removes. */
  constructor(context: CloseContext, path: Set<object>) {
    this.context_ = context;
    this.path_ = path;
  }

  /** Values `start` to the end of `values`, in order. */
  pushValues_(values: readonly unknown[], start: number): void {
    for (let i = values.length - 1; i >= start; i--) this.stack_.push(values[i]);
  }

  /** The data members `keys[start..]` of `object`, in order. */
  pushMembers_(object: object, keys: readonly string[], start: number): void {
    const members = this.members_;
    members.length = 0;
    for (let i = start; i < keys.length; i++) members.push(dataMember(object, keys[i]!));
    this.pushValues_(members, 0);
  }

  find(): object[] {
    const { stack_: stack, path_: path } = this;
    while (stack.length > 0) {
      const item = stack.pop();
      if (item === LEAVE) {
        path.delete(stack.pop() as object);
        continue;
      }
      if (typeof item !== 'object' || item === null || path.has(item) || this.context_.closed.has(item)) continue;
      try {
        this.visit_(item);
      } catch {
        // A Proxy trap or an odd getter (getReader, then...) threw: nothing more to find there.
      }
    }
    return this.found_;
  }

  private visit_(value: object): void {
    if (Array.isArray(value)) {
      this.enter_(value);
      this.pushValues_(value, 0);
      return;
    }
    const payload = rawJsonPayload(value);
    if (payload !== undefined) {
      if (typeof payload === 'object' && !isUint8Array(payload)) this.source_(payload);
      return;
    }
    if (isThenable(value)) {
      // Only a native promise: another thenable's then() may start work (a query builder runs its query).
      if (Object.getPrototypeOf(value) === Promise.prototype) this.source_(value);
      return;
    }
    if (sourceKind(value) !== NOT_A_SOURCE) {
      this.source_(value);
      return;
    }
    // Typed arrays and String objects: no members to follow.
    if (typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function') return;
    this.enter_(value);
    const propertyList = this.context_.propertyList_;
    if (propertyList !== undefined) {
      this.pushMembers_(value, propertyList, 0);
      return;
    }
    const members = this.members_;
    members.length = 0;
    // for-in from V8's enum cache; inherited keys have no own descriptor and are skipped.
    for (const key in value) members.push(dataMember(value, key));
    this.pushValues_(members, 0);
  }

  private enter_(value: object): void {
    this.path_.add(value);
    this.stack_.push(value, LEAVE);
  }

  private source_(value: object): void {
    this.context_.closed.add(value);
    this.found_.push(value);
  }
}

/** The value of the own data member `key` of `object`; undefined for an accessor (its getter is not called). */
function dataMember(object: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor === undefined ? undefined : descriptor.value;
}
