// Debian's Chromium driven by playwright-core: never a downloaded browser. A persistent context in a fresh
// profile directory (removed on close) keeps every run independent of the last one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium';

// No GPU, sandbox or QUIC in CI containers; no first-run, sync, update or background traffic off the machine.
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export interface Browser {
  readonly context: BrowserContext;
  /** A new tab whose console errors and uncaught exceptions are collected into `errors`. */
  newPage(): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'sluice-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    async newPage() {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console: ${message.text()}`);
      });
      return { page, errors };
    },
    async close() {
      try {
        await context.close();
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}
