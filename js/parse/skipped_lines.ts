// The lines a call skipped with onInvalidLine (the native skipped records, wasm/contract.h), as the errors they
// would have thrown, with the line's first bytes. Read right after the call, before any user code runs.
import { errorFromStatus, type ParserLimits } from '../errors.js';
import {
  SKIPPED_BYTE,
  SKIPPED_BYTES,
  SKIPPED_CODE,
  SKIPPED_COLUMN,
  SKIPPED_LINE_NUMBER,
  SKIPPED_OFFSET,
  SKIPPED_TEXT,
  SKIPPED_TEXT_LEN,
  VIEW_SKIPPED_COUNT,
  VIEW_SKIPPED_PTR,
  type NativeRuntime,
} from '../native/contract.js';
import type { InvalidLine } from './options.js';

const decoder = new TextDecoder();

/** @internal The last call's skipped lines. */
export function readSkippedLines(runtime: NativeRuntime, limits: ParserLimits): InvalidLine[] {
  runtime.sync();
  const { u32, f64 } = runtime;
  const count = u32[runtime.view + VIEW_SKIPPED_COUNT]!;
  const base = u32[runtime.view + VIEW_SKIPPED_PTR]!;
  const out: InvalidLine[] = [];
  for (let i = 0; i < count; i++) {
    const at = base + i * SKIPPED_BYTES;
    const w = at >>> 2;
    const d = at >>> 3;
    const position = {
      offset: f64[d + SKIPPED_OFFSET]!,
      line: f64[d + SKIPPED_LINE_NUMBER]!,
      column: f64[d + SKIPPED_COLUMN]!,
    };
    const error = errorFromStatus(u32[w + SKIPPED_CODE]!, u32[w + SKIPPED_BYTE]!, position, limits);
    out.push(Object.assign(error, { lineText: decoder.decode(skippedLineBytes(runtime, i)) }) as InvalidLine);
  }
  return out;
}

/** @internal The first bytes of the last call's skipped line i (at most SKIPPED_TEXT_MAX), copied. */
export function skippedLineBytes(runtime: NativeRuntime, i: number): Uint8Array {
  runtime.sync();
  const at = runtime.u32[runtime.view + VIEW_SKIPPED_PTR]! + i * SKIPPED_BYTES;
  return runtime.u8.slice(at + SKIPPED_TEXT, at + SKIPPED_TEXT + runtime.u32[(at >>> 2) + SKIPPED_TEXT_LEN]!);
}
