// An event's envelope read without JSON.parse. A provider repeats the same JSON around every delta (OpenAI Chat
// Completions: ids, model, fingerprint, about 250 bytes around 5 characters): once one event's data is known as
// head + "delta" + tail, the next data of that form is the same value with another string at that place. Exact:
// JSON lets any string token stand where one stood without changing how the rest reads, so JSON.parse of the
// new data equals the old value with the slot rewritten; the slot is proven to be the one the path reads by
// parsing the envelope once with a marker there. Any other data (not that head and tail, a slot that is not a
// string token exactly) goes to JSON.parse.
// Its exports are for openai_chat.ts and tests/node/model_envelope.test.ts; index.ts does not re-export them.

/** A string nowhere in the data the envelope is made of (checked), in the slot while the envelope is proven. */
const MARKER = '\u0001';
const MARKER_TOKEN = '"\\u0001"';
/** From the key's closing quote: the colon, then the slot's string token (any escape: JSON.parse checks it). */
const MEMBER = /"[ \t\n\r]*:[ \t\n\r]*("(?:[^"\\]|\\.)*")/y;
// A JSON string token (RFC 8259): no raw control character, quote or backslash but in one of its escapes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters a JSON string cannot hold raw
const PLAIN = /^"[^"\\\u0000-\u001f]*"$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const ESCAPED = /^"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[\dA-Fa-f]{4})*"$/;

/** Where a value holds the string an envelope's slot reads: `holder_[key_]`. */
export interface Slot {
  readonly holder_: Record<string, unknown>;
  readonly key_: string;
}

/** One event's data as head + slot + tail, its value (rewritten at the slot for each match). */
export interface Envelope {
  readonly head_: string;
  readonly tail_: string;
  /** JSON.parse of the data, owned here: the reader given it must keep no part of it. */
  readonly value_: unknown;
  readonly slot_: Slot;
}

/**
 * The envelope of `data` (`value` its JSON.parse), its slot the string that `find` locates in a value,
 * or null if that string's token is not found or not proven.
 */
export function envelopeOf(data: string, value: unknown, find: (value: unknown) => Slot | null): Envelope | null {
  const slot = find(value);
  if (slot === null || typeof slot.holder_[slot.key_] !== 'string' || data.includes('\\u0001')) return null;
  // The slot's token: the string after the last `"key":` (the last duplicate is the one JSON.parse keeps).
  const at = data.lastIndexOf(`"${slot.key_}"`);
  if (at === -1) return null;
  MEMBER.lastIndex = at + slot.key_.length + 1;
  const member = MEMBER.exec(data);
  if (member === null) return null;
  const end = MEMBER.lastIndex;
  const start = end - member[1]!.length;
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
 * JSON.parse of `data` if it is `envelope`'s head, a JSON string token and its tail: the envelope's
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

/** The value of `data.slice(from, to)` if it is exactly one JSON string token, else `undefined`. */
export function stringToken(data: string, from: number, to: number): string | undefined {
  const token = data.slice(from, to);
  if (PLAIN.test(token)) return token.slice(1, -1);
  // Checked: JSON.parse of the token cannot throw, and decodes its escapes.
  return ESCAPED.test(token) ? (JSON.parse(token) as string) : undefined;
}
