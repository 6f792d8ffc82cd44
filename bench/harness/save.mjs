// Results files (bench/results/KIND-DATE.json, what bench/harness/render reads) and the documents' generated blocks.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

export function saveResults(kind, results) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}${kind}-${results.date.replace(/:/g, '-').replace(/\..*/, '')}.json`;
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nJSON results: ${file}`);
  return file;
}

export function finish(kind, results, problems) {
  saveResults(kind, results);
  if (problems) {
    console.error(`${kind}: ${problems} problem(s) above`);
    process.exitCode = 1;
  }
}

/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` in FILE; false without them. */
export function renderBlock(file, name, body) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const doc = readFileSync(file, 'utf8');
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) return false;
  writeFileSync(file, `${doc.slice(0, a + start.length)}\n${body}\n${doc.slice(b)}`);
  return true;
}
