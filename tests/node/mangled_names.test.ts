// The naming convention scripts/mangle_props.mjs applies (HACKING.md, "What dist/ ships"): a property name ending in
// `_` is internal and shortened in dist/. So the build must leave none of them in dist/, and tests and benchmarks
// must name none of them (they run on dist/, where such a name reads undefined): what dist/ holds follows from js/
// alone, never from what a test happens to read.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function files(dir: string, test: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'data' || name === 'results') return [];
    return statSync(path).isDirectory() ? files(path, test) : test(name) ? [path] : [];
  });
}

/** `.name_` and `name_:` / `name_(` members, outside strings and comments (a rough scan, enough for both trees). */
function suffixedProperties(text: string): string[] {
  const code = text
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""');
  return [...code.matchAll(/(?:\?\.|\.)\s*([A-Za-z$][\w$]*_)(?![\w$])/g)].map((m) => m[1]!);
}

test('dist/ holds no property name ending in _: the build shortened them all', () => {
  const left = files(join(ROOT, 'dist'), (name) => /\.(c?js)$/.test(name)).flatMap((path) =>
    suffixedProperties(readFileSync(path, 'utf8')).map((name) => `${relative(ROOT, path)}: .${name}`),
  );
  expect(left).toEqual([]);
});

test('tests/ and bench/ read no property name ending in _ (internal names, shortened in dist/)', () => {
  const read = ['tests', 'bench'].flatMap((dir) =>
    // This file's own last test names some, on purpose.
    files(join(ROOT, dir), (name) => /\.(m?[jt]s)$/.test(name) && name !== 'mangled_names.test.ts').flatMap((path) =>
      suffixedProperties(readFileSync(path, 'utf8')).map((name) => `${relative(ROOT, path)}: .${name}`),
    ),
  );
  expect(read).toEqual([]);
});

test('the scan finds a suffixed name where there is one (the two tests above can fail)', () => {
  expect(suffixedProperties("this.pending_ = 1; o?.next_(); x.plain; 'a.quoted_'; // c.comment_")).toEqual([
    'pending_',
    'next_',
  ]);
});
