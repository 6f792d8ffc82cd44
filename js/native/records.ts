// The element and batch records of a call's results, read field by field: the only readers of their layouts
// (ELEMENT_*, BATCH_* in contract.ts) outside js/native. Plain functions of (u32 view, record index), small enough
// for V8 to inline into the materialising loops (js/parse/materialise.ts, js/open_json, js/cli), as the indexed
// reads they replace were. A record index is a u32 index into the module's memory (runtime.u32_).
import {
  BATCH_ELEMENT_COUNT,
  BATCH_FIRST_ELEMENT,
  BATCH_LEN,
  BATCH_PTR,
  BATCH_WORDS,
  ELEMENT_END,
  ELEMENT_INDEX_HI,
  ELEMENT_INDEX_LO,
  ELEMENT_KEY_GAP,
  ELEMENT_KEY_KIND,
  ELEMENT_KEY_LEN,
  ELEMENT_LEN,
  ELEMENT_PATH_INDEX,
  ELEMENT_WORDS,
} from './contract.js';

/** @internal Record index of element i of a table that starts at `elements` (runtime.elementsAt_()). */
export function elementRecord(elements: number, i: number): number {
  return elements + i * ELEMENT_WORDS;
}

/** @internal Address just past the element's last byte (in the window, or in the compacted batch). */
export function elementEnd(u32: Uint32Array, record: number): number {
  return u32[record + ELEMENT_END]!;
}

/** @internal The element's length in bytes. */
export function elementLength(u32: Uint32Array, record: number): number {
  return u32[record + ELEMENT_LEN]!;
}

/** @internal The selector that chose the element. */
export function elementPath(u32: Uint32Array, record: number): number {
  return u32[record + ELEMENT_PATH_INDEX]!;
}

/** @internal KEY_NONE, KEY_INDEX or KEY_NAME. */
export function elementKeyKind(u32: Uint32Array, record: number): number {
  return u32[record + ELEMENT_KEY_KIND]!;
}

/** @internal A name key's raw text lies this many bytes before the element's first byte. */
export function elementKeyGap(u32: Uint32Array, record: number): number {
  return u32[record + ELEMENT_KEY_GAP]!;
}

/** @internal A name key's raw text's length (quotes included). */
export function elementKeyLength(u32: Uint32Array, record: number): number {
  return u32[record + ELEMENT_KEY_LEN]!;
}

/** @internal An index key (KEY_INDEX): up to 2^53. */
export function elementIndex(u32: Uint32Array, record: number): number {
  return u32[record + ELEMENT_INDEX_HI]! * 4294967296 + u32[record + ELEMENT_INDEX_LO]!;
}

/** @internal Record index of batch b of a table that starts at `batches` (runtime.batchesAt_()). */
export function batchRecord(batches: number, b: number): number {
  return batches + b * BATCH_WORDS;
}

/** @internal The batch text's address; 0: its one element began before the window (its bytes are in the carry). */
export function batchPtr(u32: Uint32Array, record: number): number {
  return u32[record + BATCH_PTR]!;
}

/** @internal The batch text's length in bytes. */
export function batchLength(u32: Uint32Array, record: number): number {
  return u32[record + BATCH_LEN]!;
}

/** @internal The call's index of the batch's first element. */
export function batchFirst(u32: Uint32Array, record: number): number {
  return u32[record + BATCH_FIRST_ELEMENT]!;
}

/** @internal How many elements the batch covers. */
export function batchElementCount(u32: Uint32Array, record: number): number {
  return u32[record + BATCH_ELEMENT_COUNT]!;
}
