// The page side of the browser matrix: main.mjs calls benchSetup(), takes the RSS baseline, then benchRun().
import { depsLoader, prepareRun, timeRun } from '/bench/competitors/matrix.mjs';

let pending = null;

const dist = new URL('/dist/', location.href);
const deps = depsLoader(dist, (build) => new URL(`sluice.${build}.wasm`, dist), '/streamparser.js');

window.benchSetup = async (spec) => {
  const input = async () => new Uint8Array(await (await fetch(spec.dataset, { cache: 'no-store' })).arrayBuffer());
  const url = spec.url && new URL(spec.url, location.href).href;
  pending = await prepareRun(
    { ...spec, url },
    {
      input,
      deps: async (competitor) => {
        const loaded = await deps(competitor);
        // The stringify runs load the SIMD build before the baseline, as a page using the package would.
        if (spec.bench === 'stringify') await loaded.sluice.init(loaded.wasm.simd);
        return loaded;
      },
    },
  );
  // Only Chromium gives pages a gc(): elsewhere a run starts from a fresh page whose only garbage is the setup's.
  globalThis.gc?.();
  globalThis.gc?.();
  return { userAgent: navigator.userAgent, isolated: globalThis.crossOriginIsolated === true };
};

window.benchRun = async () => {
  const run = pending;
  pending = null;
  return timeRun(run);
};
