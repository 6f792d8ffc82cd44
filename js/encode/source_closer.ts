// Closing sources when the encoder stops early (the output was cancelled, or something failed): return() on an
// iterator, cancel(reason) on a stream's reader. A source that fails to stop is not the consumer's error.
import { ARRAY, OBJECT, RAW_READER, READER, ROOT, type Frame } from './frames.js';

/** Closes the source of `frame` if it is still open, and frees its validator. Never rejects. */
export async function closeFrame(frame: Frame, reason: unknown): Promise<void> {
  if (frame.kind === RAW_READER) frame.validator?.close();
  if (frame.kind === ROOT || frame.kind === OBJECT || frame.kind === ARRAY || !frame.open) return;
  frame.open = false;
  try {
    if (frame.kind === READER || frame.kind === RAW_READER) await frame.source.cancel(reason);
    else if (typeof frame.source.return === 'function') await frame.source.return();
  } catch {
    // The output failed or went away already.
  }
}
