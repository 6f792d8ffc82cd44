// The page of every bundler project, copied to its entry by its build script: what a user writes, `import * as
// sluice from 'sluice'` and the default init(); its result (lib/usage.mjs, copied beside it) is read by
// lib/browser.mjs.
import * as sluice from 'sluice';
import { exercise } from './usage.mjs';

exercise(sluice).then(
  (result) => {
    globalThis.sluiceResult = result;
    document.body.dataset.result = 'ok';
  },
  (error) => {
    globalThis.sluiceResult = { ok: false, error: `${error?.name}: ${error?.message}\n${error?.stack}` };
    document.body.dataset.result = 'error';
  },
);
