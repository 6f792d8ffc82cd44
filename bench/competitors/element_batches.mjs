// The ceiling's input, by a trusting scan (not bytes mode: its copies pre-warm the allocator, docs/decisions.md 12-06).

const [QUOTE, BACKSLASH, OPEN_BRACE, OPEN_BRACKET, CLOSE_BRACE, CLOSE_BRACKET] = [0x22, 0x5c, 0x7b, 0x5b, 0x7d, 0x5d];

const isDelimiter = (byte) => byte === 0x2c || byte === CLOSE_BRACKET || byte === CLOSE_BRACE || byte <= 0x20;

/** The index just past the closing quote of the string that opens at `at`. */
function skipString(bytes, at) {
  let close = at;
  for (;;) {
    close = bytes.indexOf(QUOTE, close + 1);
    if (close < 0) throw new Error('element_batches: unterminated string');
    let backslashes = 0;
    while (bytes[close - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return close + 1;
  }
}

/** Per chunk of `chunkSize`, the elements of the array at `path` that chunk completes, as one JSON array text. */
export function buildBatches(bytes, path, chunkSize) {
  if (!/^\$(\.[^.[]+)*\[\*\]$/.test(path)) throw new Error(`element_batches: ${path} is not $.name...[*]`);
  // `$._embedded.articles[*]` -> 3: the depth of the array the path selects.
  const arrayDepth = path.split('.').length;
  const batches = [];
  // The batch being gathered: its first element's start, its last one's end, the chunk that completes them.
  let [first, last, chunk] = [-1, -1, -1];
  const close = () => {
    // Between two elements of one array lie only whitespace and commas: the covering range is their array's body.
    const batch = new Uint8Array(last - first + 2);
    batch[0] = OPEN_BRACKET;
    batch.set(bytes.subarray(first, last), 1);
    batch[batch.length - 1] = CLOSE_BRACKET;
    batches.push(batch);
  };
  // An element spans [start, end); the byte at `doneAt` completes it (a number's: the byte after it).
  const element = (start, end, doneAt) => {
    const at = Math.floor(doneAt / chunkSize);
    if (at !== chunk) {
      if (first >= 0) close();
      [first, chunk] = [start, at];
    }
    last = end;
  };
  const isArray = new Uint8Array(arrayDepth + 2);
  let depth = 0;
  let elementStart = -1;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    const startsElement = depth === arrayDepth && isArray[depth] === 1 && elementStart < 0;
    if (c === QUOTE) {
      const end = skipString(bytes, i);
      // Object keys at this depth are not elements; they only occur inside objects, which isArray rules out.
      if (startsElement) element(i, end, end - 1);
      i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (startsElement) elementStart = i;
      depth++;
      if (depth <= arrayDepth) isArray[depth] = c === OPEN_BRACKET ? 1 : 0;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === arrayDepth && elementStart >= 0) {
        element(elementStart, i + 1, i);
        elementStart = -1;
      }
    } else if (startsElement && c !== 0x2c && c > 0x20) {
      let end = i + 1;
      while (end < bytes.length && !isDelimiter(bytes[end])) end++;
      element(i, end, end);
      i = end - 1;
    }
  }
  if (first >= 0) close();
  return batches;
}

/** The ceiling's timed part: one decode (value mode's decoder) + one JSON.parse per batch; `touch` per element. */
export function parseBatches(batches, ctx, touch) {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let elements = 0;
  let checksum = 0;
  for (let b = 0; b < batches.length; b++) {
    const values = JSON.parse(decoder.decode(batches[b]));
    if (ctx.firstAt === 0) ctx.firstAt = performance.now();
    elements += values.length;
    for (let i = 0; i < values.length; i++) checksum += touch(values[i]);
  }
  return { elements, checksum };
}
