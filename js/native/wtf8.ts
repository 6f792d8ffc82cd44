// Writes a JS string as the bytes a member key (lazyParse) or a path (the parser's selectors) is compared with:
// UTF-8, except that a lone surrogate becomes its own 3-byte sequence (WTF-8), which no valid document's raw key
// holds, as the core decodes `\uD800`. TextEncoder would turn it into U+FFFD and match a raw key holding a real
// U+FFFD.

let scratch = new Uint8Array(64);

/** @internal Writes `key` as WTF-8 into a scratch buffer it returns (valid until the next call); `n[0]` its length. */
export function keyBytes(key: string, n: [number]): Uint8Array {
  // At most 3 bytes per UTF-16 unit (a surrogate pair is 2 units and 4 bytes).
  if (3 * key.length > scratch.length) scratch = new Uint8Array(3 * key.length);
  const u8 = scratch;
  n[0] = writeKey(u8, key);
  return u8;
}

function writeKey(u8: Uint8Array, key: string): number {
  const n = key.length;
  let at = 0;
  for (let i = 0; i < n; i++) {
    let c = key.charCodeAt(i);
    if (c < 0x80) {
      u8[at++] = c;
    } else if (c < 0x800) {
      u8[at++] = 0xc0 | (c >> 6);
      u8[at++] = 0x80 | (c & 0x3f);
    } else {
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const low = key.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          i++;
          u8[at++] = 0xf0 | (c >> 18);
          u8[at++] = 0x80 | ((c >> 12) & 0x3f);
          u8[at++] = 0x80 | ((c >> 6) & 0x3f);
          u8[at++] = 0x80 | (c & 0x3f);
          continue;
        }
      }
      u8[at++] = 0xe0 | (c >> 12);
      u8[at++] = 0x80 | ((c >> 6) & 0x3f);
      u8[at++] = 0x80 | (c & 0x3f);
    }
  }
  return at;
}
