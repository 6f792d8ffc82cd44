// The runtime-neutral API suite (tests/runtime/api.ts, which `deno test` and `bun test` run too) in a page.
import '../../runtime/api.ts';
import { cases } from '../../runtime/harness.ts';
import { exposeSuite } from './suite_runner.ts';

exposeSuite(cases());
