// Runs a block of browser tests once per engine (SLUICE_ENGINES, default chromium,firefox,webkit): the engine is
// launched before the block and closed after it, and every page a test opened is closed after that test, passed or
// failed (WebKit serves one page at a time).
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { launchEngine, selectedEngines, type Engine, type EngineName, type EnginePage } from './engines/index.mjs';

export interface OpenOptions {
  /** Polled until true after the page loaded. @default 'window.sluiceReady === true' */
  readonly ready?: string;
  /** A new browser context (a new browser process in WebKit). @default false */
  readonly fresh?: boolean;
}

export interface EngineUnderTest {
  readonly name: EngineName;
  /** The launched engine (inside tests and hooks of the block). */
  engine(): Engine;
  open(url: string, options?: OpenOptions): Promise<EnginePage>;
}

export function describeEachEngine(body: (engine: EngineUnderTest) => void): void {
  describe.each(selectedEngines())('%s', (name) => {
    let engine: Engine | null = null;
    const pages = new Set<EnginePage>();
    beforeAll(async () => {
      engine = await launchEngine(name);
    });
    afterEach(async () => {
      for (const page of pages) await page.close().catch(() => {});
      pages.clear();
    });
    afterAll(async () => {
      await engine?.close();
    });
    body({
      name,
      engine() {
        if (!engine) throw new Error(`${name} did not launch`);
        return engine;
      },
      async open(url, { ready = 'window.sluiceReady === true', fresh = false } = {}) {
        if (!engine) throw new Error(`${name} did not launch`);
        const page = await engine.open(url, { fresh });
        pages.add(page);
        await page.waitFor(ready);
        return page;
      },
    });
  });
}
