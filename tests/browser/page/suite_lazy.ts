// The runtime-neutral lazy suite (tests/runtime/suites/lazy.ts, which `deno test` and `bun test` run too) in a page.
import '../../runtime/suites/lazy.ts';
import { cases } from '../../runtime/harness.ts';
import { exposeSuite } from './suite_runner.ts';

exposeSuite(cases());
