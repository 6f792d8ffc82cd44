// What bundlers see in the shipped modules: webpack, Turbopack, Parcel and Vite take every
// `new URL('<literal>', import.meta.url)` for an asset to emit, and fail the build when it names no file (Next.js 16
// on './': "Module not found: Can't resolve './'", both bundlers). Each one in dist/ must name a file that exists;
// the consumer projects (tests/consumers/nextjs) prove the build itself.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PATTERN = /new URL\(\s*(['"`])([^'"`$]*)\1\s*,\s*import\.meta\.url\s*\)/g;

function modules(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return modules(path);
    return /\.m?js$/.test(entry.name) ? [path] : [];
  });
}

test('every new URL(literal, import.meta.url) in dist/ names a shipped file', () => {
  const found: string[] = [];
  const broken: string[] = [];
  for (const file of modules(join(ROOT, 'dist'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(PATTERN)) {
      const target = join(dirname(file), match[2]);
      const where = `${relative(ROOT, file)}: new URL('${match[2]}', import.meta.url)`;
      found.push(where);
      let isFile = false;
      try {
        isFile = statSync(target).isFile();
      } catch {}
      if (!isFile) broken.push(where);
    }
  }
  // The parser's and the lazy index's .wasm, SIMD and scalar, at the least.
  expect(found.filter((where) => where.includes('.wasm')).length).toBeGreaterThanOrEqual(4);
  expect(broken).toEqual([]);
});
