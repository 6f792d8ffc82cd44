// The ways of reading some leaves of a buffered document that bench:lazy compares, and which leaves a run reads.
// Each reader gets the document as one Uint8Array (as a fetch or a file read gives it) and the chosen leaf paths; it
// returns the checksum of the leaves it read. setup() runs before the clock: module loading and wasm init only.
import { readFileSync } from 'node:fs';

const DIST = new URL('../../dist/', import.meta.url);
const decoder = new TextDecoder();

/**
 * The leaves a run reads: every k-th leaf (a scalar, or an empty object or array) in document order, k =
 * round(1 / fraction), the first one included; deterministic, spread over the whole document, the same for every
 * reader. Their paths (arrays of keys and indices), in document order, from a JSON.parse of the document.
 */
export function chooseLeaves(root, fraction) {
  const step = Math.max(1, Math.round(1 / fraction));
  const out = [];
  let n = 0;
  const path = [];
  const walk = (value) => {
    const keys = typeof value === 'object' && value !== null ? Object.keys(value) : [];
    if (keys.length === 0 && n++ % step === 0) out.push(path.slice());
    for (const key of keys) {
      path.push(Array.isArray(value) ? Number(key) : key);
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
function jsonPath(path) {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

export function readPath(root, path) {
  let value = root;
  for (let i = 0; i < path.length; i++) value = value[path[i]];
  return value;
}

async function loadSluice() {
  const sluice = await import(new URL('index.js', DIST).href);
  await sluice.init(readFileSync(new URL('sluice.simd.wasm', DIST)));
  return sluice;
}

/**
 * The second access pattern: walk the whole structure as a consumer iterating it would (for...of over arrays,
 * Object.keys over objects, each inner container held while its members are read) and use every `step`-th leaf
 * in document order (the same leaves, in the same order, as chooseLeaves'). Walking touches every member to find
 * the leaves, so it only means something for the denser fractions.
 */
function walkLeaves(root, step) {
  let n = 0;
  let sum = 0;
  const walk = (value) => {
    if (typeof value !== 'object' || value === null) {
      if (n++ % step === 0) sum += leafValue(value);
      return;
    }
    let empty = true;
    if (Array.isArray(value)) {
      for (const item of value) {
        empty = false;
        walk(item);
      }
    } else {
      for (const key of Object.keys(value)) {
        empty = false;
        walk(value[key]);
      }
    }
    if (empty && n++ % step === 0) sum += leafValue(value);
  };
  walk(root);
  return sum;
}

/** The checksum of the leaves at `paths`, read from the root of `doc`. */
function fromRoot(doc, paths) {
  let sum = 0;
  for (const path of paths) sum += leafValue(readPath(doc, path));
  return sum;
}

// Fractions the walking rows run at (at 1 % a walk still touches every member: no access pattern to speak of).
const walking = { walk: true, fractions: [0.1, 1] };

export const COMPETITORS = [
  {
    id: 'lazyparse',
    label: 'sluice lazyParse (simd), property access',
    setup: async () => {
      const { lazyParse } = await loadSluice();
      return ({ input, paths }) => fromRoot(lazyParse(input), paths);
    },
  },
  {
    id: 'json-parse',
    label: 'JSON.parse (TextDecoder + JSON.parse, whole)',
    setup:
      async () =>
      ({ input, paths }) =>
        fromRoot(JSON.parse(decoder.decode(input)), paths),
  },
  {
    id: 'lazyparse-walk',
    label: 'sluice lazyParse (simd), walking',
    ...walking,
    setup: async () => {
      const { lazyParse } = await loadSluice();
      return ({ input, step }) => walkLeaves(lazyParse(input), step);
    },
  },
  {
    id: 'json-parse-walk',
    label: 'JSON.parse (whole), walking',
    ...walking,
    setup:
      async () =>
      ({ input, step }) =>
        walkLeaves(JSON.parse(decoder.decode(input)), step),
  },
  {
    // Only where the document is one big array of records: every record is materialised (that is what
    // parseJsonArray does), and the chosen leaves under the array are read from them. Leaves outside the array
    // (a handful of metadata fields) are not read by this row.
    id: 'parsejsonarray',
    label: 'sluice parseJsonArray (simd) over the record array',
    arrayPath: true,
    setup: async () => {
      const { parseJsonArray } = await loadSluice();
      return async ({ input, paths, arrayPath }) => {
        const depth = arrayPath.length;
        const byIndex = new Map();
        for (const path of paths) {
          if (path.length <= depth || arrayPath.some((key, i) => path[i] !== key)) continue;
          const index = path[depth];
          let list = byIndex.get(index);
          if (list === undefined) byIndex.set(index, (list = []));
          list.push(path.slice(depth + 1));
        }
        let sum = 0;
        let index = 0;
        for await (const element of parseJsonArray(input, { path: `${jsonPath(arrayPath)}[*]` })) {
          const wanted = byIndex.get(index++);
          if (wanted !== undefined) for (const rest of wanted) sum += leafValue(readPath(element, rest));
        }
        return sum;
      };
    },
  },
  {
    id: 'openjson',
    label: 'sluice openJson (simd), get(path) per leaf',
    setup: async () => {
      const { openJson } = await loadSluice();
      return async ({ input, paths }) => {
        const doc = openJson(input);
        let sum = 0;
        for (const path of paths) sum += leafValue(await doc.get(jsonPath(path)));
        return sum;
      };
    },
  },
];
