// The JSONPath Compliance Test Suite (tests/corpus/jsonpath-cts/cts.json, BSD-2, provenance in its README), read
// once for the suites that run it: js/query's reference evaluator and the streamed parser.
import { readFileSync } from 'node:fs';

/** One case of the suite: an invalid selector, or a document with the nodelists the suite allows. */
export interface CtsCase {
  name: string;
  selector: string;
  invalid_selector?: boolean;
  document?: unknown;
  result?: unknown[];
  results?: unknown[][];
  result_paths?: string[];
  results_paths?: string[][];
}

/** Every case, in the suite's order. */
export const CTS: CtsCase[] = JSON.parse(
  readFileSync(new URL('../corpus/jsonpath-cts/cts.json', import.meta.url), 'utf8'),
).tests;
