// `sluice select --with-normalized-path` against createParser's withNormalizedPath (itself checked against the
// reference evaluator in query_stream_normalized.test.ts): queries of every kind (whole, `..` in arrival order, a
// tail, a window, a filter) over a document written compactly by JSON.stringify (so each element's compacted text is
// JSON.stringify of its value), large enough that member names are cut by read boundaries; NDJSON; --limit; and
// the refusals.
import { describe, expect, test } from 'vitest';
import { createParser } from '../../dist/index.js';
import { runCli } from './cli_run.js';

type Named = { path?: string; key?: unknown; value: unknown; normalizedPath: string };

/** What the library gives for `path` over `text`, as the lines the command line must write. */
function expectedLines(text: string, path: string, order: 'rfc' | 'arrival', options: object = {}): string {
  const parser = createParser({ path, order, withNormalizedPath: true, ...options });
  const records = [...parser.push(text), ...parser.end()] as Named[];
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** Names that need escapes in a normalized path, long ones so that read boundaries fall inside them. */
const NAMES = ["it's", 'back\\slash', 'tab\there', 'é', '\u0001', 'plain'];

function documentText(): string {
  const items = Array.from({ length: 3000 }, (_, i) => ({
    [`${NAMES[i % NAMES.length]}${'n'.repeat(200 + (i % 97))}`]: { id: i, tags: i % 3 === 0 ? ['a', 'b'] : [] },
    id: i,
  }));
  return JSON.stringify({ meta: { count: items.length }, items });
}

describe('select --with-normalized-path', () => {
  const text = documentText();

  test.each([
    ['$.items[*].id', 'rfc'],
    ['$.items[*].*.tags[*]', 'rfc'],
    ['$..tags', 'arrival'],
    ['$.items[*]..id', 'rfc'],
    ['$.items[-2:]', 'rfc'],
    ['$.items[?@.id > 2990].id', 'rfc'],
  ] as const)('%s, as createParser gives it', async (path, order) => {
    expect(text.length).toBeGreaterThan(3 * 256 * 1024);
    const result = await runCli(['select', path, '--with-normalized-path', '--order', order, '-'], { input: text });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const expected = expectedLines(text, path, order);
    expect(expected.length).toBeGreaterThan(0);
    expect(result.stdout).toBe(expected);
  });

  test('with --with-path, --limit and --ndjson', async () => {
    const withPath = await runCli(
      ['select', '$..tags', '--with-normalized-path', '--with-path', '--order', 'arrival', '--limit', '5', '-'],
      {
        input: text,
      },
    );
    const all = expectedLines(text, '$..tags', 'arrival', { withPath: true }).split('\n');
    expect(withPath.stdout).toBe(`${all.slice(0, 5).join('\n')}\n`);
    const lines = '{"a":[1,{"b":2}]}\n{"a":[3]}\n';
    const ndjson = await runCli(['select', '--ndjson', '$.a[*]', '$', '--with-normalized-path'], { input: lines });
    const parser = createParser({ paths: ['$.a[*]', '$'], ndjson: true, withNormalizedPath: true });
    const records = [...parser.push(lines), ...parser.end()] as Named[];
    expect(ndjson.stdout).toBe(
      records.map((r) => `${JSON.stringify({ value: r.value, normalizedPath: r.normalizedPath })}\n`).join(''),
    );
  });

  test('refused with --array, with --skip-invalid after a .., and beyond the marker limits', async () => {
    const array = await runCli(['select', '$[*]', '--array', '--with-normalized-path'], { input: '[]' });
    expect(array.code).toBe(2);
    expect(array.stderr).toContain('--array and --with-normalized-path cannot be used together');
    const skip = await runCli(
      ['select', '--ndjson', '--skip-invalid', '--order', 'arrival', '$..a', '--with-normalized-path'],
      { input: '{}' },
    );
    expect(skip.code).toBe(2);
    expect(skip.stderr).toContain('--with-normalized-path with .. cannot be used with --skip-invalid');
    const paths = Array.from({ length: 20 }, (_, i) => `$.a${i}[*].b`);
    const many = await runCli(['select', ...paths, '--with-normalized-path'], { input: '{}' });
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('--with-normalized-path needs 20 marker selectors');
  });
});
