// The runtime-neutral API suite (tests/runtime) under `bun test`, on the build SLUICE_BUILD names.
// Run: SLUICE_BUILD=scalar npx bun test ./tests/bun/
import { test } from 'bun:test';
import { cases, loadBuild, requestedBuild } from '../runtime/all.ts';

const build = requestedBuild();
await loadBuild(build);

// The conformance cases feed hundreds of files byte by byte: far past bun's 5 s default on a loaded CI machine.
for (const { name, run } of cases()) test(`${build}: ${name}`, run, 120_000);
