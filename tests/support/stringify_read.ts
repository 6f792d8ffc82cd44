// Reading the encoders' output in tests: every chunk as it arrived, the bytes, the text, and the error if any.

export interface ReadOutput {
  chunks: Uint8Array[];
  bytes: Uint8Array;
  text: string;
  error: unknown;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Reads `stream` to its end or its error with getReader(). */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<ReadOutput> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let error: unknown;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } catch (caught) {
    error = caught;
  }
  const bytes = concat(chunks);
  // A broken stream can end inside a character: decode leniently then.
  const text = error === undefined ? decoder.decode(bytes) : new TextDecoder().decode(bytes);
  return { chunks, bytes, text, error };
}

/** The text of a stream that must end normally. */
export async function textOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  const { text, error } = await readAll(stream);
  if (error !== undefined) throw error;
  return text;
}

/** Lets pending promise jobs, stream pulls and macrotask flushes run. */
export function settle(ms = 20): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
