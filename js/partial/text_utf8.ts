// Text pushed as strings, measured as the native parser counts it: in the UTF-8 TextEncoder writes for it (a lone
// surrogate as U+FFFD), so that the partial parser's errors carry the native offsets and offending bytes.

/** @internal Whether a UTF-16 unit is a high surrogate (the first half of a pair). */
export function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

type WellFormed = { isWellFormed?(): boolean; toWellFormed?(): string };

/** @internal Lone surrogates become U+FFFD, as TextEncoder (and so the native parser) encodes them. */
export function wellFormed(text: string): string {
  // Most texts hold no surrogate at all: the scan costs less than the call.
  let i = 0;
  for (const n = text.length; i < n; i++) if ((text.charCodeAt(i) & 0xf800) === 0xd800) break;
  if (i === text.length) return text;
  const s = text as WellFormed;
  if (typeof s.isWellFormed === 'function') return s.isWellFormed() ? text : s.toWellFormed!();
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** @internal UTF-8 bytes of text[0 .. end) (well-formed text). */
export function utf8Length(text: string, end: number): number {
  let bytes = end;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) bytes += c < 0x800 || (c & 0xf800) === 0xd800 ? 1 : 2;
  }
  return bytes;
}

/** @internal The first UTF-8 byte of the character at text[i], as error messages show it. */
export function leadByte(text: string, i: number): number {
  const c = text.codePointAt(i)!;
  if (c < 0x80) return c;
  if (c < 0x800) return 0xc0 | (c >> 6);
  if (c < 0x10000) return 0xe0 | (c >> 12);
  return 0xf0 | (c >> 18);
}
