// @ts-check
// WebKit (WebKitGTK's MiniBrowser, JavaScriptCore: Safari's engine) through WebKitWebDriver, WebDriver classic.
// MiniBrowser has no headless mode: it draws into an Xvfb server started here on a display Xvfb picks itself
// (-displayfd), so parallel runs never collide. `browserName` must be 'MiniBrowser' ('safari' does not match).
// WebDriver's navigation returns before module scripts ran: callers poll a flag the page sets (waitFor).
import { freePort, spawnGuarded } from './processes.mjs';
import { ERRORS_EXPRESSION, callExpression, poll, unwrapped, wrapped } from './page_script.mjs';
import { Session, waitUntilReady } from './webdriver.mjs';

export const MINIBROWSER = process.env.SLUICE_MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const START_TIMEOUT_MS = 30_000;
// Long enough for any evaluation the suites make; the test's own timeout is what fails a hung page.
const SCRIPT_TIMEOUT_MS = 15 * 60_000;

/**
 * Starts Xvfb and resolves to its display number.
 * @returns {Promise<{ display: string, server: import('./processes.mjs').GuardedProcess }>}
 */
async function startXvfb() {
  const server = spawnGuarded('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    extraFds: 1,
  });
  const fd = /** @type {import('node:stream').Readable} */ (server.child.stdio[3]);
  const display = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`Xvfb gave no display in ${START_TIMEOUT_MS} ms: ${server.output()}`)),
      START_TIMEOUT_MS,
    );
    fd.on('data', (data) => {
      text += data;
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(text.trim());
      }
    });
    server.child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`Xvfb ${server.exited()}: ${server.output()}`));
    });
  });
  return { display, server };
}

/**
 * @param {import('./index.mjs').LaunchOptions} options
 * @returns {Promise<import('./index.mjs').Engine>}
 */
export async function launchWebKit(options) {
  const xvfb = await startXvfb();
  /** @type {import('./processes.mjs').GuardedProcess | null} */
  let driver = null;
  // WebKitWebDriver serves one session (one MiniBrowser) at a time: a fresh page replaces it with a new one.
  /** @type {Session | null} */
  let session = null;
  const endSession = async () => {
    // A session whose browser died may refuse to end; the next one starts all the same.
    await session?.delete().catch(() => {});
    session = null;
  };
  const stopAll = async () => {
    await endSession();
    await driver?.stop();
    await xvfb.server.stop();
  };
  let base = '';
  try {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    driver = spawnGuarded('WebKitWebDriver', [`--port=${port}`], {
      env: { ...process.env, DISPLAY: `:${xvfb.display}`, ...(options.webkitEnv ?? {}) },
    });
    const started = driver;
    await waitUntilReady(base, START_TIMEOUT_MS, () =>
      started.exited() ? `WebKitWebDriver ${started.exited()}: ${started.output()}` : null,
    );
  } catch (error) {
    await stopAll();
    throw error;
  }

  let pageOpen = false;
  const newSession = async () => {
    await endSession();
    const created = await Session.create(base, {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
    });
    session = created;
    await created.setTimeouts({ script: SCRIPT_TIMEOUT_MS, pageLoad: 120_000 });
    return created;
  };
  const first = await newSession().catch(async (error) => {
    await stopAll();
    throw error;
  });
  const version = String(first.capabilities.browserVersion ?? 'unknown');

  return {
    name: 'webkit',
    version,
    label: `WebKit ${version}`,
    async open(url, { fresh = false } = {}) {
      if (pageOpen)
        throw new Error('webkit: one page at a time (WebKitWebDriver serves one session): close the last one');
      pageOpen = true;
      /** @type {Session} */
      let current;
      try {
        current = fresh || !session ? await newSession() : session;
        await current.navigate(url);
      } catch (error) {
        pageOpen = false;
        throw error;
      }
      let closed = false;
      const evaluate = async (/** @type {string} */ expression) =>
        unwrapped(
          'webkit',
          expression,
          await current.executeAsync(
            `const done = arguments[arguments.length - 1]; ${wrapped(expression)}.then(done);`,
          ),
        );
      return {
        evaluate,
        call: (path, arg) => evaluate(callExpression(path, arg)),
        waitFor: (expression, timeoutMs = 30_000) => poll(evaluate, expression, timeoutMs),
        errors: async () => /** @type {string[]} */ (await evaluate(ERRORS_EXPRESSION)),
        async close() {
          if (closed) return;
          closed = true;
          pageOpen = false;
          // A new document for the next page; the window (and its process) stays unless that page asks for a fresh one.
          if (session === current) await current.navigate('about:blank');
        },
      };
    },
    close: stopAll,
  };
}
