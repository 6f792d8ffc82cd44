// Strict structural comparison of parsed JSON values. Stricter than expect().toEqual where it matters here: key
// order (JSON.parse's order is observable), prototypes (an own `__proto__` key must not become the prototype),
// and -0. Returns a short description of the first difference, or null; cheap enough for thousands of documents.

/** @returns {string | null} */
export function firstDifference(actual, expected, path = '$') {
  if (Object.is(actual, expected)) return null;
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null) {
    return `${path}: ${describe(actual)} !== ${describe(expected)}`;
  }
  if (Array.isArray(actual) !== Array.isArray(expected)) return `${path}: array vs non-array`;
  if (actual instanceof Uint8Array || expected instanceof Uint8Array) {
    if (!(actual instanceof Uint8Array && expected instanceof Uint8Array)) return `${path}: bytes vs non-bytes`;
    if (actual.length !== expected.length) return `${path}: ${actual.length} bytes, expected ${expected.length}`;
    const at = actual.findIndex((byte, i) => byte !== expected[i]);
    return at < 0 ? null : `${path}: byte ${at} is ${actual[at]}, expected ${expected[at]}`;
  }
  if (Object.getPrototypeOf(actual) !== Object.getPrototypeOf(expected)) return `${path}: different prototypes`;
  const actualKeys = Reflect.ownKeys(actual);
  const expectedKeys = Reflect.ownKeys(expected);
  if (actualKeys.length !== expectedKeys.length || actualKeys.some((key, i) => key !== expectedKeys[i])) {
    return `${path}: keys ${JSON.stringify(actualKeys.map(String))} !== ${JSON.stringify(expectedKeys.map(String))}`;
  }
  for (const key of expectedKeys) {
    if (Array.isArray(expected) && key === 'length') continue;
    const difference = firstDifference(actual[key], expected[key], `${path}[${JSON.stringify(String(key))}]`);
    if (difference !== null) return difference;
  }
  return null;
}

function describe(value) {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 60) + '…' : value);
  if (Object.is(value, -0)) return '-0';
  return String(value);
}
