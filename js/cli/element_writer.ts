// What `select` writes for the elements of one parser call, from the compact-lines batch in wasm memory: the lines
// as they are (one write per call, no copy), one JSON array (--array: the newlines turned into commas in place), or
// {"path","key","value"} lines (--with-path: assembled in a reused buffer). The nodes of a query split into a head
// and a tail or a window (split_commands.ts) are held in JS and written in the same three shapes, or with
// --with-normalized-path as {"value","normalizedPath"} or {"path","key","value","normalizedPath"} lines.
import { KEY_INDEX, KEY_NAME } from '../native/contract.js';
import type { NativeStream } from './native_stream.js';
import type { Output } from './output.js';

const encoder = new TextEncoder();
const OPEN = encoder.encode('[');
const COMMA = encoder.encode(',');
const CLOSE = encoder.encode(']\n');
const EMPTY = encoder.encode('[]\n');
const VALUE = encoder.encode(',"value":');
const END = encoder.encode('}\n');
const NULL = encoder.encode('null');
const NEWLINE = encoder.encode('\n');
const VALUE_ONLY = encoder.encode('{"value":');
const NORMALIZED_PATH = encoder.encode(',"normalizedPath":');
const BUFFER_BYTES = 64 * 1024;

export type Shape = 'lines' | 'array' | 'with-path';

/** A node held in JS (a tail's, a window's): its native selector, its key and its compact text. */
export interface HeldNode {
  readonly path: number;
  /** A member name's JSON text as in the input, an array index (a value's number with --ndjson), or null. */
  readonly key: Uint8Array | number | null;
  readonly text: Uint8Array;
  /** --with-normalized-path: where the node is (RFC 9535 §2.7); null without it. */
  readonly normalizedPath: string | null;
}

export class ElementWriter {
  private readonly output_: Output;
  private readonly shape_: Shape;
  /** `{"path":"<path>","key":` for each path, encoded once. */
  private readonly prefixes_: readonly Uint8Array[];
  private written_ = 0;
  /** --with-path: the lines of one call, assembled here; `fill` bytes used. */
  private buffer_ = new Uint8Array(BUFFER_BYTES);
  private fill_ = 0;

  /** --with-normalized-path: held nodes are written as records with their normalizedPath last. */
  private readonly named_: boolean;

  constructor(output: Output, shape: Shape, paths: readonly string[], named = false) {
    this.output_ = output;
    this.shape_ = shape;
    this.named_ = named;
    this.prefixes_ = paths.map((path) => encoder.encode(`{"path":${JSON.stringify(path)},"key":`));
  }

  /** Elements written so far. */
  get count(): number {
    return this.written_;
  }

  /** Writes the first `take` elements of the stream's last call (take <= its element count). */
  async write(stream: NativeStream, take: number): Promise<void> {
    if (take === 0) return;
    const { ptr_: ptr, length } = stream.batch();
    const last = stream.element_(take - 1);
    // The lines of the first `take` elements: up to the newline after the last one.
    const end =
      take === stream.elementCount_ ? ptr + length : stream.elementPtr_(last) + stream.elementLength_(last) + 1;
    const u8 = stream.runtime.u8_;
    if (this.shape_ === 'lines') {
      await this.output_.write(u8, ptr, end - ptr);
    } else if (this.shape_ === 'array') {
      await this.output_.write(this.written_ === 0 ? OPEN : COMMA, 0, 1);
      for (let i = 0; i < take - 1; i++) {
        const record = stream.element_(i);
        u8[stream.elementPtr_(record) + stream.elementLength_(record)] = 0x2c; // the newline after it becomes ','
      }
      await this.output_.write(u8, ptr, end - 1 - ptr);
    } else {
      this.withPaths_(stream, take);
      await this.output_.write(this.buffer_, 0, this.fill_);
      // After a huge element, do not hold its copy for the rest of the run.
      if (this.buffer_.length > 64 * BUFFER_BYTES) this.buffer_ = new Uint8Array(BUFFER_BYTES);
    }
    this.written_ += take;
  }

  /** Writes the first `take` of `nodes` (take <= nodes.length). */
  async writeHeld_(nodes: readonly HeldNode[], take: number): Promise<void> {
    if (take === 0) return;
    this.fill_ = 0;
    for (let i = 0; i < take; i++) {
      const node = nodes[i]!;
      if (this.named_) {
        // {"value":...,"normalizedPath":...}, or with --with-path {"path":...,"key":...,"value":...,...}.
        if (this.shape_ === 'with-path') {
          this.append_(this.prefixes_[node.path]!);
          this.appendKey_(node.key);
          this.append_(VALUE);
        } else {
          this.append_(VALUE_ONLY);
        }
        this.append_(node.text);
        this.append_(NORMALIZED_PATH);
        this.append_(encoder.encode(JSON.stringify(node.normalizedPath)));
        this.append_(END);
      } else if (this.shape_ === 'lines') {
        this.append_(node.text);
        this.append_(NEWLINE);
      } else if (this.shape_ === 'array') {
        this.append_(this.written_ + i === 0 ? OPEN : COMMA);
        this.append_(node.text);
      } else {
        this.append_(this.prefixes_[node.path]!);
        this.appendKey_(node.key);
        this.append_(VALUE);
        this.append_(node.text);
        this.append_(END);
      }
      // In pieces: a window's last array may hold millions of nodes (`[::-1]`).
      if (this.fill_ >= BUFFER_BYTES) {
        await this.output_.write(this.buffer_, 0, this.fill_);
        this.fill_ = 0;
      }
    }
    await this.output_.write(this.buffer_, 0, this.fill_);
    if (this.buffer_.length > 64 * BUFFER_BYTES) this.buffer_ = new Uint8Array(BUFFER_BYTES);
    this.written_ += take;
  }

  /** Ends the output: closes the array. */
  async end(): Promise<void> {
    if (this.shape_ !== 'array') return;
    const tail = this.written_ === 0 ? EMPTY : CLOSE;
    await this.output_.write(tail, 0, tail.length);
  }

  private withPaths_(stream: NativeStream, take: number): void {
    this.fill_ = 0;
    const u8 = stream.runtime.u8_;
    for (let i = 0; i < take; i++) {
      const record = stream.element_(i);
      const key = stream.elementKey_(record);
      this.append_(this.prefixes_[stream.elementPath_(record)]!);
      this.appendKey_(
        key.kind === KEY_INDEX
          ? key.index
          : key.kind === KEY_NAME
            ? u8.subarray(key.ptr_, key.ptr_ + key.length)
            : null,
      );
      this.append_(VALUE);
      const ptr = stream.elementPtr_(record);
      this.append_(u8.subarray(ptr, ptr + stream.elementLength_(record)));
      this.append_(END);
    }
  }

  private appendKey_(key: Uint8Array | number | null): void {
    if (typeof key === 'number') this.append_(encoder.encode(String(key)));
    else this.append_(key ?? NULL);
  }

  private append_(bytes: Uint8Array): void {
    const need = this.fill_ + bytes.length;
    if (need > this.buffer_.length) {
      const grown = new Uint8Array(Math.max(need, this.buffer_.length * 2));
      grown.set(this.buffer_.subarray(0, this.fill_));
      this.buffer_ = grown;
    }
    this.buffer_.set(bytes, this.fill_);
    this.fill_ = need;
  }
}
