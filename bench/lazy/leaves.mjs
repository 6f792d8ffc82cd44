// Which leaf values a run reads: every k-th leaf (a scalar, or an empty object or array) in document order, k =
// round(1 / fraction), the first one included. Deterministic, spread over the whole document, and the same for
// every competitor. Computed outside the clock from a JSON.parse of the document.

/** The paths (arrays of keys and indices) of the chosen leaves, in document order. */
export function chooseLeaves(root, fraction) {
  const step = Math.max(1, Math.round(1 / fraction));
  const out = [];
  let n = 0;
  const path = [];
  const walk = (value) => {
    const container = typeof value === 'object' && value !== null;
    const keys = container ? (Array.isArray(value) ? null : Object.keys(value)) : null;
    const size = !container ? 0 : keys === null ? value.length : keys.length;
    if (size === 0) {
      if (n++ % step === 0) out.push(path.slice());
      return;
    }
    for (let i = 0; i < size; i++) {
      const key = keys === null ? i : keys[i];
      path.push(key);
      walk(value[key]);
      path.pop();
    }
  };
  walk(root);
  return { paths: out, leaves: n };
}

/** What a run sums over the leaves it read: numbers, string lengths, 1 for true; the runs must agree. */
export function leafValue(value) {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.length;
  if (value === true) return 1;
  if (typeof value === 'object' && value !== null)
    return Array.isArray(value) ? value.length : Object.keys(value).length;
  return 0;
}

/** `$.a[3]["b c"]`: a path in the JSONPath subset, for APIs that take one. */
export function jsonPath(path) {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}
