// Every suite in tests/node runs twice, once per wasm build: project `simd` loads dist/sluice.simd.wasm and
// project `scalar` dist/sluice.scalar.wasm (tests/support/setup_build.ts checks which one actually loaded).
import { defineConfig } from 'vitest/config';

const build = (name: 'simd' | 'scalar') => ({
  extends: true as const,
  test: {
    name,
    include: ['tests/node/**/*.test.ts'],
    setupFiles: ['tests/support/setup_build.ts'],
    provide: { sluiceBuild: name },
  },
});

export default defineConfig({
  test: {
    // Child processes, not threads: each file gets its own wasm instance, and a crash or a leak stays contained.
    pool: 'forks',
    // Vitest defaults to one worker fewer than the cores: 1 on CI's 2 cores. The main process only waits for
    // results, so both cores can run suites.
    maxWorkers: 2,
    // The conformance and differential suites feed thousands of inputs byte by byte; on a 2-core CI machine
    // under load (both projects run in parallel) a single test can take tens of seconds.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    projects: [build('simd'), build('scalar')],
  },
});
