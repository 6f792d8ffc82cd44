// Loaded first, as a classic script, by every test page: collects uncaught errors, unhandled rejections, failed
// script loads and console.error calls into globalThis.sluicePageErrors, which the engine drivers read
// (tests/browser/engines): WebDriver classic has no event for them, so each engine reads the same list.
(() => {
  const errors = [];
  globalThis.sluicePageErrors = errors;
  const describe = (value) => (value?.stack ? `${value.name}: ${value.message}` : String(value));
  addEventListener(
    'error',
    (event) => {
      if (event.target && event.target !== window && event.target.src)
        errors.push(`failed to load ${event.target.src}`);
      else errors.push(`error: ${event.error ? describe(event.error) : event.message}`);
    },
    true,
  );
  addEventListener('unhandledrejection', (event) => errors.push(`unhandled rejection: ${describe(event.reason)}`));
  const consoleError = console.error.bind(console);
  console.error = (...args) => {
    errors.push(`console.error: ${args.map(describe).join(' ')}`);
    consoleError(...args);
  };
})();
