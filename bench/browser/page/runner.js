// The page side of the browser matrix: main.mjs calls benchSetup(), takes the RSS baseline, then benchRun().
import { depsLoader, prepareRun, timeRun } from '/bench/competitors/matrix.mjs';

let pending = null;

const dist = new URL('/dist/', location.href);
const load = depsLoader(dist, (build) => new URL(`sluice.${build}.wasm`, dist), '/streamparser.js');

window.benchSetup = async (spec) => {
  const input = async () => new Uint8Array(await (await fetch(spec.dataset, { cache: 'no-store' })).arrayBuffer());
  const deps = async (competitor) => {
    const loaded = await load(competitor);
    // The stringify runs load the SIMD build before the baseline, as a page using the package would.
    if (spec.bench === 'stringify') await loaded.sluice.init(loaded.wasm.simd);
    return loaded;
  };
  pending = await prepareRun({ ...spec, url: spec.url && new URL(spec.url, location.href).href }, { input, deps });
  // Only Chromium gives pages a gc(): elsewhere a run starts from a fresh page whose only garbage is the setup's.
  globalThis.gc?.();
  globalThis.gc?.();
  return { userAgent: navigator.userAgent, isolated: globalThis.crossOriginIsolated === true };
};

window.benchRun = () => timeRun(pending);
