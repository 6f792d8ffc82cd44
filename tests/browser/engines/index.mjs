// @ts-check
// The three browser engines behind one small interface, used by every browser suite (tests/browser, the packed
// package's bundle in tests/package) and by the browser benchmark (bench/browser): launch an engine, open a page,
// evaluate in it or poll it, read the errors it collected, close. How each engine runs headless and offline here:
//   chromium  Debian's chromium, playwright-core over the DevTools pipe (playwright.mjs)
//   firefox   Debian's firefox-esr, playwright-core over WebDriver BiDi (playwright.mjs)
//   webkit    WebKitGTK's MiniBrowser under Xvfb, WebKitWebDriver, WebDriver classic (webkit.mjs, webdriver.mjs)
// Every process started here stops with `close()`, and also when this process dies first (processes.mjs).
// Plain JavaScript with JSDoc types: the benchmark runs it in Node without a build step, the suites type-check it.
import { launchPlaywright } from './playwright.mjs';
import { launchWebKit } from './webkit.mjs';

/** @typedef {'chromium' | 'firefox' | 'webkit'} EngineName */

/** @type {readonly EngineName[]} */
export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'];

/**
 * @typedef {object} LaunchOptions
 * @property {string[]} [chromiumArgs]  more command-line flags for Chromium
 * @property {Record<string, string | number | boolean>} [firefoxPrefs]  Firefox preferences
 * @property {Record<string, string>} [webkitEnv]  more environment for WebKitWebDriver and MiniBrowser
 */

/**
 * @typedef {object} EnginePage
 * @property {(expression: string) => Promise<any>} evaluate  the expression's awaited value, through JSON
 * @property {(path: string, arg?: unknown) => Promise<any>} call  `path(arg)`: a global function with a JSON argument
 * @property {(expression: string, timeoutMs?: number) => Promise<void>} waitFor  polls until the expression is truthy
 * @property {() => Promise<string[]>} errors  uncaught errors, rejections and console.error of the page
 *   (collected by tests/browser/page/errors.js, which each test page loads first)
 * @property {() => Promise<void>} close
 */

/**
 * @typedef {object} Engine
 * @property {EngineName} name
 * @property {string} version  the browser's (Chromium, Firefox) or WebKitGTK's version
 * @property {string} label  e.g. 'Firefox 153.8.0'
 * @property {(url: string, options?: { fresh?: boolean }) => Promise<EnginePage>} open
 *   loads `url` in a new document; `fresh`: in a new browser context (Chromium, Firefox) or a new browser
 *   process (WebKit), with nothing shared with earlier pages
 * @property {() => Promise<void>} close
 */

/**
 * The engines a run asks for: SLUICE_ENGINES=firefox,webkit (comma-separated), all three by default.
 * @param {string | undefined} [list]
 * @returns {EngineName[]}
 */
export function selectedEngines(list = process.env.SLUICE_ENGINES) {
  if (!list) return [...ENGINE_NAMES];
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !ENGINE_NAMES.includes(/** @type {EngineName} */ (name)));
  if (unknown.length || names.length === 0) {
    throw new Error(`SLUICE_ENGINES: unknown engine "${unknown.join(',')}" (known: ${ENGINE_NAMES.join(', ')})`);
  }
  return /** @type {EngineName[]} */ (names);
}

/**
 * @param {EngineName} name
 * @param {LaunchOptions} [options]
 * @returns {Promise<Engine>}
 */
export function launchEngine(name, options = {}) {
  switch (name) {
    case 'chromium':
    case 'firefox':
      return launchPlaywright(name, options);
    case 'webkit':
      return launchWebKit(options);
    default:
      throw new Error(`unknown engine ${String(name)}`);
  }
}
