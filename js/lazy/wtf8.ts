// Writes a JS string as the bytes the native side compares member keys with: UTF-8, except that a lone surrogate
// becomes its own 3-byte sequence (WTF-8), as the core decodes a `\uD800` escape. TextEncoder would turn it into
// U+FFFD and miss the key.
import type { LazyBinding } from './native_lazy.js';

/** @internal Writes `key` into the native key buffer; returns its length in bytes. */
export function writeKey(binding: LazyBinding, key: string): number {
  const n = key.length;
  // At most 3 bytes per UTF-16 unit (a surrogate pair is 2 units and 4 bytes).
  let address = binding.keyAddress;
  if (3 * n > binding.keyCapacity || address === 0) {
    const capacity = Math.max(64, 3 * n);
    address = binding.m._lazy_key_buffer(capacity);
    if (address === 0) throw new RangeError('sluice: out of memory for a member name');
    binding.keyAddress = address;
    binding.keyCapacity = capacity;
  }
  const runtime = binding.runtime;
  runtime.sync();
  const u8 = runtime.u8;
  let at = address;
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
  return at - address;
}
