// init()'s second module, the lazy index's (js/lazy/native_lazy.ts): given as `options.lazyModule` in any form
// `module` takes, or by default the build next to the package that matches the parser's, which holds the parser too
// and is then loaded in place of the parser's. Each case runs in a
// fresh process, since the loader's state is the process's.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, inject, test } from 'vitest';

const build = inject('sluiceBuild');
const KIND = { simd: 'simd128', scalar: 'scalar' } as const;
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const SOURCES = 'a WebAssembly.Module, a URL, a URL string, a Response or bytes';

/** Runs `body` (an async function body with init, lazyParse, createParser, internal and the file paths in scope). */
function inFreshProcess(body: string, dist = DIST): unknown {
  const script = `
    import { readFileSync } from 'node:fs';
    const { init, lazyParse, createParser } = await import(${JSON.stringify(join(dist, 'index.js'))});
    const internal = await import(${JSON.stringify(join(dist, 'internal.js'))});
    const bytes = (file) => new Uint8Array(readFileSync(${JSON.stringify(DIST)} + file));
    const main = bytes('sluice.${build}.wasm');
    const lazy = bytes('sluice-lazy.${build}.wasm');
    const describe = (error) => [error.constructor.name, error.message];
    const result = await (async () => { ${body} })();
    console.log(JSON.stringify(result));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

test('compiled modules for both (as Cloudflare Workers pass them): lazyParse runs on the lazy one', () => {
  expect(
    inFreshProcess(`
      await init(new WebAssembly.Module(main), { lazyModule: new WebAssembly.Module(lazy) });
      const doc = lazyParse('{"a":[1,{"b":"x"}]}');
      let error;
      try { lazyParse('{"a":[1,}'); } catch (e) { error = [e.code, e.offset, e.line, e.column]; }
      return [doc.a[1].b, internal.loadedBuildKind(), internal.loadedLazyBuildKind(), error];`),
  ).toEqual(['x', KIND[build], KIND[build], ['EXPECTED_VALUE', 8, 1, 9]]);
});

test('invalid options reject with a TypeError; the parser module stays usable', () => {
  expect(
    inFreshProcess(`
      const results = [];
      await init(main, { lazyModule: 42 }).catch((e) => results.push(describe(e)));
      await init(main, { lazy: lazy }).catch((e) => results.push(describe(e)));
      await init(main, 'lazy').catch((e) => results.push(describe(e)));
      results.push(createParser().push('[1]'));
      return results;`),
  ).toEqual([
    ['TypeError', `init(): options.lazyModule must be ${SOURCES}, got 42`],
    ['TypeError', 'init(): options.lazy is not an option; the options are lazyModule'],
    ['TypeError', 'init(): options must be an object, got "lazy"'],
    [1],
  ]);
});

test('a lazyModule given that cannot be loaded rejects init() with a SluiceLoadError; a later init() retries', () => {
  const [first, second, third, parsed] = inFreshProcess(`
    const results = [];
    // The parser's module is no lazy index.
    await init(main, { lazyModule: main }).catch((e) => results.push(describe(e)));
    const missing = new URL('file:///nonexistent/sluice-lazy.wasm');
    await init(main, { lazyModule: missing }).catch((e) => results.push(describe(e)));
    try { lazyParse('[1]'); } catch (e) { results.push(describe(e)); }
    await init(main, { lazyModule: lazy });
    results.push(lazyParse('[1,[2]]')[1][0]);
    return results;`) as [string, string][];
  expect(first).toEqual([
    'SluiceLoadError',
    "sluice: this is not the lazy index's WebAssembly module (sluice-lazy.*.wasm)",
  ]);
  expect(second[0]).toBe('SluiceLoadError');
  expect(second[1]).toMatch(/^sluice: cannot load the lazy index's WebAssembly module: .*ENOENT/);
  expect(third[0]).toBe('SluiceLoadError');
  expect(parsed).toBe(2);
});

test("by default, init() loads the lazy index's module alone: it holds the parser too (one download)", () => {
  // Without the parser-only module next to the package: nothing may ask for it.
  const dist = mkdtempSync(join(tmpdir(), 'sluice-dist-'));
  copies.push(dist);
  cpSync(DIST, dist, { recursive: true, filter: (source) => !/[/\\]sluice\.\w+\.wasm$/.test(source) });
  expect(
    inFreshProcess(
      `
      await init();
      const values = createParser({ path: '$[*]' }).push('[7,{"a":8}]');
      const doc = lazyParse('{"a":[1,{"b":"x"}]}');
      return [values, doc.a[1].b, internal.loadedBuildKind(), internal.loadedLazyBuildKind()];`,
      dist,
    ),
  ).toEqual([[7, { a: 8 }], 'x', 'simd128', 'simd128']); // Node validates SIMD128: the default build
});

test("the lazy index's module given as `module` serves both", () => {
  expect(
    inFreshProcess(`
      await init(new WebAssembly.Module(lazy));
      return [createParser().push('[7]')[0], lazyParse('[1,[2]]')[1][0], internal.loadedLazyBuildKind()];`),
  ).toEqual([7, 2, KIND[build]]);
});

test('by default, a lazy module that is missing leaves init() fulfilled and lazyParse() reports it', () => {
  const dist = mkdtempSync(join(tmpdir(), 'sluice-dist-'));
  copies.push(dist);
  cpSync(DIST, dist, { recursive: true, filter: (source) => !/sluice-lazy\.\w+\.wasm$/.test(source) });
  const [parsed, missing, loaded] = inFreshProcess(
    `
    await init();
    const results = [createParser().push('[7]')[0]];
    try { lazyParse('[1]'); } catch (e) { results.push(describe(e)); }
    await init(undefined, { lazyModule: lazy });
    results.push(lazyParse('{"k":true}').k);
    return results;`,
    dist,
  ) as [number, [string, string], boolean];
  expect(parsed).toBe(7);
  expect(missing[0]).toBe('SluiceLoadError');
  expect(missing[1]).toMatch(/^lazyParse\(\): the lazy index's WebAssembly module could not be loaded \(.*ENOENT/);
  expect(missing[1]).toMatch(/; pass it as init\(module, \{ lazyModule \}\)$/);
  expect(loaded).toBe(true);
});

test('before init() has loaded it, lazyParse() is a TypeError', () => {
  expect(inFreshProcess(`try { lazyParse('[]'); } catch (e) { return describe(e); }`)).toEqual([
    'TypeError',
    'lazyParse(): the WebAssembly module is not loaded yet: call `await init()` first',
  ]);
});
