// Smoke run of the Bun examples (run by scripts/test-runtimes.sh): main.ts streams a generated file and counts
// exactly its articles; serve.ts answers with a StreamedJsonResponse of as many articles as asked.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { articleDocument } from '../../tests/browser/dataset.ts';
import { BIN, lastJsonLine, ROOT, runToEnd, startServerProcess } from '../../tests/runtime/child.ts';

const dir = mkdtempSync(join(tmpdir(), 'sluice-bun-example-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('main.ts counts every article of a 5 MB file', async () => {
  const document = articleDocument(5e6);
  const file = join(dir, 'articles.json');
  writeFileSync(file, document.bytes);
  const output = await runToEnd(BIN('bun'), ['main.ts', file, '$._embedded.articles[*]'], {
    cwd: join(ROOT, 'examples', 'bun'),
  });
  const result = lastJsonLine(output);
  expect(result.count).toBe(document.elements.length);
  expect(result.runtime).toMatch(/^bun /);
});

test('serve.ts streams the articles asked for', async () => {
  const server = await startServerProcess(BIN('bun'), ['serve.ts', '0'], { cwd: join(ROOT, 'examples', 'bun') });
  try {
    const response = await fetch(`${server.origin}/articles?count=5000`);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = await response.json();
    expect(body.total).toBe(5000);
    expect(body._embedded.articles).toHaveLength(5000);
    expect(body._embedded.articles[4999]).toMatchObject({ id: 5000, title: 'Article 5000', tags: ['bun', 5000 % 7] });
  } finally {
    server.stop();
  }
});
