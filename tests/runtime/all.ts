// The runtime-neutral API suite: every case of suites/, registered in a fixed order. tests/deno and tests/bun run
// it under their runtimes' own test runners, once per wasm build (SLUICE_BUILD).
import './suites/conformance.ts';
import './suites/options.ts';
import './suites/errors.ts';
import './suites/sources.ts';
import './suites/encoder.ts';

export { cases } from './harness.ts';
export { loadBuild, requestedBuild } from './setup.ts';
