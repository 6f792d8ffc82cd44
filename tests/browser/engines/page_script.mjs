// @ts-check
// How every engine evaluates an expression in a page: the value is awaited and crosses as JSON text, so that all
// three engines hand back exactly the same data (WebDriver and playwright serialise values differently), and a
// rejection crosses as its stack text instead of each driver's own error shape.

/**
 * A page-side expression whose value is `{ sluiceJson }` or `{ sluiceError }` (not `error`: WebDriver would take
 * an answer with an `error` string for an error of its own).
 * @param {string} expression
 */
export function wrapped(expression) {
  return `(async () => {
  try {
    const value = await (${expression});
    return { sluiceJson: JSON.stringify(value === undefined ? null : value) };
  } catch (error) {
    return { sluiceError: String(error && error.stack ? \`\${error.name}: \${error.message}\\n\${error.stack}\` : error) };
  }
})()`;
}

/**
 * @param {string} engine
 * @param {string} expression
 * @param {unknown} outcome  what `wrapped(expression)` gave
 */
export function unwrapped(engine, expression, outcome) {
  const result = /** @type {{ sluiceJson?: string, sluiceError?: string } | null} */ (outcome);
  if (result && typeof result.sluiceJson === 'string') return JSON.parse(result.sluiceJson);
  const shown = expression.length > 200 ? `${expression.slice(0, 200)}...` : expression;
  throw new Error(`${engine}: ${shown} failed in the page: ${result?.sluiceError ?? JSON.stringify(outcome)}`);
}

/**
 * `path(arg)` as an expression: a global function called with a JSON argument.
 * @param {string} path  e.g. 'sluiceTest.streamArticles'
 * @param {unknown} arg
 */
export function callExpression(path, arg) {
  return `${path}(${arg === undefined ? '' : JSON.stringify(arg)})`;
}

/** What the page's error collector (tests/browser/page/errors.js) holds, or a note that there is none. */
export const ERRORS_EXPRESSION = "globalThis.sluicePageErrors ?? ['the page has no error collector (errors.js)']";

/**
 * Polls `expression` until it is truthy.
 * @param {(expression: string) => Promise<unknown>} evaluate
 * @param {string} expression
 * @param {number} timeoutMs
 */
export async function poll(evaluate, expression, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await evaluate(`Boolean(${expression})`)) return;
    if (performance.now() > deadline) {
      const errors = await evaluate(ERRORS_EXPRESSION).catch(() => null);
      throw new Error(`${expression} still false after ${timeoutMs} ms; page errors: ${JSON.stringify(errors)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
