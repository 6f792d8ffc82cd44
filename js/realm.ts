// Type checks that hold across realms. A value made in an iframe, a worker's transfer or a `vm` context (Next.js runs
// its Edge routes in one) has its own realm's constructors, so `instanceof` of ours is false for a real
// WebAssembly.Module, ArrayBuffer, Uint8Array, Response or ReadableStream. These check the internal slot where a
// platform function does (a brand check that throws otherwise), or the built-in tag, then the shape we use.
// `instanceof` first: the common case, and the fastest.

const toStringOf = Object.prototype.toString;
// Throws unless `this` is an ArrayBuffer of any realm (a SharedArrayBuffer has its own getter).
const arrayBufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')!.get!;

/** @internal The built-in tag: `[object Uint8Array]`, `[object WebAssembly.Module]`, ... */
export function tagOf(value: unknown): string {
  return toStringOf.call(value);
}

/** @internal A Uint8Array (a Node Buffer too) of any realm. */
export function isUint8Array(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array || (ArrayBuffer.isView(value) && tagOf(value) === '[object Uint8Array]');
}

/** @internal An ArrayBuffer of any realm (not a SharedArrayBuffer). */
export function isArrayBuffer(value: unknown): value is ArrayBuffer {
  if (value instanceof ArrayBuffer) return true;
  if (typeof value !== 'object' || value === null) return false;
  try {
    arrayBufferByteLength.call(value);
    return true;
  } catch {
    return false;
  }
}

/** @internal A compiled WebAssembly.Module of any realm. */
export function isWasmModule(value: unknown): value is WebAssembly.Module {
  if (typeof WebAssembly !== 'object') return false;
  if (value instanceof WebAssembly.Module) return true;
  if (tagOf(value) !== '[object WebAssembly.Module]') return false;
  try {
    // Checks the internal slot, whatever the realm: a plain object with the tag throws.
    WebAssembly.Module.exports(value as WebAssembly.Module);
    return true;
  } catch {
    return false;
  }
}

/** @internal A `URL` of any realm. */
export function isUrl(value: unknown): value is URL {
  if (typeof URL === 'function' && value instanceof URL) return true;
  return tagOf(value) === '[object URL]' && typeof (value as URL).href === 'string';
}

/** @internal A ReadableStream of any realm or polyfill: what we call of it, getReader(). */
export function isReadableStream(value: unknown): value is ReadableStream {
  return typeof value === 'object' && value !== null && typeof (value as ReadableStream).getReader === 'function';
}

/** @internal A `Response` of any realm or polyfill: it has a body and can read it. */
export function isResponse(value: unknown): value is Response {
  if (typeof value !== 'object' || value === null) return false;
  if (typeof Response === 'function' && value instanceof Response) return true;
  return 'body' in value && typeof (value as Response).arrayBuffer === 'function' && 'headers' in value;
}
