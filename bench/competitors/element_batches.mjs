// The input of the materialisation ceiling: for every chunk, the JSON text `[e1,e2,...]` of exactly the elements
// that chunk completes, which is what sluice's value mode hands to one TextDecoder.decode + one JSON.parse.
// Built once before timing, so the timed ceiling does no scanning at all.
//
// The scan is deliberately simple, not a validator: it trusts its input (the generated datasets) and finds the
// elements of the arrays that sit at the selector's depth. The caller checks the element count it returns.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** `$._embedded.articles[*]` -> 3: the nesting depth of the array whose elements the path selects. */
export function selectedArrayDepth(path) {
  const segments = path.slice(1).match(/\.[^.[]+|\[[^\]]*\]/g) ?? [];
  if (!path.startsWith('$') || segments.join('') !== path.slice(1) || segments.at(-1) !== '[*]') {
    throw new Error(`element_batches: unsupported path ${path} (want $.name...[*])`);
  }
  return segments.length;
}

function isDelimiter(byte) {
  return byte === 0x2c || byte === CLOSE_BRACKET || byte === CLOSE_BRACE || byte <= 0x20;
}

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

/**
 * Element spans of the arrays at `arrayDepth`: `starts[i]`, `ends[i]` (exclusive) and `doneAt[i]`, the byte at which
 * a push parser can know the element is complete (its last byte for strings and containers; the delimiter after
 * it for numbers and literals, whose end is only known when the next byte arrives).
 */
export function findElements(bytes, arrayDepth) {
  const starts = [];
  const ends = [];
  const doneAt = [];
  const isArray = new Uint8Array(arrayDepth + 2);
  let depth = 0;
  let elementStart = -1;
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const c = bytes[i];
    const startsElement = depth === arrayDepth && isArray[depth] === 1 && elementStart < 0;
    if (c === QUOTE) {
      const end = skipString(bytes, i);
      // Object keys at this depth are not elements; they only occur inside objects, which isArray rules out.
      if (startsElement) {
        starts.push(i);
        ends.push(end);
        doneAt.push(end - 1);
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (startsElement) elementStart = i;
      depth++;
      if (depth <= arrayDepth) isArray[depth] = c === OPEN_BRACKET ? 1 : 0;
      i++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === arrayDepth && elementStart >= 0) {
        starts.push(elementStart);
        ends.push(i + 1);
        doneAt.push(i);
        elementStart = -1;
      }
      i++;
    } else if (startsElement && c !== 0x2c && c > 0x20) {
      let end = i + 1;
      while (end < n && !isDelimiter(bytes[end])) end++;
      starts.push(i);
      ends.push(end);
      doneAt.push(end);
      i = end;
    } else {
      i++;
    }
  }
  return { starts, ends, doneAt };
}

/** One `[e1,...,en]` byte array per chunk that completes at least one element, in chunk order. */
export function buildBatches(bytes, path, chunkSize) {
  const { starts, ends, doneAt } = findElements(bytes, selectedArrayDepth(path));
  const batches = [];
  let first = 0;
  while (first < starts.length) {
    const chunk = Math.floor(doneAt[first] / chunkSize);
    let last = first;
    while (last + 1 < starts.length && Math.floor(doneAt[last + 1] / chunkSize) === chunk) last++;
    // Between two selected elements of one array there are only whitespace and commas, so the covering range
    // wrapped in brackets is exactly the JSON array of those elements.
    const body = bytes.subarray(starts[first], ends[last]);
    const batch = new Uint8Array(body.length + 2);
    batch[0] = OPEN_BRACKET;
    batch.set(body, 1);
    batch[batch.length - 1] = CLOSE_BRACKET;
    batches.push(batch);
    first = last + 1;
  }
  return { batches, elementCount: starts.length };
}

/**
 * The ceiling's timed part: one TextDecoder.decode + one JSON.parse per batch, each element consumed by `touch`;
 * records `ctx.firstAt` (performance.now()) at the first batch. The decoder is the one sluice's value mode uses, so
 * the ceiling differs from value mode by the scanning alone.
 */
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
