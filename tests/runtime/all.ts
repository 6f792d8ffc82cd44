// Every runtime-neutral suite, registered in a fixed order: the API suite (api.ts), the lazy documents
// (suites/lazy.ts), the partial parser (suites/partial.ts) and the event stream writer behind the runtime's own
// HTTP server (suites/sse_write.ts; Vitest runs it in Node: tests/node/sse_runtime.test.ts). tests/deno and tests/bun run them under their
// runtimes' own test runners, once per wasm build (SLUICE_BUILD). A page of each browser runs each of the three
// (tests/browser/api.test.ts, lazy.test.ts, partial.test.ts), and Vitest runs the partial suite in Node
// (tests/node/partial_runtime.test.ts).
import './api.ts';
import './suites/lazy.ts';
import './suites/partial.ts';
import './suites/sse_write.ts';

export { cases } from './harness.ts';
export { loadBuild, requestedBuild } from './setup.ts';
