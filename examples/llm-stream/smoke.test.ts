// Smoke run of the llm-stream example (run by scripts/test-runtimes.sh): its server streaming a tool call, the page
// in Chromium rendering it with partialJson; the final value must equal the whole arguments, the title must have
// shown while it grew, unchanged days must have kept their cards, and the page must report no error.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium, type Browser } from '../../tests/browser/chromium.ts';
import { ROOT, startServerProcess, type ServerProcess } from '../../tests/runtime/child.ts';

let server: ServerProcess;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  // --exit-after: the server stops by itself even if this process dies before afterAll.
  server = await startServerProcess(
    process.execPath,
    [
      join(ROOT, 'examples', 'llm-stream', 'server.mjs'),
      '--port',
      '0',
      '--rate',
      '2000',
      '--days',
      '5',
      '--exit-after',
      '240',
    ],
    { cwd: ROOT },
  );
  origin = server.origin;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

test('the page renders the tool call while it streams', async () => {
  const { page, errors } = await browser.newPage();
  await page.goto(`${origin}/`);
  await page.click('#run');
  await page.waitForFunction(() =>
    ['done', 'failed'].some((word) => document.getElementById('status')!.textContent!.startsWith(word)),
  );
  const results = await page.evaluate(
    () => (window as unknown as { llmStreamResults: Record<string, unknown> }).llmStreamResults,
  );
  expect(results).toMatchObject({ matches: true, frozen: true });
  const { deltas, snapshots, titlesShown, cardsDrawn, cardsReused } = results as Record<string, number>;
  // Half the deltas change what the text shows (the rest are indentation, keys, numbers not yet complete); the title
  // alone grows over some 10 deltas.
  expect(deltas).toBeGreaterThan(300);
  expect(snapshots).toBeGreaterThan(deltas / 3);
  expect(titlesShown).toBeGreaterThan(5);
  expect(cardsReused).toBeGreaterThan(0);
  expect(cardsDrawn).toBeGreaterThanOrEqual(5);
  expect(await page.locator('#days .day').count()).toBe(5);
  expect(await page.locator('#title').textContent()).toBe('Japan in spring: temples, food & trains 🌸');
  expect(errors).toEqual([]);
});
