// A Node.js Readable's async iterator is an async generator: its return() before the first next() skips the
// body, and with it the destroy() in its `finally`. Whoever stops a source that way destroys a Node stream itself,
// as a `for await` loop that breaks would have.

interface NodeReadableMarks {
  readonly destroy?: unknown;
  readonly destroyed?: unknown;
  readonly pipe?: unknown;
  readonly on?: unknown;
}

/** @internal destroy() on a Node.js readable stream not destroyed yet, without an error; nothing on anything else. */
export function destroyNodeReadable(source: unknown): void {
  if (typeof source !== 'object' || source === null) return;
  const marks = source as NodeReadableMarks;
  if (
    typeof marks.destroy === 'function' &&
    typeof marks.pipe === 'function' &&
    typeof marks.on === 'function' &&
    marks.destroyed !== true
  ) {
    (source as { destroy(): void }).destroy();
  }
}
