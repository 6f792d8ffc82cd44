// Results files (bench/results/KIND-DATE.json, what bench/harness/render reads) and the documents' generated blocks.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

export function writeResults(sub, files) {
  const dir = sub ? `${RESULTS_DIR}${sub}/` : RESULTS_DIR;
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(dir + name, text);
  return dir;
}

export const readResult = (name) =>
  existsSync(RESULTS_DIR + name) ? readFileSync(RESULTS_DIR + name, 'utf8').trim() : undefined;

export function finish(kind, results, problems) {
  const name = `${kind}-${results.date.replace(/:/g, '-').replace(/\..*/, '')}.json`;
  console.log(`\nJSON results: ${writeResults('', { [name]: `${JSON.stringify(results, null, 2)}\n` }) + name}`);
  if (problems) {
    console.error(`${kind}: ${problems} problem(s) above`);
    process.exitCode = 1;
  }
}

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
