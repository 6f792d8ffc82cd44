// Smoke run of the node-sqlite example (run by scripts/test-runtimes.sh after `npm ci` in this folder): the three
// modes give the same articles, `object` is byte-identical to the `array` mode's JSON.stringify, a client that
// leaves mid-stream does not hurt the server, and measure.mjs reports all three modes.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { lastJsonLine, ROOT, runToEnd, startServerProcess, type ServerProcess } from '../../tests/runtime/child.ts';

const HERE = join(ROOT, 'examples', 'node-sqlite');
const ROWS = 3000;
let server: ServerProcess;
let origin: string;

beforeAll(async () => {
  server = await startServerProcess(process.execPath, ['server.mjs', '--port', '0', '--rows', String(ROWS)], {
    cwd: HERE,
  });
  origin = server.origin;
});

afterAll(() => {
  server?.stop();
});

const body = async (mode: string) => {
  const response = await fetch(`${origin}/articles?mode=${mode}`);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return Buffer.from(await response.arrayBuffer());
};

test('raw, object and array give the same articles; object is byte-identical to array', async () => {
  const [raw, object, array] = [await body('raw'), await body('object'), await body('array')];
  const expected = JSON.parse(array.toString('utf8'));
  expect(expected.total).toBe(ROWS);
  expect(expected._embedded.articles).toHaveLength(ROWS);
  expect(Buffer.compare(object, array)).toBe(0);
  // SQLite writes numbers and escapes its own way: equal as values, not as bytes.
  expect(JSON.parse(raw.toString('utf8'))).toEqual(expected);
});

test('a client that leaves mid-stream leaves the server answering', async () => {
  const controller = new AbortController();
  const response = await fetch(`${origin}/articles?mode=raw`, { signal: controller.signal });
  await response.body!.getReader().read();
  controller.abort();
  const stats = await (await fetch(`${origin}/stats`)).json();
  expect(stats.maxRssBytes).toBeGreaterThan(0);
  expect(JSON.parse((await body('object')).toString('utf8')).total).toBe(ROWS);
});

test('measure.mjs reports rows/ms and peak RSS for every mode', async () => {
  const output = await runToEnd(process.execPath, ['measure.mjs', '--rows', String(ROWS)], {
    cwd: HERE,
    timeoutMs: 120_000,
  });
  const { results } = lastJsonLine(output) as {
    results: { mode: string; rows: number; rowsPerMs: number; peakRssMb: number }[];
  };
  expect(results.map((result) => [result.mode, result.rows])).toEqual([
    ['raw', ROWS],
    ['object', ROWS],
    ['array', ROWS],
  ]);
  for (const result of results) {
    expect(result.rowsPerMs).toBeGreaterThan(0);
    expect(result.peakRssMb).toBeGreaterThan(0);
  }
});
