// bench:lazy's readers: `setup()` (modules, wasm) returns `run({ input, paths, step, arrayPath })` -> a checksum.
import { loadSluice } from '../harness/environment.mjs';

const decoder = new TextDecoder();

/** Every k-th leaf (a scalar, an empty object or array) in document order, k = round(1 / fraction): their paths. */
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
function leafValue(value) {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.length;
  if (value === true) return 1;
  if (typeof value === 'object' && value !== null)
    return Array.isArray(value) ? value.length : Object.keys(value).length;
  return 0;
}

function jsonPath(path) {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

function readPath(root, path) {
  let value = root;
  for (let i = 0; i < path.length; i++) value = value[path[i]];
  return value;
}

/** Walks the whole structure (for...of, Object.keys, each container held) and sums chooseLeaves' leaves on the way. */
function walkLeaves(root, { step }) {
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

export function fromRoot(doc, { paths }) {
  let sum = 0;
  for (const path of paths) sum += leafValue(readPath(doc, path));
  return sum;
}

// A walk touches every member: no access pattern to speak of at 1 %.
const walking = { fractions: [0.1, 1] };
const whole = (input) => JSON.parse(decoder.decode(input));
const reader = (id, label, read, extra = {}) => ({
  id,
  label,
  ...extra,
  async setup() {
    const sluice = label.startsWith('sluice') ? await loadSluice({ init: true }) : null;
    return (job) => read(sluice, job);
  },
});

/** The chosen leaves under the record array, read from each record as parseJsonArray delivers it. */
async function fromRecords({ parseJsonArray }, { input, paths, arrayPath }) {
  const depth = arrayPath.length;
  const byIndex = new Map();
  for (const path of paths) {
    if (path.length <= depth || arrayPath.some((key, i) => path[i] !== key)) continue;
    if (!byIndex.has(path[depth])) byIndex.set(path[depth], []);
    byIndex.get(path[depth]).push(path.slice(depth + 1));
  }
  let sum = 0;
  let index = 0;
  for await (const element of parseJsonArray(input, { path: `${jsonPath(arrayPath)}[*]` })) {
    const wanted = byIndex.get(index++);
    if (wanted !== undefined) for (const rest of wanted) sum += leafValue(readPath(element, rest));
  }
  return sum;
}

async function fromGets({ openJson }, { input, paths }) {
  const doc = openJson(input);
  let sum = 0;
  for (const path of paths) sum += leafValue(await doc.get(jsonPath(path)));
  return sum;
}

export const COMPETITORS = [
  reader('lazyparse', 'sluice lazyParse (simd), property access', (s, job) => fromRoot(s.lazyParse(job.input), job)),
  reader('json-parse', 'JSON.parse (TextDecoder + JSON.parse, whole)', (_, job) => fromRoot(whole(job.input), job)),
  reader(
    'lazyparse-walk',
    'sluice lazyParse (simd), walking',
    (s, job) => walkLeaves(s.lazyParse(job.input), job),
    walking,
  ),
  reader('json-parse-walk', 'JSON.parse (whole), walking', (_, job) => walkLeaves(whole(job.input), job), walking),
  // Where the document is one big array of records: every record materialised.
  reader('parsejsonarray', 'sluice parseJsonArray (simd) over the record array', fromRecords, { arrayPath: true }),
  reader('openjson', 'sluice openJson (simd), get(path) per leaf', fromGets),
];
