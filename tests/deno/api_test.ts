// The runtime-neutral API suite (tests/runtime) under `deno test`, on the build SLUICE_BUILD names.
// Run: SLUICE_BUILD=scalar npx deno test --allow-read --allow-env --allow-net=127.0.0.1 tests/deno/
import { cases, loadBuild, requestedBuild } from '../runtime/all.ts';

const build = requestedBuild();
await loadBuild(build);

for (const { name, run } of cases()) Deno.test(`${build}: ${name}`, run);
