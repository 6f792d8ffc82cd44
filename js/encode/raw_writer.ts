// Writing rawJson values: text and bytes validated whole, then written; a stream validated and written chunk by
// chunk, a leading byte order mark dropped (held back until the first three bytes are known).
import { isUint8Array } from '../realm.js';
import type { ChunkWriter } from './chunk_writer.js';
import { rawReaderFrame, type RawReaderFrame } from './frames.js';
import { bomLength, createValidator, validateWhole } from './raw_validator.js';
import { describeChunk } from './value_kinds.js';

const textEncoder = new TextEncoder();

/** Writes a rawJson text or bytes once the validator accepted all of it. The module must be loaded. */
export function writeRawWhole(out: ChunkWriter, payload: string | Uint8Array): void {
  const bytes = typeof payload === 'string' ? textEncoder.encode(payload) : payload;
  validateWhole(bytes);
  out.writeBytes_(bomLength(bytes) === 0 ? bytes : bytes.subarray(3));
}

/** A frame reading the stream of rawJson `value`. The module must be loaded. */
export function openRawReader(value: object, stream: ReadableStream<Uint8Array>): RawReaderFrame {
  const validator = createValidator();
  try {
    return rawReaderFrame(value, stream.getReader(), validator);
  } catch (error) {
    validator.close();
    throw error;
  }
}

/** A chunk of a rawJson stream: validated, then written (a leading byte order mark dropped). */
export function writeRawChunk(out: ChunkWriter, frame: RawReaderFrame, chunk: unknown): void {
  if (!isUint8Array(chunk)) {
    throw new TypeError(`sluice: rawJson(stream) chunks must be Uint8Array, got ${describeChunk(chunk)}`);
  }
  frame.validator!.push(chunk);
  let bytes = chunk;
  const head = frame.head;
  if (head !== null) {
    if (head.length > 0) {
      bytes = new Uint8Array(head.length + chunk.length);
      bytes.set(head);
      bytes.set(chunk, head.length);
    }
    if (bytes.length < 3 && isBomPrefix(bytes)) {
      frame.head = bytes;
      return;
    }
    frame.head = null;
    if (bomLength(bytes) !== 0) bytes = bytes.subarray(3);
  }
  out.writeBytes_(bytes);
}

/** The stream ended: throws if the text is truncated (the validator is freed either way), else writes the rest. */
export function endRaw(out: ChunkWriter, frame: RawReaderFrame): void {
  const validator = frame.validator!;
  frame.validator = null;
  validator.end();
  if (frame.head !== null && frame.head.length > 0) out.writeBytes_(frame.head);
}

function isBomPrefix(bytes: Uint8Array): boolean {
  return (bytes.length < 1 || bytes[0] === 0xef) && (bytes.length < 2 || bytes[1] === 0xbb);
}
