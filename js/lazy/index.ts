// The lazy documents (README.md, "Lazy documents"): lazyParse over a buffered document, openJson over a stream.
export { lazyParse, releaseLazy, type LazyParseOptions } from './lazy_parse.js';
// Tests only (tests/node/lazy_parse.test.ts): the proxy/parse thresholds. Not re-exported by js/index.ts.
export { lazyTuning } from './lazy_tuning.js';
