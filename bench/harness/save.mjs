// Writes a benchmark's results as bench/results/KIND-DATE.json (what bench/harness/render reads) and prints the line
// `JSON results: FILE`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

export function saveResults(kind, results) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}${kind}-${results.date.replace(/:/g, '-').replace(/\..*/, '')}.json`;
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nJSON results: ${file}`);
  return file;
}

/** Saves `results` as KIND-DATE.json; with problems, says so and sets the exit code to 1. */
export function finish(kind, results, problems) {
  saveResults(kind, results);
  if (problems) {
    console.error(`${kind}: ${problems} problem(s) above`);
    process.exitCode = 1;
  }
}
