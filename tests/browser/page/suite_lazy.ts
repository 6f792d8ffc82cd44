// The runner-neutral lazy suite (tests/browser/suites/lazy.ts) in a page.
import '../suites/lazy.ts';
import { cases } from '../../runtime/harness.ts';
import { exposeSuite } from './suite_runner.ts';

exposeSuite(cases());
