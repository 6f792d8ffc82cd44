// Runs the cases of a runner-neutral suite (tests/runtime/harness.ts) in the page, one build per page: the test
// (tests/browser/api.test.ts, lazy.test.ts) calls sluiceSuite.run({ build }) and asserts on the summary.
import { init } from '../../../dist/index.js';
import { loadedBuildKind } from '../../../dist/internal.js';
import type { TestCase } from '../../runtime/harness.ts';

export interface CaseResult {
  readonly name: string;
  readonly ms: number;
  /** `Name: message` of what the case threw, or null when it passed. */
  readonly error: string | null;
}

export function exposeSuite(cases: readonly TestCase[]): void {
  const suite = {
    names: () => cases.map((c) => c.name),
    async run({ build }: { build: 'simd' | 'scalar' }) {
      await init(`/dist/sluice.${build}.wasm`);
      const results: CaseResult[] = [];
      for (const { name, run } of cases) {
        const started = performance.now();
        let error: string | null = null;
        try {
          await run();
        } catch (e) {
          error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        }
        results.push({ name, ms: Math.round(performance.now() - started), error });
      }
      return { kind: loadedBuildKind(), results };
    },
  };
  Object.assign(globalThis, { sluiceSuite: suite, sluiceReady: true });
}
