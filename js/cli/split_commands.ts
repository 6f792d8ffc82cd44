// `select` and `count` of a query the library splits (js/query/split.ts) into a native head and, after it, a tail
// JS evaluates on each candidate (as js/parse/tails.ts does) or a window over each array's last elements
// (js/parse/array_window.ts), then perhaps a tail on what it selects: the nodes createParser gives, in its order.
// `select` writes each as it writes any element, its own text compacted: a candidate's or an element's from the
// batch, a node inside a candidate from the candidate's text (node_text.ts). `count` counts a window's nodes from
// each array's length, holding none, unless a tail follows the window. `select --with-normalized-path` comes here
// for any query: the markers' records are read one by one (js/parse/normalized_paths.ts) and dropped. So does a
// union whose selectors may select one node (`$[*, 0]`, in arrival order): the native parser reports the node once
// per selector, together, and it is written or counted once per PATH, as createParser delivers it. So does a union held for RFC order (`$['b','a']`): its nodes are
// copied and put in the RFC's order as createParser does (js/parse/match_order.ts). Queries the automaton takes
// whole never come here otherwise: scan_commands.ts writes their batches as they are.
import { KEY_INDEX, KEY_NAME } from '../native/contract.js';
import { ArrayWindow, distinctWindows, windowsOf } from '../parse/array_window.js';
import { decodeKey } from '../parse/materialise.js';
import type { MatchRecords } from '../parse/normalized_paths.js';
import { repeatsOf, UnionOrder } from '../parse/match_order.js';
import type { IndexSelector, SliceSelector } from '../query/ast.js';
import { filterHolds, locateSegments } from '../query/evaluate.js';
import { normalizedPath } from '../query/normalized_path.js';
import type { ArrayWindowSpec, QueryTail } from '../query/split.js';
import type { CommandLine } from './args.js';
import { ElementWriter, type HeldNode } from './element_writer.js';
import type { NativeStream } from './native_stream.js';
import { CandidateText } from './node_text.js';
import { openStream, pump, type ScanContext } from './scan_commands.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** Element `record`'s compact text, decoded (the text a tail reads). */
function textOf(stream: NativeStream, record: number): string {
  const ptr = stream.elementPtr_(record);
  return decoder.decode(stream.runtime.u8_.subarray(ptr, ptr + stream.elementLength_(record)));
}

/**
 * Element `record` of the last call: a view of its text in wasm memory (valid until the next call: written before
 * it), or with `arena` a copy, for a window that holds it longer.
 */
function held(
  stream: NativeStream,
  record: number,
  path: number,
  name: string | null,
  arena: Arena | null = null,
): HeldNode {
  const u8 = stream.runtime.u8_;
  const ptr = stream.elementPtr_(record);
  const key = stream.elementKey_(record);
  const text = u8.subarray(ptr, ptr + stream.elementLength_(record));
  return {
    path,
    key: key.kind === KEY_INDEX ? key.index : key.kind === KEY_NAME ? u8.slice(key.ptr_, key.ptr_ + key.length) : null,
    text: arena === null ? text : arena.copy(text),
    normalizedPath: name,
  };
}

/** The last call's records as the normalized paths' tracker, repeatsOf and UnionOrder read them. */
class StreamRecords implements MatchRecords {
  constructor(private readonly stream_: NativeStream) {}

  get count_(): number {
    return this.stream_.elementCount_;
  }

  path_(i: number): number {
    return this.stream_.elementPath_(this.stream_.element_(i));
  }

  /** In lines mode the repeats of a node share its line (FLAG_SHARE_REPEATS), so its end. */
  end_(i: number): number {
    return this.stream_.elementEnd_(this.stream_.element_(i));
  }

  key_(i: number): string | number | null {
    const key = this.stream_.elementKey_(this.stream_.element_(i));
    if (key.kind === KEY_INDEX) return key.index;
    if (key.kind !== KEY_NAME) return null;
    return decodeKey(this.stream_.runtime.u8_.subarray(key.ptr_, key.ptr_ + key.length));
  }
}

const ARENA_BYTES = 1024 * 1024;

/**
 * Copies of the elements windows hold, packed into shared 1 MiB buffers: a buffer per element costs several
 * times its bytes (a window over a whole array, `[::-1]`, holds every element).
 */
class Arena {
  private chunk_ = new Uint8Array(0);
  private fill_ = 0;

  copy(bytes: Uint8Array): Uint8Array {
    const n = bytes.length;
    if (n > ARENA_BYTES / 4) return bytes.slice();
    if (this.fill_ + n > this.chunk_.length) {
      this.chunk_ = new Uint8Array(ARENA_BYTES);
      this.fill_ = 0;
    }
    const view = this.chunk_.subarray(this.fill_, this.fill_ + n);
    view.set(bytes);
    this.fill_ += n;
    return view;
  }
}

/** The nodes `tail` selects in each element a window's `step` emits (segments follow the window's). */
function windowTail(tail: QueryTail, out: HeldNode[], step: (done: HeldNode[]) => void): void {
  const done: HeldNode[] = [];
  step(done);
  for (const node of done) tailNodes(tail, decoder.decode(node.text), node.path, node.normalizedPath, out);
}

/** The nodes a tail selects in one candidate, each with its exact text (and key) from the candidate's. */
function tailNodes(tail: QueryTail, text: string, path: number, name: string | null, out: HeldNode[]): void {
  const value: unknown = JSON.parse(text);
  if (tail.filter !== null && !filterHolds(tail.filter, value)) return;
  const nodes = locateSegments(tail.segments, value);
  if (nodes.length === 0) return;
  const candidate = new CandidateText(text);
  for (const { location } of nodes) {
    const span = candidate.span(location);
    const key =
      span.keyStart >= 0
        ? encoder.encode(text.slice(span.keyStart, span.keyEnd))
        : ((location?.key_ as number | undefined) ?? null);
    const normalized = name === null ? null : name + normalizedPath(location).slice(1);
    out.push({ path, key, text: encoder.encode(text.slice(span.start, span.end)), normalizedPath: normalized });
  }
}

/** `sluice select` of split queries: the same shapes, --limit and output as the batches of scan_commands.ts. */
export async function select(cli: CommandLine, context: ScanContext): Promise<void> {
  const writer = new ElementWriter(
    context.output,
    cli.array ? 'array' : cli.withPath ? 'with-path' : 'lines',
    cli.selectorPaths_,
    cli.normalized_ !== null,
  );
  const limit = cli.limit ?? Infinity;
  const tails = cli.tails_;
  const windows = cli.windows_ === null ? null : windowsOf(cli.windows_);
  const tracker = cli.normalized_?.make_() ?? null;
  const queries = cli.queries_;
  const unions = cli.held_;
  const ends = cli.normalized_?.ends_.length ?? 0;
  const unionOrder = unions === null ? null : new UnionOrder(unions, cli.nativePaths_.length + ends);
  const arena = new Arena();
  const write = async (nodes: HeldNode[]): Promise<boolean> => {
    await writer.writeHeld_(nodes, Math.min(nodes.length, limit - writer.count));
    return writer.count < limit;
  };
  if (limit > 0) {
    const stream = openStream(context, cli, 'lines', cli.nativePaths_, cli.normalized_, unions?.containers);
    const records = new StreamRecords(stream);
    try {
      await pump(context, stream, () => {
        const out: HeldNode[] = [];
        // The markers' records give each node's normalized path; they are no nodes (skip[e] 1).
        const skip = tracker === null ? null : new Uint8Array(stream.elementCount_);
        const names = tracker === null ? null : tracker.read_(records, skip!);
        if (unionOrder !== null) {
          // No tail or window beside a held union (lowerPaths): a node per record, written in this call but for a
          // later stage's, which may be held and so is copied.
          const stages = unions!.stages;
          for (let e = 0; e < stream.elementCount_; e++) {
            const record = stream.element_(e);
            const path = stream.elementPath_(record);
            out.push(held(stream, record, path, names?.[e] ?? null, (stages[path] ?? 0) > 0 ? arena : null));
          }
          return write(unionOrder.order_(records, out, 0, skip));
        }
        // Arrival order: a node several selectors of one PATH chose is written once.
        const repeated = queries === null ? null : repeatsOf(records, queries);
        for (let e = 0; e < stream.elementCount_; e++) {
          if ((skip !== null && skip[e] === 1) || repeated?.[e] === 1) continue;
          const record = stream.element_(e);
          const path = stream.elementPath_(record);
          const name = names === null ? null : names[e]!;
          const window = windows?.[path] ?? null;
          const tail = tails?.[path] ?? null;
          if (window !== null) {
            // An object's members are no array elements: a negative index or slice selects none of them.
            const key = stream.elementKey_(record);
            if (key.kind !== KEY_INDEX) continue;
            const node = held(stream, record, path, name, arena);
            if (tail === null) window.push(key.index, node, out);
            else windowTail(tail, out, (done) => window.push(key.index, node, done));
          } else if (tail === null) {
            out.push(held(stream, record, path, name));
          } else if (tail.segments.length === 0) {
            // Only a filter: the node is the candidate itself, written from the batch.
            const kept = tail.nodes(JSON.parse(textOf(stream, record))).length !== 0;
            if (kept) out.push(held(stream, record, path, name));
          } else {
            tailNodes(tail, textOf(stream, record), path, name, out);
          }
        }
        return write(out);
      });
      // The end completes the last array of each window (unless --limit stopped the reading).
      if (windows !== null && writer.count < limit) {
        const out: HeldNode[] = [];
        for (const [path, window] of distinctWindows(windows)) {
          const tail = tails?.[path] ?? null;
          if (tail === null) window.flush(out);
          else windowTail(tail, out, (done) => window.flush(done));
        }
        await write(out);
      }
    } finally {
      stream.delete();
    }
  }
  await writer.end();
}

/** The number of nodes a window's selector takes from an array of `length` (sliceIndices' bounds, counted). */
export function selectedCount(s: IndexSelector | SliceSelector, length: number): number {
  if (s.kind === 'index') return s.index < 0 ? (length + s.index >= 0 ? 1 : 0) : s.index < length ? 1 : 0;
  const step = s.step ?? 1;
  if (step === 0) return 0;
  const normalize = (i: number) => (i >= 0 ? i : length + i);
  const clamp = (i: number, low: number, high: number) => Math.min(Math.max(i, low), high);
  if (step > 0) {
    const lower = clamp(normalize(s.start ?? 0), 0, length);
    const upper = clamp(normalize(s.end ?? length), 0, length);
    return upper > lower ? Math.ceil((upper - lower) / step) : 0;
  }
  const upper = clamp(normalize(s.start ?? length - 1), -1, length - 1);
  const lower = clamp(normalize(s.end ?? -length - 1), -1, length - 1);
  return upper > lower ? Math.ceil((upper - lower) / -step) : 0;
}

/** One query's window, counted: only the length of the current array is kept. */
class WindowCount {
  private readonly selector_: IndexSelector | SliceSelector;
  private length_ = 0;

  constructor(spec: ArrayWindowSpec) {
    this.selector_ = spec.selector;
  }

  /** Element `index` of the current array; returns the count of the array it completes (index 0 starts one). */
  push(index: number): number {
    const completed = index === 0 ? this.flush() : 0;
    this.length_ = index + 1;
    return completed;
  }

  /** The current array is complete: the count of its nodes. */
  flush(): number {
    const n = selectedCount(this.selector_, this.length_);
    this.length_ = 0;
    return n;
  }
}

/** One query's window followed by a tail, counted: the elements it selects are held, then the tail's nodes counted. */
class TailedWindowCount {
  private readonly window_: ArrayWindow;

  constructor(
    spec: ArrayWindowSpec,
    private readonly tail_: QueryTail,
  ) {
    this.window_ = new ArrayWindow(spec);
  }

  push(index: number, text: string): number {
    const done: unknown[] = [];
    this.window_.push(index, text, done);
    return this.count_(done);
  }

  flush(): number {
    const done: unknown[] = [];
    this.window_.flush(done);
    return this.count_(done);
  }

  private count_(texts: unknown[]): number {
    let n = 0;
    for (const text of texts) n += this.tail_.nodes(JSON.parse(text as string)).length;
    return n;
  }
}

/**
 * `sluice count` of a split query: a window's nodes from each array's length (markers: no element bytes kept), a
 * tail's by evaluating it on each candidate (its compact text from the batch, parsed), a window's followed by a
 * tail by evaluating the tail on each element the window selects.
 */
export async function count(cli: CommandLine, context: ScanContext): Promise<void> {
  const tails = cli.tails_;
  const made = new Map<ArrayWindowSpec, WindowCount | TailedWindowCount>();
  const windows =
    cli.windows_?.map((spec, path) => {
      if (spec === null) return null;
      let window = made.get(spec);
      if (window === undefined) {
        const tail = tails?.[path] ?? null;
        window = tail === null ? new WindowCount(spec) : new TailedWindowCount(spec, tail);
        made.set(spec, window);
      }
      return window;
    }) ?? null;
  const queries = cli.queries_;
  const stream = openStream(context, cli, tails === null ? 'markers' : 'lines', cli.nativePaths_);
  const records = new StreamRecords(stream);
  let total = 0;
  try {
    await pump(context, stream, () => {
      const repeated = queries === null ? null : repeatsOf(records, queries);
      for (let e = 0; e < stream.elementCount_; e++) {
        if (repeated?.[e] === 1) continue;
        const record = stream.element_(e);
        const path = stream.elementPath_(record);
        const window = windows?.[path] ?? null;
        const tail = tails?.[path] ?? null;
        if (window !== null) {
          const key = stream.elementKey_(record);
          if (key.kind !== KEY_INDEX) continue;
          total +=
            window instanceof WindowCount ? window.push(key.index) : window.push(key.index, textOf(stream, record));
        } else if (tail === null) {
          total++;
        } else {
          total += tail.nodes(JSON.parse(textOf(stream, record))).length;
        }
      }
      return true;
    });
    for (const window of made.values()) total += window.flush();
  } finally {
    stream.delete();
  }
  await context.output.writeText_(`${total}\n`);
}
