// The datasets: a deterministic generator (the same bytes everywhere) and the named ones, made on first use in data/.
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { article, random } from './articles.mjs';

export const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'data');

/** The datasets of `npm run bench:parse`: where their elements are and how each element is touched. */
export const DATASETS = {
  articles: { kind: 'articles', count: 250_000, path: '$._embedded.articles[*]', field: 'id' },
  numbers: { kind: 'numbers', count: 5_000_000, path: '$[*]', field: null },
  // Opt-in (`--dataset bigints`): the cost of options.integers where every element is past 2^53.
  bigints: { kind: 'bigints', count: 1_000_000, path: '$[*]', field: null, optIn: true },
};

/** Each kind: what it is, and its COUNT elements with their framing (`[open, separator, close]`). */
export const KINDS = {
  articles: {
    what: 'the Symfony example: {"_embedded":{"articles":[ARTICLE...]},"total":COUNT}, about 418 bytes an article',
    element: (r, i) => JSON.stringify(article(r, i)),
    frame: (count) => ['{"_embedded":{"articles":[', ',', `]},"total":${count}}`],
  },
  numbers: {
    what: 'a top-level array of numbers: integers, decimals, exponents, negatives (like canada.json), ~11 bytes each',
    element: ({ rand, int }) => {
      const r = rand();
      if (r < 0.3) return String(int(-1e6, 1e6));
      if (r < 0.8) return String(Math.round((rand() - 0.5) * 1e9) / 1e6);
      if (r < 0.9) return `${(rand() * 9 + 1).toFixed(int(1, 15))}e${int(-300, 300)}`;
      return String(-(rand() * 180))
        .slice(0, int(4, 20))
        .replace(/\.$/, '.5');
    },
  },
  bigints: {
    what: 'a top-level array of integers of 17 to 20 digits, a third negative (past 2^53, like 64-bit ids)',
    element: ({ rand }) => {
      let digits = String(1 + Math.floor(rand() * 9));
      for (let n = 16 + Math.floor(rand() * 4); n > 0; n--) digits += Math.floor(rand() * 10);
      return rand() < 1 / 3 ? `-${digits}` : digits;
    },
  },
};

export async function writeDataset(kind, count, file, seed = 42) {
  const out = file ? createWriteStream(file) : process.stdout;
  const r = random(seed);
  const { element, frame = () => ['[', ',', ']'] } = KINDS[kind];
  const [open, separator, close] = frame(count);
  let text = open;
  for (let i = 0; i < count; i++) {
    text += (i ? separator : '') + element(r, i);
    if (text.length >= 1 << 20) {
      if (!out.write(text)) await once(out, 'drain');
      text = '';
    }
  }
  out.write(text + close);
  if (file) await once(out.end(), 'close');
}

export const datasetFile = (kind, count) => join(DATA_DIR, `${kind}-${count}.json`);

/** The path of `KIND COUNT`, generated first when missing (under a temporary name: never a truncated file). */
export async function ensureDataset(kind, count, { log = () => {} } = {}) {
  const file = datasetFile(kind, count);
  if (existsSync(file)) return file;
  mkdirSync(DATA_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  log(`generating ${kind} ${count} -> ${file}`);
  await writeDataset(kind, count, partial).catch((error) => {
    rmSync(partial, { force: true });
    throw error;
  });
  renameSync(partial, file);
  return file;
}

export const fileSize = (file) => statSync(file).size;
