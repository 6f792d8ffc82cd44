// An event's envelope read without JSON.parse. A provider repeats the same JSON around every delta (OpenAI Chat
// Completions: ids, model, fingerprint, about 250 bytes around 5 characters): once one event's data is known as
// head + "delta" + tail, the next data of that form is the same value with another string at that place. Exact:
// JSON lets any string token stand where one stood without changing how the rest reads, so JSON.parse of the
// new data equals the old value with the slot rewritten; the slot is proven to be the one the path reads by
// parsing the envelope once with a marker there. Any other data (not that head and tail, a slot that is not a
// string token exactly) goes to JSON.parse.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** A string nowhere in the data the envelope is made of (checked), in the slot while the envelope is proven. */
const MARKER = '\u0001';
const MARKER_TOKEN = '"\\u0001"';

/** @internal Where a value holds the string an envelope's slot reads: `holder_[key_]`. */
export interface Slot {
  readonly holder_: Record<string, unknown>;
  readonly key_: string;
}

/** @internal One event's data as head + slot + tail, its value (rewritten at the slot for each match). */
export interface Envelope {
  readonly head_: string;
  readonly tail_: string;
  /** JSON.parse of the data, owned here: the reader given it must keep no part of it. */
  readonly value_: unknown;
  readonly slot_: Slot;
}

/**
 * @internal The envelope of `data` (`value` its JSON.parse), its slot the string that `find` locates in a value,
 * or null if that string's token is not found or not proven.
 */
export function envelopeOf(data: string, value: unknown, find: (value: unknown) => Slot | null): Envelope | null {
  const slot = find(value);
  if (slot === null || typeof slot.holder_[slot.key_] !== 'string' || data.includes('\\u0001')) return null;
  // The slot's token: the string after the last `"key":` (the last duplicate is the one JSON.parse keeps).
  const at = data.lastIndexOf(`"${slot.key_}"`);
  if (at === -1) return null;
  let start = skipSpace(data, at + slot.key_.length + 2);
  if (data.charCodeAt(start) !== 0x3a) return null;
  start = skipSpace(data, start + 1);
  const end = stringEnd(data, start);
  if (end === -1) return null;
  const head = data.slice(0, start);
  const tail = data.slice(end);
  try {
    const marked = find(JSON.parse(head + MARKER_TOKEN + tail));
    if (marked === null || marked.holder_[marked.key_] !== MARKER) return null;
  } catch {
    return null;
  }
  return { head_: head, tail_: tail, value_: value, slot_: slot };
}

/**
 * @internal JSON.parse of `data` if it is `envelope`'s head, a JSON string token and its tail: the envelope's
 * value with that string in the slot (the same object each time). `undefined` if `data` is of another form.
 */
export function parseInEnvelope(envelope: Envelope, data: string): unknown {
  const from = envelope.head_.length;
  const to = data.length - envelope.tail_.length;
  // Slices compared, not startsWith(): V8 compares a slice as a block, startsWith() a character at a time (10
  // times slower on a 224-character head).
  if (to - from < 2 || data.slice(0, from) !== envelope.head_ || data.slice(to) !== envelope.tail_) return undefined;
  const string = stringToken(data, from, to);
  if (string === undefined) return undefined;
  envelope.slot_.holder_[envelope.slot_.key_] = string;
  return envelope.value_;
}

/**
 * @internal The value of `data.slice(from, to)` if it is exactly one JSON string token (RFC 8259: no raw control
 * character, `"` or `\` but in an escape, escapes `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` `\uXXXX`), else
 * `undefined`.
 */
export function stringToken(data: string, from: number, to: number): string | undefined {
  const last = to - 1;
  if (to - from < 2 || data.charCodeAt(from) !== QUOTE || data.charCodeAt(last) !== QUOTE) return undefined;
  let escaped = false;
  for (let i = from + 1; i < last; i++) {
    const unit = data.charCodeAt(i);
    if (unit === QUOTE || unit < 0x20) return undefined;
    if (unit !== BACKSLASH) continue;
    escaped = true;
    const next = data.charCodeAt(++i);
    if (i >= last) return undefined;
    if (next === 0x75) {
      // \u and four hex digits, all before the closing quote.
      if (i + 4 >= last) return undefined;
      for (let k = 1; k <= 4; k++) if (!isHex(data.charCodeAt(i + k))) return undefined;
      i += 4;
    } else if (!isSimpleEscape(next)) return undefined;
  }
  // Checked: JSON.parse of the token cannot throw, and decodes its escapes.
  return escaped ? (JSON.parse(data.slice(from, to)) as string) : data.slice(from + 1, last);
}

/** The index after the string token starting at `start`, or -1 if none starts there. */
function stringEnd(data: string, start: number): number {
  if (data.charCodeAt(start) !== QUOTE) return -1;
  for (let i = start + 1; i < data.length; i++) {
    const unit = data.charCodeAt(i);
    if (unit === QUOTE) return i + 1;
    if (unit === BACKSLASH) i++;
  }
  return -1;
}

function skipSpace(data: string, i: number): number {
  for (;;) {
    const unit = data.charCodeAt(i);
    if (unit !== 0x20 && unit !== 0x09 && unit !== 0x0a && unit !== 0x0d) return i;
    i++;
  }
}

function isHex(unit: number): boolean {
  return (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x46) || (unit >= 0x61 && unit <= 0x66);
}

/** `"` `\` `/` `b` `f` `n` `r` `t`: the escapes other than \u. */
function isSimpleEscape(unit: number): boolean {
  return (
    unit === QUOTE ||
    unit === BACKSLASH ||
    unit === 0x2f ||
    unit === 0x62 ||
    unit === 0x66 ||
    unit === 0x6e ||
    unit === 0x72 ||
    unit === 0x74
  );
}
