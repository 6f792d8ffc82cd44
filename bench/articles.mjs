// The articles dataset's rows (datasets.mjs, byte for byte) in any engine (pages load this file), and writers' rows.

const WORDS = (
  'stream json edge worker array value chunk memory fast simd parser encoder response fetch browser ' +
  'article title description more text data list'
).split(' ');
const SPICE =
  'café|naïve|élan|中文|日本語|Ωmega|😀|🚀|über|São Paulo|quote "q"|back\\slash|tab\there|line\nbreak|ctrl\u0001|é'.split(
    '|',
  );

/** xorshift32 from `seed`: tiny, fast, identical everywhere. */
export function random(seed = 42) {
  let state = seed >>> 0 || 1;
  const rand = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const sentence = (minLen, maxLen) => {
    const target = int(minLen, maxLen);
    let s = '';
    while (s.length < target) s += (s ? ' ' : '') + (rand() < 0.12 ? pick(SPICE) : pick(WORDS));
    return s;
  };
  return { rand, pick, int, sentence };
}

/** Article `i` (0-based), drawing from `r` (random()): the generator's sequence when called for i = 0, 1, 2... */
export function article(r, i) {
  const day = 1 + (i % 28);
  return {
    id: i + 1,
    title: `Article ${i + 1}: ${r.sentence(10, 40)}`,
    description: `Description ${i + 1}\n${r.sentence(100, 300)}`,
    createdAt: `2026-0${1 + (i % 9)}-${String(day).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00:00Z`,
    tags: [r.pick(WORDS), r.pick(WORDS), r.pick(WORDS)],
    score: Math.round(r.rand() * 1e6) / 100,
    published: r.rand() < 0.8,
  };
}

// Building an article costs more than encoding it: rows are fresh objects sharing the flat strings of a pool's.
const POOL_SIZE = 4096;
let pool;

export function preparePool() {
  if (pool === undefined) {
    const r = random();
    // JSON.parse returns flat strings, as a driver decoding a wire format does.
    pool = Array.from({ length: POOL_SIZE }, (_, i) => JSON.parse(JSON.stringify(article(r, i))));
  }
}

export function articleRow(i) {
  const t = pool[i % POOL_SIZE];
  return {
    id: i + 1,
    title: t.title,
    description: t.description,
    createdAt: t.createdAt,
    tags: [t.tags[0], t.tags[1], t.tags[2]],
    score: t.score,
    published: t.published,
  };
}

export function articleArray(count) {
  preparePool();
  const rows = new Array(count);
  for (let i = 0; i < count; i++) rows[i] = articleRow(i);
  return rows;
}

/** A sync generator of `count` rows, each built when asked for; `onFirstRow()` when the first is handed out. */
export function* articleGenerator(count, onFirstRow) {
  preparePool();
  if (count > 0) onFirstRow?.();
  for (let i = 0; i < count; i++) yield articleRow(i);
}

export async function* articleAsyncGenerator(count, onFirstRow) {
  preparePool();
  if (count > 0) onFirstRow?.();
  for (let i = 0; i < count; i++) yield articleRow(i);
}
