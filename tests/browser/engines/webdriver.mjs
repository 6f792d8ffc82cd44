// @ts-check
// The few commands of W3C WebDriver (classic) that the WebKit engine needs, over HTTP to a driver on 127.0.0.1:
// a session, navigation, an async script, timeouts. A client library (selenium-webdriver, webdriverio) would
// bring dozens of packages for these five requests.
import { request } from 'node:http';

/** A WebDriver error answer ({ value: { error, message } }) as an Error naming the command. */
export class WebDriverError extends Error {
  /**
   * @param {string} command
   * @param {string} error
   * @param {string} message
   */
  constructor(command, error, message) {
    super(`WebDriver ${command}: ${error}: ${message}`);
    this.name = 'WebDriverError';
    this.error = error;
  }
}

/**
 * One HTTP exchange with node:http, not fetch(): Node's fetch gives up on a response after 300 s, and an
 * evaluation may run longer (a slow competitor in a benchmark); the caller's timeout decides instead.
 * @param {string} url
 * @param {string} method
 * @param {string | undefined} body
 * @param {number} timeoutMs
 * @returns {Promise<{ status: number, text: string }>}
 */
function exchange(url, method, body, timeoutMs) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers:
          body === undefined
            ? {}
            : { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (data) => {
          text += data;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends one command; resolves to the answer's `value`.
 * @param {string} base  the driver's origin, http://127.0.0.1:PORT
 * @param {'GET' | 'POST' | 'DELETE'} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {number} [timeoutMs]
 * @returns {Promise<any>}
 */
export async function command(base, method, path, body, timeoutMs = 120_000) {
  const { status, text } = await exchange(
    `${base}${path}`,
    method,
    body === undefined ? undefined : JSON.stringify(body),
    timeoutMs,
  ).catch((error) => {
    throw new WebDriverError(`${method} ${path}`, 'no answer', error.message);
  });
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new WebDriverError(`${method} ${path}`, `HTTP ${status}`, text.slice(0, 300));
  }
  const value = answer?.value;
  if (status >= 400 || (value && typeof value === 'object' && typeof value.error === 'string')) {
    throw new WebDriverError(
      `${method} ${path}`,
      value?.error ?? `HTTP ${status}`,
      value?.message ?? text.slice(0, 300),
    );
  }
  return value;
}

/**
 * Waits until the driver answers /status with ready: true.
 * @param {string} base
 * @param {number} timeoutMs
 * @param {() => string | null} failed  a reason to stop waiting (the driver exited), or null
 */
export async function waitUntilReady(base, timeoutMs, failed) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const reason = failed();
    if (reason !== null) throw new Error(reason);
    try {
      if ((await command(base, 'GET', '/status', undefined, 5_000))?.ready === true) return;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`WebDriver at ${base} not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One WebDriver session: one browser window. */
export class Session {
  /**
   * @param {string} base
   * @param {string} id
   * @param {Record<string, any>} capabilities
   */
  constructor(base, id, capabilities) {
    this.base = base;
    this.id = id;
    this.capabilities = capabilities;
  }

  /**
   * @param {string} base
   * @param {Record<string, unknown>} alwaysMatch
   */
  static async create(base, alwaysMatch) {
    const value = await command(base, 'POST', '/session', { capabilities: { alwaysMatch } });
    return new Session(base, value.sessionId, value.capabilities);
  }

  /** @param {{ script?: number, pageLoad?: number }} timeouts  ms */
  setTimeouts(timeouts) {
    return command(this.base, 'POST', `/session/${this.id}/timeouts`, timeouts);
  }

  /** Navigates and waits for the load event (module scripts may still be running then). @param {string} url */
  navigate(url) {
    return command(this.base, 'POST', `/session/${this.id}/url`, { url }, 180_000);
  }

  /**
   * Runs `script` as the body of a function whose last argument is the callback that ends it.
   * @param {string} script
   * @param {unknown[]} [args]
   */
  executeAsync(script, args = []) {
    // The session's script timeout (set by the caller) ends a runaway script; this one only a driver that hangs.
    return command(this.base, 'POST', `/session/${this.id}/execute/async`, { script, args }, 24 * 3600_000);
  }

  delete() {
    return command(this.base, 'DELETE', `/session/${this.id}`);
  }
}
