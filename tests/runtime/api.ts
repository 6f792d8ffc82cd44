// The runtime-neutral API suite: the parser's and the encoder's cases of suites/, registered in a fixed order.
// all.ts runs them with the other suites under Deno and Bun; tests/browser/api.test.ts runs them in a page.
import './suites/conformance.ts';
import './suites/options.ts';
import './suites/errors.ts';
import './suites/sources.ts';
import './suites/encoder.ts';
