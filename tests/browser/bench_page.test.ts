// A smoke run of the browser benchmark's page (bench/browser/page/runner.js) in each engine, so that the benchmark
// cannot rot between runs of `npm run bench`: its server, its competitor modules in memory and over a paced
// response, the --ceiling set's (the ceiling in both forms, bytes mode, the scan alone), and its stringify competitors
// load and agree on a 1 MB dataset. The peers (bench/node_modules) are not
// installed by `npm ci`: only the competitors without them run here. Timing is not looked at.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startBenchServer } from '../../bench/harness/bench_server.mjs';
import { describeEachEngine } from './each_engine.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COUNT = 2500;
let dir: string;
let bytes: number;
let server: { origin: string; close(): Promise<unknown> };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sluice-bench-page-'));
  const file = join(dir, `articles-${COUNT}.json`);
  execFileSync(process.execPath, [join(ROOT, 'bench/gen-dataset.mjs'), 'articles', String(COUNT), file]);
  bytes = statSync(file).size;
  server = await startBenchServer({ '1MB': { file } }, { paceMBps: 100, streamparser: false });
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const PARSE = { path: '$._embedded.articles[*]', field: 'id', chunkSize: 65536 };
const RUNS = [
  { mode: 'memory', competitor: 'sluice-simd', dataset: '/data/1MB.json', ...PARSE },
  { mode: 'memory', competitor: 'sluice-scalar', dataset: '/data/1MB.json', ...PARSE },
  { mode: 'memory', competitor: 'json-parse', dataset: '/data/1MB.json', ...PARSE },
  { mode: 'memory', competitor: 'ceiling', dataset: '/data/1MB.json', ...PARSE },
  { mode: 'memory', competitor: 'ceiling-ascii', dataset: '/data/1MB.json', ...PARSE },
  { mode: 'memory', competitor: 'sluice-bytes-simd', dataset: '/data/1MB.json', ...PARSE },
  { mode: 'memory', competitor: 'sluice-none-scalar', dataset: '/data/1MB.json', ...PARSE },
  { mode: 'http', competitor: 'drain', url: '/paced/1MB.json', ...PARSE },
  { mode: 'http', competitor: 'sluice-simd', url: '/paced/1MB.json', ...PARSE },
  { mode: 'http', competitor: 'res-json', url: '/paced/1MB.json', ...PARSE },
  { bench: 'stringify', competitor: 'sluice', count: 500 },
  { bench: 'stringify', competitor: 'whole', count: 500 },
];

describeEachEngine((engine) => {
  test('the benchmark page runs its competitors, which agree', async () => {
    const page = await engine.open(`${server.origin}/bench/browser/page/index.html`, {
      ready: "typeof window.benchSetup === 'function'",
    });
    const results = [];
    for (const spec of RUNS) {
      const setup = await page.call('benchSetup', spec);
      expect(setup.isolated, 'cross-origin isolated').toBe(true);
      results.push({ spec, ...(await page.call('benchRun')) });
    }
    const noElements = ['drain', 'sluice-none-scalar'];
    const parsed = results.filter((r) => !r.spec.bench && !noElements.includes(r.spec.competitor));
    for (const r of parsed) {
      expect(r.elements, r.spec.competitor).toBe(COUNT);
      expect(r.ms).toBeGreaterThan(0);
      expect(r.firstElementMs).toBeGreaterThanOrEqual(0);
    }
    // Bytes mode sums lengths, not ids: no checksum; every other competitor sums the same ids.
    const bytesMode = parsed.find((r) => r.spec.competitor === 'sluice-bytes-simd')!;
    expect(bytesMode.checksum).toBeNull();
    const values = parsed.filter((r) => r !== bytesMode);
    expect(values.length).toBe(7);
    expect(new Set(values.map((r) => r.checksum)).size).toBe(1);
    for (const id of noElements) {
      const r = results.find((x) => x.spec.competitor === id)!;
      expect(r.elements ?? 0, id).toBe(0);
      expect(r.bytes, id).toBe(bytes);
    }
    const written = results.filter((r) => r.spec.bench === 'stringify');
    expect(written[0]!.bytes).toBeGreaterThan(0);
    expect(new Set(written.map((r) => r.checksum)).size).toBe(1);
  });
});
