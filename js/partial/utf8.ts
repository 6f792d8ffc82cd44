// Byte chunks to text for the partial parser: strict UTF-8 (as the native parser reads it), sequences split across
// chunks held back until they complete, and the exact byte an invalid sequence breaks at. The native TextDecoder
// does the work; the byte-wise check below runs only once it has refused a chunk, to find where.

/** What a chunk decodes to. */
export interface Decoded {
  /** The text of the complete characters before the chunk's first invalid sequence (all of them if none). */
  readonly text: string;
  /**
   * Index in `bytes` (the held bytes, then the chunk) of the first byte of the invalid sequence, or -1. A stray
   * byte is a sequence of its own.
   */
  readonly badStart_: number;
  /** Index in `bytes` of the byte no continuation could make valid, or -1. */
  readonly badByte_: number;
  /** The bytes the indices count in. */
  readonly bytes: Uint8Array;
}

/** The byte length of the sequence a lead byte starts (1 for ASCII), or 0 for a byte that cannot lead. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead < 0xc2) return 0;
  if (lead < 0xe0) return 2;
  if (lead < 0xf0) return 3;
  return lead < 0xf5 ? 4 : 0;
}

/**
 * The WHATWG decoder's error points: the index of the first byte that no continuation could make valid and the
 * start of its sequence, or [-1, -1]. Second bytes after E0, ED, F0 and F4 have narrower ranges (no overlong
 * forms, no surrogates, nothing past U+10FFFF), so `E0 80` is invalid at its second byte.
 */
function firstInvalid(bytes: Uint8Array): [number, number] {
  let needed = 0;
  let start = 0;
  let lower = 0x80;
  let upper = 0xbf;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (needed === 0) {
      if (b < 0x80) continue;
      needed = sequenceLength(b) - 1;
      if (needed < 0) return [i, i];
      start = i;
      if (b === 0xe0) lower = 0xa0;
      else if (b === 0xed) upper = 0x9f;
      else if (b === 0xf0) lower = 0x90;
      else if (b === 0xf4) upper = 0x8f;
      continue;
    }
    if (b < lower || b > upper) return [i, start];
    lower = 0x80;
    upper = 0xbf;
    needed--;
  }
  return [-1, -1];
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const EMPTY = new Uint8Array(0);

export class Utf8Reader {
  private decoder_ = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /** The start of a sequence the last chunk ended in (at most 3 bytes), waiting for the rest. */
  held_: Uint8Array = EMPTY;

  /** Decodes a chunk. After an invalid sequence the reader is spent: the parser stops there. */
  decode(chunk: Uint8Array): Decoded {
    const before = this.held_;
    let text: string;
    try {
      text = this.decoder_.decode(chunk, { stream: true });
    } catch {
      const bytes = before.length === 0 ? chunk : concat(before, chunk);
      const [bad, start] = firstInvalid(bytes);
      // TextDecoder refused what the check accepts: not expected; report the chunk's first byte rather than loop.
      const badByte = Math.max(bad, 0);
      const badStart = bad < 0 ? 0 : start;
      this.held_ = EMPTY;
      return {
        text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, badStart)),
        badStart_: badStart,
        badByte_: badByte,
        bytes,
      };
    }
    this.held_ = this.incompleteTail_(before, chunk);
    return { text, badStart_: -1, badByte_: -1, bytes: chunk };
  }

  /** The bytes of an unfinished sequence at the end of the stream so far (the decoder accepted everything). */
  private incompleteTail_(before: Uint8Array, chunk: Uint8Array): Uint8Array {
    const last = chunk.length >= 4 ? chunk.subarray(chunk.length - 4) : concat(before, chunk);
    // Back from the end to the last byte that is not a continuation byte: it starts the last sequence.
    for (let i = last.length - 1; i >= 0 && i >= last.length - 4; i--) {
      const b = last[i]!;
      if ((b & 0xc0) === 0x80) continue;
      return i + sequenceLength(b) > last.length ? last.slice(i) : EMPTY;
    }
    return EMPTY;
  }
}
