// The JSON results the renderer reads: one file per kind, written by the benchmarks into bench/results/ as
// KIND-DATE.json. By default the newest of each kind; run_all passes the files of its own run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export const KINDS = ['parse', 'stringify', 'browser', 'engines', 'ceiling-browser', 'ceiling-engines', 'sizes'];

export function kindOf(file) {
  const kind = /^([a-z]+(?:-[a-z]+)*)-\d{4}-/.exec(basename(file))?.[1];
  return KINDS.includes(kind) ? kind : null;
}

/** The newest file of each kind in `dir` (names sort by date). */
export function newestResults(dir) {
  const newest = {};
  if (!existsSync(dir)) return newest;
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const kind = kindOf(name);
    if (kind) newest[kind] = join(dir, name);
  }
  return newest;
}

/** `{ kind: { file, data } }` for each file given (a later file of a kind replaces an earlier one). */
export function loadResults(files) {
  const loaded = {};
  for (const file of files) {
    const kind = kindOf(file);
    if (!kind) throw new Error(`render: ${file} is not a KIND-DATE.json result (KIND: ${KINDS.join(', ')})`);
    loaded[kind] = { file, data: JSON.parse(readFileSync(file, 'utf8')) };
  }
  return loaded;
}
