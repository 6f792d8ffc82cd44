// Every suite in tests/node runs twice, once per wasm build: project `simd` loads dist/sluice.simd.wasm and
// project `scalar` dist/sluice.scalar.wasm (tests/support/setup_build.ts checks which one actually loaded). The long
// suites (SLOW_SUITES) are projects of their own, `slow-simd` and `slow-scalar`, so that `npm run test:js` (project
// `simd`) stays a quick loop; `npx vitest run` and `npm test` run all four.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

// Suites that take a minute or more on CI's 2 cores whatever their sizes (hundreds of MB through the parser or the
// encoder, timing ratios, child processes that fill memory): what they prove needs the size or the time.
const SLOW_SUITES = [
  'tests/node/parser_user_code.test.ts',
  'tests/node/parser_memory.test.ts',
  'tests/node/lazy_memory.test.ts',
  'tests/node/open_json_stream.test.ts',
  'tests/node/stringify_limits.test.ts',
  'tests/node/partial_linear.test.ts',
  'tests/node/sse_linear.test.ts',
];

const build = (name: 'simd' | 'scalar', slow: boolean) => ({
  extends: true as const,
  test: {
    name: slow ? `slow-${name}` : name,
    include: slow ? SLOW_SUITES : ['tests/node/**/*.test.ts'],
    exclude: slow ? [] : SLOW_SUITES,
    setupFiles: ['tests/support/setup_build.ts'],
    provide: { sluiceBuild: name },
  },
});

// SLUICE_TEST_SOURCES=1 (`npm run test:js:src`): the suites' own imports of dist/*.js run js/*.ts instead, so that
// a TypeScript change is tested without `npm run build`. The .wasm files still come from dist/ (the two modules
// that name them, parser_wasm and lazy_wasm, stay dist's), and what runs in a child process (the command line,
// tests/support/*.mjs children) is still dist/: a change there needs the build.
const root = fileURLToPath(new URL('.', import.meta.url));
function fromSources(): Plugin {
  const dist = `${root}dist/`;
  const js = `${root}js/`;
  const keptInDist = new Set(['parser_wasm', 'lazy_wasm']);
  return {
    name: 'sluice-test-sources',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved === null || resolved.external) return resolved;
      const id = resolved.id;
      for (const [from, ext, to, toExt] of [
        [dist, '.js', js, '.ts'],
        [js, '.ts', dist, '.js'],
      ] as const) {
        if (!id.startsWith(from) || !id.endsWith(ext)) continue;
        const name = id.slice(from.length, -ext.length);
        // dist -> js for everything but the two wasm locators; js -> dist for those two only.
        if (keptInDist.has(name) !== (from === js)) continue;
        const target = `${to}${name}${toExt}`;
        if (existsSync(target)) return target;
      }
      return resolved;
    },
  };
}

export default defineConfig({
  plugins: process.env.SLUICE_TEST_SOURCES === '1' ? [fromSources()] : [],
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
    projects: [build('simd', false), build('scalar', false), build('simd', true), build('scalar', true)],
  },
});
