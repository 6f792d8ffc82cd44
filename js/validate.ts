// Shared by every API's option and argument checks: how a value is named in a TypeError's message.

/** @internal Names a value's type for an error message: `null`, `number`, `Array`, `Uint16Array`, `object`... */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'Array';
  if (typeof value !== 'object') return typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : 'object';
}

/** @internal Names a value for an error message: strings quoted, numbers and booleans as written, else its type. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return describeType(value);
}
