#!/usr/bin/env node
// The `sluice` executable (package.json "bin"). It runs the command line's bundle (sluice_bundle.cjs, built by
// scripts/build.mjs) compiled with the V8 code cache the build made of it (sluice_bundle.cache): V8 then neither
// parses the bundle nor compiles the functions a command runs, 26 million instructions of 147 for a small `select`
// (callgrind, Node 20.20), about 8 ms of CPU at every start. A cache made by another Node is rejected by V8, and
// the bundle compiles as it would without one.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const vm = require('node:vm');

const BUNDLE = join(__dirname, 'sluice_bundle.cjs');
const CACHE = join(__dirname, 'sluice_bundle.cache');

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

if (require.main === module) {
  let cache;
  try {
    cache = readFileSync(CACHE);
  } catch {
    // No cache (a build that made none): compiled from the source alone.
  }
  run(compile(cache));
} else {
  // For scripts/build.mjs, which makes the cache, and the test that checks V8 accepts it.
  module.exports = { BUNDLE, CACHE, compile, run };
}
