// The runtime-neutral API suite (tests/runtime/all.ts, what `deno test` and `bun test` run) in a page.
import { cases } from '../../runtime/all.ts';
import { exposeSuite } from './suite_runner.ts';

exposeSuite(cases());
