// The runtime suites that Node drives: Chromium (tests/browser), workerd (tests/edge), the packed package
// (tests/package) and the examples' smoke runs (examples/*/smoke.test.ts). `bash scripts/test-runtimes.sh` runs
// them with Deno and Bun; alone: `npx vitest run --config tests/runtime/vitest.config.ts [--project browser]`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const project = (name: string, include: string[]) => ({ extends: true as const, test: { name, include } });

export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: {
    // One file at a time: each starts a browser, workerd or a server whose "streamed before the end" checks
    // need the CPU, and CI has two cores.
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
    projects: [
      project('browser', ['tests/browser/**/*.test.ts']),
      project('edge', ['tests/edge/**/*.test.ts']),
      project('package', ['tests/package/**/*.test.ts']),
      project('examples', ['examples/*/smoke.test.ts']),
    ],
  },
});
