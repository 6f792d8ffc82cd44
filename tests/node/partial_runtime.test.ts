// The runtime-neutral partial suite (tests/runtime/suites/partial.ts) under Vitest, on each build: the same cases
// `deno test`, `bun test` and the browsers run (scripts/test-runtimes.sh).
import { test } from 'vitest';
import '../runtime/suites/partial.ts';
import { cases } from '../runtime/harness.ts';

for (const { name, run } of cases()) test(name, run);
