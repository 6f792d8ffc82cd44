// The benchmark datasets, generated on demand into bench/data/ (gitignored) by bench/gen-dataset.mjs, so a fresh
// clone needs nothing but Node to reproduce the exact bytes every benchmark and the demo measure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const DATA_DIR = join(BENCH_DIR, 'data');
const GENERATOR = join(BENCH_DIR, 'gen-dataset.mjs');

/** The datasets of `npm run bench:parse`: where their elements are and how each element is touched. */
export const DATASETS = {
  articles: { kind: 'articles', count: 250_000, path: '$._embedded.articles[*]', field: 'id' },
  numbers: { kind: 'numbers', count: 5_000_000, path: '$[*]', field: null },
  // Opt-in (`--dataset bigints`): the cost of options.integers where every element is past 2^53.
  bigints: { kind: 'bigints', count: 1_000_000, path: '$[*]', field: null, optIn: true },
};

export function datasetFile(kind, count) {
  return join(DATA_DIR, `${kind}-${count}.json`);
}

/**
 * Returns the path of `KIND COUNT`, generating it first when missing. The generator writes to a temporary name
 * that is renamed at the end, so an interrupted run never leaves a truncated file that later runs would trust.
 */
export async function ensureDataset(kind, count, { log = () => {} } = {}) {
  const file = datasetFile(kind, count);
  if (existsSync(file)) return file;
  mkdirSync(DATA_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  log(`generating ${kind} ${count} -> ${file}`);
  const code = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GENERATOR, kind, String(count), partial], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (exitCode, signal) => resolve(signal ? 128 : exitCode));
  });
  if (code !== 0) {
    rmSync(partial, { force: true });
    throw new Error(`gen-dataset.mjs ${kind} ${count} failed with exit code ${code}`);
  }
  renameSync(partial, file);
  return file;
}

export function fileSize(file) {
  return statSync(file).size;
}
