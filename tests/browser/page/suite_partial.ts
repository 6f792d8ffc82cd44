// The runtime-neutral partial suite (tests/runtime/suites/partial.ts, which Vitest in Node, `deno test` and
// `bun test` run too) in a page.
import '../../runtime/suites/partial.ts';
import { cases } from '../../runtime/harness.ts';
import { exposeSuite } from './suite_runner.ts';

exposeSuite(cases());
