// Where users' toolchains put things: Next.js's Edge sandbox defines a setImmediate that throws when called
// (js/encode/macrotask.ts must not depend on it), and webpack's server bundles (Next.js `--webpack`) name the .wasm by
// a relative public path (`/_next/static/media/x.wasm`, as webpack's RelativeURL, a URL whose href is that path),
// which init() reads from the file under an ancestor of the loader's folder. Each case runs in a fresh process.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, inject, test } from 'vitest';

const build = inject('sluiceBuild');
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function inFreshProcess(prelude: string, body: string, dist = DIST): unknown {
  const script = `${prelude}
    const sluice = await import(${JSON.stringify(join(dist, 'index.js'))});
    const internal = await import(${JSON.stringify(join(dist, 'internal.js'))});
    const describe = (error) => [error.constructor.name, error.message];
    const result = await (async () => { ${body} })();
    console.log(JSON.stringify(result));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

// As Next.js's Edge sandbox defines it: a getter giving a function that throws when called.
const THROWING_SET_IMMEDIATE = `
  Object.defineProperty(globalThis, 'setImmediate', {
    configurable: true,
    get() {
      return () => { throw new Error('A Node.js API is used (setImmediate) which is not supported in the Edge Runtime'); };
    },
  });`;

test('StreamedJsonResponse where setImmediate throws when called (Next.js Edge routes)', () => {
  const rows = Array.from({ length: 5 }, (_, i) => ({ id: i, name: `row ${i}` }));
  expect(
    inFreshProcess(
      THROWING_SET_IMMEDIATE,
      `
      async function* rows() {
        for (const row of ${JSON.stringify(rows)}) {
          await new Promise((resolve) => setTimeout(resolve, 2)); // a real wait: the encoder flushes in a later task
          yield row;
        }
      }
      const response = new sluice.StreamedJsonResponse({ rows: rows(), total: Promise.resolve(5) });
      return JSON.parse(await response.text());`,
    ),
  ).toEqual({ rows, total: 5 });
});

/** webpack's RelativeURL (RelativeUrlRuntimeModule): a URL object whose href is a relative path. */
const RELATIVE_URL = `
  function RelativeURL(url) {
    const realUrl = new URL(url, 'x:/');
    const values = {};
    for (const key in realUrl) values[key] = realUrl[key];
    values.href = url;
    values.pathname = url.replace(/[?#].*/, '');
    values.origin = values.protocol = '';
    values.toString = values.toJSON = () => url;
    for (const key in values) Object.defineProperty(this, key, { enumerable: true, configurable: true, value: values[key] });
  }
  RelativeURL.prototype = URL.prototype;`;

test("a relative URL on Node: the file at that path under the loader's folders (webpack's server bundles)", () => {
  // .next/server/<package> holds the loader; webpack emitted the .wasm to .next/static/media/ under a hashed name.
  const app = mkdtempSync(join(tmpdir(), 'sluice-relative-'));
  temps.push(app);
  const dist = join(app, '.next', 'server', 'chunks', 'sluice');
  cpSync(DIST, dist, { recursive: true });
  mkdirSync(join(app, '.next', 'static', 'media'), { recursive: true });
  copyFileSync(join(DIST, `sluice.${build}.wasm`), join(app, '.next', 'static', 'media', 'sluice.x1f3.wasm'));
  const kind = build === 'simd' ? 'simd128' : 'scalar';
  expect(
    inFreshProcess(
      RELATIVE_URL,
      `
      const results = [];
      for (const source of [new RelativeURL('/_next/static/media/sluice.x1f3.wasm'), '/_next/static/media/sluice.x1f3.wasm']) {
        await sluice.init(source);
        results.push([internal.loadedBuildKind(), sluice.createParser({ path: '$[*]' }).push('[1,2]')]);
      }
      results.push(await sluice.init('/_next/static/media/missing.wasm').then(() => 'loaded', describe));
      return results;`,
      dist,
    ),
  ).toEqual([
    [kind, [1, 2]],
    [kind, [1, 2]],
    [
      'SluiceLoadError',
      expect.stringMatching(
        /^sluice: cannot load the WebAssembly module: no file \/_next\/static\/media\/missing.wasm/,
      ),
    ],
  ]);
  expect(readFileSync(join(app, '.next', 'static', 'media', 'sluice.x1f3.wasm')).length).toBeGreaterThan(0);
});
