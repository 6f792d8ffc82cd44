// The runtime-neutral event stream writer suite (tests/runtime/suites/sse_write.ts) under Vitest, behind a
// node:http server: the same cases `deno test` (Deno.serve) and `bun test` (Bun.serve) run.
import { test } from 'vitest';
import '../runtime/suites/sse_write.ts';
import { cases } from '../runtime/harness.ts';

for (const { name, run } of cases()) test(name, run, 30_000);
