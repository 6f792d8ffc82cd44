// Smoke run of the browser-fetch example (run by scripts/test-runtimes.sh): its server with a 1 MB document, the
// page in Chromium, both buttons; each run must show every row and no page error.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium, type Browser } from '../../tests/browser/chromium.ts';
import { ROOT, startServerProcess, type ServerProcess } from '../../tests/runtime/child.ts';

const COUNT = 2500;
let server: ServerProcess;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  server = await startServerProcess(
    process.execPath,
    [join(ROOT, 'examples', 'browser-fetch', 'server.mjs'), '--port', '0', '--count', String(COUNT), '--rate', '5'],
    { cwd: ROOT },
  );
  origin = server.origin;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

test('both methods show every row', async () => {
  const { page, errors } = await browser.newPage();
  await page.goto(`${origin}/`);
  for (const button of ['#run-sluice', '#run-json']) {
    await page.click(button);
    await page.waitForFunction(() =>
      ['done', 'failed'].some((word) => document.getElementById('status')!.textContent!.startsWith(word)),
    );
  }
  const results = await page.evaluate(
    () => (window as unknown as { browserFetchResults: unknown[] }).browserFetchResults,
  );
  expect(results).toMatchObject([
    { method: 'sluice parseJsonArray', rows: COUNT },
    { method: 'await res.json()', rows: COUNT },
  ]);
  // Paced at 5 MB/s, the 1 MB document takes about 200 ms: sluice's first row comes well before the end.
  const [sluice] = results as { firstRowMs: number; totalMs: number }[];
  expect(sluice!.firstRowMs).toBeLessThan(sluice!.totalMs);
  expect(await page.locator('#rows tr').count()).toBe(50);
  expect(errors).toEqual([]);
});
