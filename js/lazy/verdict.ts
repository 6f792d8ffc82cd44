// The parser's verdict on a range of a lazyParse() document. The lazy module has no parser (it would double its
// size): where the index finds text broken, or must check a scalar root whole, its call returns
// STATUS_VERDICT_NEEDED with the range in lazy_out, and the push parser of the main module reads that range as a
// document of its own, as src/lazy/lazy_validate.cpp does natively. Errors and scalar roots only: O(range).
import {
  VIEW_ERROR_BYTE,
  VIEW_ERROR_COLUMN,
  VIEW_ERROR_LINE,
  VIEW_ERROR_OFFSET,
  VIEW_INPUT_CAPACITY,
  VIEW_INPUT_PTR,
} from '../native/contract.js';
import {
  OUT_ERROR_BYTE,
  OUT_ERROR_COLUMN,
  OUT_ERROR_LINE,
  OUT_ERROR_OFFSET,
  OUT_STATUS,
  OUT_VERDICT_END,
  OUT_VERDICT_IF_VALID,
  OUT_VERDICT_START,
  STATUS_VERDICT_NEEDED,
  type LazyBinding,
} from './native_lazy.js';

// A selector no document can satisfy (2^53 elements), so that the parser validates without selecting.
const VALIDATE_ONLY_PATH = '$[9007199254740992]';
const NEWLINE = 0x0a;

/**
 * @internal `status` as the index would have returned it with a parser of its own: a STATUS_VERDICT_NEEDED is
 * replaced by the parser's error in the range lazy_out names (written to lazy_out, where lazyError reads it), or
 * by the status lazy_out gives for a range the parser accepts. `bytes` is the document.
 */
export function settle(binding: LazyBinding, status: number, bytes: Uint8Array, maxDepth: number): number {
  if (status !== STATUS_VERDICT_NEEDED) return status;
  const heap = binding.heap;
  heap.sync();
  const u32 = heap.u32;
  const out32 = binding.out32;
  return locate(
    binding,
    bytes,
    u32[out32 + OUT_VERDICT_START]!,
    u32[out32 + OUT_VERDICT_END]!,
    maxDepth,
    u32[out32 + OUT_VERDICT_IF_VALID]!,
  );
}

/**
 * @internal The parser's first error in bytes [start, end) of the document, positioned where those bytes are,
 * written to lazy_out; when it finds none, `ifValid` at `start` (line 1, column 1). Returns the status.
 */
export function locate(
  binding: LazyBinding,
  bytes: Uint8Array,
  start: number,
  end: number,
  maxDepth: number,
  ifValid: number,
): number {
  const runtime = binding.runtime;
  const parser = new runtime.native.Parser(maxDepth, 0, 0);
  let status = 0;
  let byte = 256;
  let offset = 0;
  let line = 1;
  let column = 1;
  try {
    parser.addPath(VALIDATE_ONLY_PATH);
    // The module's one view, which this parser's calls refresh (HACKING.md, "Parser memory").
    const view = runtime.view;
    for (let at = start; at < end && status === 0; ) {
      runtime.sync();
      const n = Math.min(runtime.u32[view + VIEW_INPUT_CAPACITY]!, end - at);
      runtime.u8.set(bytes.subarray(at, at + n), runtime.u32[view + VIEW_INPUT_PTR]!);
      status = parser.feed(n);
      at += n;
    }
    if (status === 0) status = parser.finish();
    runtime.sync();
    if (status !== 0) {
      const view64 = runtime.view64;
      byte = runtime.u32[view + VIEW_ERROR_BYTE]!;
      offset = runtime.f64[view64 + VIEW_ERROR_OFFSET]!;
      line = runtime.f64[view64 + VIEW_ERROR_LINE]!;
      column = runtime.f64[view64 + VIEW_ERROR_COLUMN]!;
    }
  } finally {
    parser.delete();
  }
  if (status === 0) {
    status = ifValid;
    offset = start;
  } else if (start !== 0) {
    // Positions in the range are relative to its start: move them to the document's.
    let baseLine = 1;
    let lineStart = 0;
    for (let i = bytes.indexOf(NEWLINE); i !== -1 && i < start; i = bytes.indexOf(NEWLINE, i + 1)) {
      baseLine++;
      lineStart = i + 1;
    }
    if (line === 1) column += start - lineStart;
    line += baseLine - 1;
    offset += start;
  }
  const heap = binding.heap;
  heap.sync();
  const out32 = binding.out32;
  const out64 = binding.out64;
  heap.u32[out32 + OUT_STATUS] = status;
  heap.u32[out32 + OUT_ERROR_BYTE] = byte;
  heap.f64[out64 + OUT_ERROR_OFFSET] = offset;
  heap.f64[out64 + OUT_ERROR_LINE] = line;
  heap.f64[out64 + OUT_ERROR_COLUMN] = column;
  return status;
}
