// Loads a page in headless browsers (Debian's Chromium and Firefox, driven as tests/browser/engines does, never a
// downloaded browser) and checks what the page's src/main.js reported in `globalThis.sluiceResult`: the four APIs
// against JSON.parse (lib/usage.mjs), or the error. Exits 77 (skipped) when a browser is not installed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const BINARIES = {
  chromium: process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium',
  firefox: process.env.SLUICE_FIREFOX ?? '/usr/lib/firefox-esr/firefox-esr',
};

/** `url` in each engine named; throws naming the engine and the page's error or errors. */
export async function checkPage(url, engines = ['chromium']) {
  const missing = engines.filter((name) => !existsSync(BINARIES[name]));
  if (missing.length > 0) {
    console.log(`skipped: no ${missing.map((name) => BINARIES[name]).join(', ')} (see ../shared/BROWSERS.md)`);
    process.exit(77);
  }
  const root = process.env.SLUICE_ROOT;
  if (!root) throw new Error('SLUICE_ROOT is not set: run the checks through tests/consumers/run.mjs');
  const { launchEngine } = await import(pathToFileURL(join(root, 'tests/browser/engines/index.mjs')).href);
  const seen = [];
  for (const name of engines) {
    const engine = await launchEngine(name);
    try {
      const page = await engine.open(url, { fresh: true });
      let result;
      try {
        await page.waitFor('globalThis.sluiceResult', 60_000);
        result = await page.evaluate('globalThis.sluiceResult');
      } catch (error) {
        throw new Error(`${engine.label} at ${url}: ${error.message}; errors: ${JSON.stringify(await page.errors())}`);
      }
      if (!result.ok) throw new Error(`${engine.label} at ${url}: ${result.error}`);
      seen.push(`${engine.label} ${JSON.stringify(result)}`);
      await page.close();
    } finally {
      await engine.close();
    }
  }
  return seen;
}
