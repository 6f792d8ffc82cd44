#!/usr/bin/env node
// The `sluice` executable (package.json "bin"). It runs the command line's bundle (sluice_bundle.cjs, built by
// scripts/build.mjs) compiled with a V8 code cache of it: V8 then neither parses the bundle nor compiles the
// functions a command runs, 26 million instructions of 147 for a small `select` (callgrind, Node 20.20), about 8 ms
// of CPU at every start. A code cache is valid for one Node build only, so the package ships none: the first run
// writes one, made after its command ran (so it holds the functions a command runs, not only the top level), into
// the user's cache folder, one file per Node version and bundle; V8 rejects one that does not match, and the bundle
// then compiles as it would without one (and the cache is written again). SLUICE_CACHE_DIR names another folder;
// empty, no cache.
'use strict';
const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const BUNDLE = join(__dirname, 'sluice_bundle.cjs');

/** The folder of the code cache: per user (a cache others could write would be code they run). */
function cacheDir() {
  const env = process.env;
  if (env.SLUICE_CACHE_DIR !== undefined) return env.SLUICE_CACHE_DIR || undefined;
  let base = env.XDG_CACHE_HOME || (process.platform === 'win32' ? env.LOCALAPPDATA : undefined);
  if (!base) {
    const home = homedir();
    if (!home) return undefined;
    base = join(home, '.cache');
  }
  return join(base, 'sluice');
}

/** The cache file of this bundle under this Node, or undefined when there is no cache folder. */
function cacheFile() {
  const dir = cacheDir();
  if (dir === undefined) return undefined;
  const { size, mtimeMs } = statSync(BUNDLE);
  return join(dir, `bundle-${process.version}-${process.arch}-${size}-${Math.trunc(mtimeMs)}.cache`);
}

/** The bundle as one function of `require` and `__filename`, all it uses of CommonJS's module wrapper. */
function compile(cachedData) {
  const source = readFileSync(BUNDLE, 'utf8').replace(/^#!.*/, '');
  return new vm.Script(`(function (require, __filename) {${source}\n})`, {
    filename: BUNDLE,
    cachedData,
    // import() as in any CommonJS module (the loader imports node:fs/promises when init() is given a file URL).
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ?? ((specifier) => import(specifier)),
  });
}

function run(script) {
  script.runInThisContext()(require, BUNDLE);
}

/** Writes the cache of `script` when the process exits, atomically (concurrent first runs each write a whole file). */
function saveOnExit(script, file) {
  process.once('exit', () => {
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
      renameSync(partial, file);
    } catch {
      // A read-only or full disk: the command already ran; the next start compiles again.
    }
  });
}

if (require.main === module) {
  let file;
  let cache;
  try {
    file = cacheFile();
    if (file !== undefined) cache = readFileSync(file);
  } catch {
    // No cache yet (the first run under this Node): compiled from the source alone, and cached at exit.
  }
  const script = compile(cache);
  if (file !== undefined && (cache === undefined || script.cachedDataRejected)) saveOnExit(script, file);
  run(script);
} else {
  // For the test that checks V8 accepts the cache a run wrote.
  module.exports = { BUNDLE, cacheFile, compile, run };
}
