// package.json "exports" as bundlers read it: resolve.exports (Vite, Astro) and others take the first condition that
// matches and do not fall back to a later key when its nested object matches nothing, as Node does. So every
// condition object must resolve for the conditions its own tool sets; `"node": { "require": ... }` alone failed
// Astro 5's Vite SSR build ("No known conditions for "." specifier in "sluice" package", tests/consumers/astro).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const exportsMap = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports;

type Target = string | { [condition: string]: Target } | undefined;

/** First matching key wins, no fallback (resolve.exports); 'types' skipped (not a runtime file). */
function firstMatch(target: Target, conditions: Set<string>): string | undefined {
  if (typeof target === 'string' || target === undefined) return target;
  for (const [key, value] of Object.entries(target)) {
    if (key !== 'types' && (key === 'default' || conditions.has(key))) return firstMatch(value, conditions);
  }
  return undefined;
}

const TOOLS: Record<string, string[]> = {
  'Vite SSR / Astro (ESM on Node)': ['node', 'import', 'module', 'development|production'],
  "a bundler's Node build (node, import)": ['node', 'import'],
  'Node require()': ['node', 'require'],
  'a browser bundle': ['browser', 'import', 'module'],
  'workerd / wrangler': ['workerd', 'worker', 'import', 'browser'],
  'Next.js Edge': ['edge-light', 'worker', 'import', 'browser'],
};

test.each(Object.entries(TOOLS))('"." resolves to a file for %s', (_tool, conditions) => {
  const file = firstMatch(exportsMap['.'], new Set(conditions));
  expect(file).toMatch(/^\.\/dist\/.+\.js$/);
  expect(existsSync(join(ROOT, file as string))).toBe(true);
});
