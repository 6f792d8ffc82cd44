// The encoder's stack frames, one per open container or source: a union discriminated by `kind`. Frames are made
// by the factories below only, so that each family (root, object/array, source) has one hidden class: the driver's
// property reads see three shapes at most and stay polymorphic rather than megamorphic.
import type { PushParser } from '../parse/parser.js';

/** The value passed to write(), the member `key` of `holder`. */
export const ROOT = 0;
export const OBJECT = 1;
export const ARRAY = 2;
/** A sync iterable other than an array, a typed array or a String object. */
export const ITERATOR = 3;
export const ASYNC_ITERATOR = 4;
/** A ReadableStream of values. */
export const READER = 5;
/** The iterator of parseJsonArray(..., { output: 'bytes' }): elements are written as they are. */
export const RAW_ELEMENTS_ITERATOR = 6;
/** A rawJson(ReadableStream): chunks are validated, then written. */
export const RAW_READER = 7;

/** How write() treats a root value without JSON text (undefined, a function, a symbol). */
export const OMITTED_IS_ERROR = 0;
/** ... or writes `null`, as in an array. */
export const OMITTED_AS_NULL = 1;
export type Omitted = typeof OMITTED_IS_ERROR | typeof OMITTED_AS_NULL;

export interface RootFrame {
  readonly kind: typeof ROOT;
  /** The object holding the value (what a replacer function sees as `this`), or undefined. */
  readonly holder_: unknown;
  readonly key: string;
  readonly value: unknown;
  /** The nesting depth the value is written at. */
  readonly depth: number;
  readonly omitted: Omitted;
  /** The value was taken: the frame is popped when it comes up again. */
  started: boolean;
}

interface ContainerFields {
  /** Nesting depth of the container: its members are written at depth + 1. */
  readonly depth: number;
  /** Next member or element index. */
  index: number;
  /** Members or elements written so far: what the next separator is. */
  count: number;
}

export interface ObjectFrame extends ContainerFields {
  readonly kind: typeof OBJECT;
  readonly container: Readonly<Record<string, unknown>>;
  /** The members to write: an array replacer's list, or the own enumerable keys. */
  readonly keys: readonly string[];
}

export interface ArrayFrame extends ContainerFields {
  readonly kind: typeof ARRAY;
  readonly container: readonly unknown[];
  readonly keys: null;
}

interface SourceFields extends ContainerFields {
  /** The source (an ancestor, for cycle detection). */
  readonly container: object;
  /** The source still needs return() or cancel() if the encoder stops early. */
  open: boolean;
  /** The source delivered its first result. */
  primed: boolean;
}

export interface IteratorFrame extends SourceFields {
  readonly kind: typeof ITERATOR;
  readonly source: Iterator<unknown>;
  readonly validator: null;
  readonly head: null;
}

export interface AsyncIteratorFrame extends SourceFields {
  readonly kind: typeof ASYNC_ITERATOR | typeof RAW_ELEMENTS_ITERATOR;
  readonly source: AsyncIterator<unknown>;
  readonly validator: null;
  readonly head: null;
}

export interface ReaderFrame extends SourceFields {
  readonly kind: typeof READER;
  readonly source: ReadableStreamDefaultReader<unknown>;
  readonly validator: null;
  readonly head: null;
}

export interface RawReaderFrame extends SourceFields {
  readonly kind: typeof RAW_READER;
  readonly source: ReadableStreamDefaultReader<unknown>;
  /** Validates the chunks; null once ended. */
  validator: PushParser<Uint8Array> | null;
  /** First bytes held back until they cannot be a byte order mark; null once decided. */
  head: Uint8Array | null;
}

export type SourceFrame = IteratorFrame | AsyncIteratorFrame | ReaderFrame | RawReaderFrame;
/** Frames whose members are written with separators between them. */
export type ListFrame = ObjectFrame | ArrayFrame | IteratorFrame | AsyncIteratorFrame | ReaderFrame;
export type Frame = RootFrame | ObjectFrame | ArrayFrame | SourceFrame;
/** Frames of a value nested in the root: each has a depth and counts what it wrote. */
export type NestedFrame = Exclude<Frame, RootFrame>;

export function rootFrame(holder: unknown, key: string, value: unknown, depth: number, omitted: Omitted): RootFrame {
  return { kind: ROOT, holder_: holder, key, value, depth, omitted, started: false };
}

export function objectFrame(
  container: Readonly<Record<string, unknown>>,
  depth: number,
  keys: readonly string[],
): ObjectFrame {
  return { kind: OBJECT, container, depth, keys, index: 0, count: 0 };
}

export function arrayFrame(container: readonly unknown[], depth: number): ArrayFrame {
  return { kind: ARRAY, container, depth, keys: null, index: 0, count: 0 };
}

export function sourceFrame(
  kind: typeof ITERATOR,
  container: object,
  depth: number,
  source: Iterator<unknown>,
): IteratorFrame;
export function sourceFrame(
  kind: typeof ASYNC_ITERATOR | typeof RAW_ELEMENTS_ITERATOR,
  container: object,
  depth: number,
  source: AsyncIterator<unknown>,
): AsyncIteratorFrame;
export function sourceFrame(
  kind: typeof READER,
  container: object,
  depth: number,
  source: ReadableStreamDefaultReader<unknown>,
): ReaderFrame;
export function sourceFrame(
  kind: SourceFrame['kind'],
  container: object,
  depth: number,
  source: SourceFrame['source'],
): SourceFrame {
  // One literal for every kind (the hidden class); the overloads pair each kind with its source's type.
  const frame = {
    kind,
    container,
    depth,
    index: 0,
    count: 0,
    source,
    open: true,
    primed: false,
    validator: null,
    head: null,
  };
  return frame as SourceFrame;
}

export function rawReaderFrame(
  container: object,
  source: ReadableStreamDefaultReader<unknown>,
  validator: PushParser<Uint8Array>,
): RawReaderFrame {
  return {
    kind: RAW_READER,
    container,
    depth: 0,
    index: 0,
    count: 0,
    source,
    open: true,
    primed: false,
    validator,
    head: new Uint8Array(0),
  };
}
