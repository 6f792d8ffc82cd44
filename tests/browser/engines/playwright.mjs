// @ts-check
// Chromium and Firefox through playwright-core: Debian's chromium over the DevTools pipe, Debian's firefox-esr over
// WebDriver BiDi (playwright-core 1.64.1: 1.65 sends a BiDi command Firefox 153 does not know). Never a
// downloaded browser. Firefox runs under guard.sh (it would outlive a killed parent); Chromium exits by itself
// when the pipe closes.
import { chromium, firefox } from 'playwright-core';
import { GUARD } from './processes.mjs';
import { ERRORS_EXPRESSION, callExpression, poll, unwrapped, wrapped } from './page_script.mjs';

export const CHROMIUM = process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium';
export const FIREFOX = process.env.SLUICE_FIREFOX ?? '/usr/lib/firefox-esr/firefox-esr';

// No GPU, sandbox or QUIC in CI containers; no first-run, sync, update or background traffic off the machine.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * @param {'chromium' | 'firefox'} name
 * @param {import('./index.mjs').LaunchOptions} options
 * @returns {Promise<import('./index.mjs').Engine>}
 */
export async function launchPlaywright(name, options) {
  const browser =
    name === 'chromium'
      ? await chromium.launch({
          executablePath: CHROMIUM,
          headless: true,
          args: [...CHROMIUM_ARGS, ...(options.chromiumArgs ?? [])],
        })
      : await firefox.launch({
          channel: 'moz-firefox',
          executablePath: GUARD,
          headless: true,
          // No crash reporter: its helper process would outlive the browser.
          env: { ...process.env, SLUICE_GUARD_TARGET: FIREFOX, MOZ_CRASHREPORTER_DISABLE: '1' },
          firefoxUserPrefs: options.firefoxPrefs ?? {},
        });
  const shared = await browser.newContext();
  const version = browser.version();
  return {
    name,
    version,
    label: `${name === 'chromium' ? 'Chromium' : 'Firefox'} ${version}`,
    async open(url, { fresh = false } = {}) {
      const context = fresh ? await browser.newContext() : shared;
      const page = await context.newPage();
      /** @type {string[]} */
      const native = [];
      page.on('pageerror', (error) => native.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') native.push(`console: ${message.text()}`);
      });
      await page.goto(url);
      let closed = false;
      const evaluate = async (/** @type {string} */ expression) =>
        unwrapped(name, expression, await page.evaluate(wrapped(expression)));
      return {
        evaluate,
        call: (path, arg) => evaluate(callExpression(path, arg)),
        waitFor: (expression, timeoutMs = 30_000) => poll(evaluate, expression, timeoutMs),
        async errors() {
          // The page's own collector (as in WebKit) and what playwright saw (errors before the collector ran too).
          return [.../** @type {string[]} */ (await evaluate(ERRORS_EXPRESSION)), ...native];
        },
        async close() {
          if (closed) return;
          closed = true;
          await (fresh ? context.close() : page.close());
        },
      };
    },
    async close() {
      await browser.close();
    },
  };
}
