// The ways of reading some leaves of a buffered document that bench:lazy compares. Each gets the document as one
// Uint8Array (as a fetch or a file read gives it) and the chosen leaf paths; it returns the checksum of the leaves
// it read (leaves.mjs). setup() runs before the clock: module loading and wasm init only.
import { readFileSync } from 'node:fs';
import { leafValue, jsonPath } from '../lazy/leaves.mjs';

const DIST = new URL('../../dist/', import.meta.url);
const decoder = new TextDecoder();

async function loadSluice() {
  const sluice = await import(new URL('index.js', DIST).href);
  await sluice.init(readFileSync(new URL('sluice.simd.wasm', DIST)));
  return sluice;
}

/**
 * The second access pattern: walk the whole structure as a consumer iterating it would (for...of over arrays,
 * Object.keys over objects, each inner container held while its members are read) and use every `step`-th leaf
 * in document order (the same leaves, in the same order, as the paths of chooseLeaves). Walking touches every
 * member to find the leaves, so it only means something for the denser fractions.
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

/** Fractions the walking rows run at (at 1 % a walk still touches every member: no access pattern to speak of). */
const WALK_FRACTIONS = [0.1, 1];

function readPath(root, path) {
  let value = root;
  for (let i = 0; i < path.length; i++) value = value[path[i]];
  return value;
}

/** The checksum of the leaves at `paths`, read from the root of `doc`. */
function fromRoot(doc, paths) {
  let sum = 0;
  for (const path of paths) sum += leafValue(readPath(doc, path));
  return sum;
}

export const COMPETITORS = [
  {
    id: 'lazyparse',
    label: 'sluice lazyParse (simd), property access',
    async setup() {
      const { lazyParse } = await loadSluice();
      return ({ input, paths }) => fromRoot(lazyParse(input), paths);
    },
  },
  {
    id: 'json-parse',
    label: 'JSON.parse (TextDecoder + JSON.parse, whole)',
    async setup() {
      return ({ input, paths }) => fromRoot(JSON.parse(decoder.decode(input)), paths);
    },
  },
  {
    id: 'lazyparse-walk',
    label: 'sluice lazyParse (simd), walking',
    walk: true,
    fractions: WALK_FRACTIONS,
    async setup() {
      const { lazyParse } = await loadSluice();
      return ({ input, step }) => walkLeaves(lazyParse(input), step);
    },
  },
  {
    id: 'json-parse-walk',
    label: 'JSON.parse (whole), walking',
    walk: true,
    fractions: WALK_FRACTIONS,
    async setup() {
      return ({ input, step }) => walkLeaves(JSON.parse(decoder.decode(input)), step);
    },
  },
  {
    // Only where the document is one big array of records: every record is materialised (that is what
    // parseJsonArray does), and the chosen leaves under the array are read from them. Leaves outside the array
    // (a handful of metadata fields) are not read by this row.
    id: 'parsejsonarray',
    label: 'sluice parseJsonArray (simd) over the record array',
    arrayPath: true,
    async setup() {
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
        for await (const element of parseJsonArray(input, { path: jsonPath(arrayPath) + '[*]' })) {
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
    async setup() {
      const sluice = await loadSluice();
      if (typeof sluice.openJson !== 'function') return null;
      return async ({ input, paths }) => {
        const doc = sluice.openJson(input);
        let sum = 0;
        for (const path of paths) sum += leafValue(await doc.get(jsonPath(path)));
        return sum;
      };
    },
  },
];

/** Whether dist/index.js exports openJson (the stream half of the issue, built separately). */
export async function openJsonAvailable() {
  const sluice = await import(new URL('index.js', DIST).href);
  return typeof sluice.openJson === 'function';
}
