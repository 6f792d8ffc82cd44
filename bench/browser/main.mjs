// node bench/browser/main.mjs: the engine matrix in Chromium, Firefox and WebKit, a fresh page (page/runner.js) a run.
import { launchEngine, ENGINE_NAMES } from '../../tests/browser/engines/index.mjs';
import { log } from '../harness/cli.mjs';
import { CHUNK_SIZE, matrixMain } from '../harness/matrix.mjs';
import { commandLine, cpuMsOf, descendants, GrowthPeak } from '../harness/proc_rss.mjs';

// A run that takes longer is reported as timed out (WebKit's @streamparser/json at 100 MB can take minutes).
const RUN_TIMEOUT_MS = 90_000;
const SETUP_TIMEOUT_MS = 2 * 60_000;
const ENGINE_OF = { chromium: 'V8', firefox: 'SpiderMonkey', webkit: 'JavaScriptCore' };

// The processes that run web pages among this process's descendants: where a page's memory and CPU time are.
const IS_CONTENT = {
  // Chromium's own UI and extensions are renderers too.
  chromium: (args) =>
    args.includes('--type=renderer') && !args.includes('--extension-process') && !args.includes('webui'),
  // Tab content processes (the other -contentproc are sockets, media, utilities).
  firefox: (args) => args.includes('-contentproc') && args.includes('-isForBrowser'),
  webkit: (args) => /WebKitWebProcess(\s|$)/.test(args),
};

class RunTimeout extends Error {}
const withTimeout = (promise, ms) => {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new RunTimeout(`timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

const launched = {};
const launchOptions = (name) => (name === 'chromium' ? { chromiumArgs: ['--js-flags=--expose-gc'] } : {});

/** One run in a fresh page: set up, baseline, run sampled, close; past RUN_TIMEOUT_MS `timedOut`, the engine anew. */
async function runOnce(name, spec, origin) {
  const engine = launched[name];
  let page = null;
  try {
    page = await withTimeout(engine.open(`${origin}/bench/browser/page/index.html`, { fresh: true }), SETUP_TIMEOUT_MS);
    await withTimeout(page.waitFor("typeof window.benchSetup === 'function'"), SETUP_TIMEOUT_MS);
    await withTimeout(page.call('benchSetup', spec), SETUP_TIMEOUT_MS);
    const pids = descendants(process.pid).filter((pid) => IS_CONTENT[engine.name](commandLine(pid)));
    const sampler = new GrowthPeak(pids);
    const cpuBefore = pids.map(cpuMsOf);
    const rssBaseline = sampler.start();
    let result;
    try {
      result = await withTimeout(page.call('benchRun'), RUN_TIMEOUT_MS);
    } finally {
      result = { ...result, rssBaseline, rssPeak: rssBaseline + sampler.stop() };
    }
    const cpuMs = pids.reduce((sum, pid, i) => sum + ((cpuMsOf(pid) ?? 0) - (cpuBefore[i] ?? 0)), 0);
    await withTimeout(page.close(), SETUP_TIMEOUT_MS).catch(() => {});
    return { ...result, cpuMs };
  } catch (error) {
    if (error instanceof RunTimeout) {
      log(`${name}: ${error.message}: launching it anew`);
      await engine.close().catch(() => {});
      launched[name] = await launchEngine(name, launchOptions(name));
      return { error: error.message, timedOut: true };
    }
    await page?.close().catch(() => {});
    return { error: String(error.message ?? error).split('\n')[0] };
  }
}

await matrixMain({
  kind: 'browser',
  known: [...ENGINE_NAMES],
  where: 'Chromium, Firefox and WebKit',
  packages: { '@streamparser/json': '@streamparser/json', esbuild: '../../node_modules/esbuild' },
  async open(names) {
    const engines = {};
    const labels = {};
    const skipped = [];
    for (const name of names) {
      try {
        const engine = await launchEngine(name, launchOptions(name));
        launched[name] = engine;
        engines[name] = { name: engine.label.split(' ')[0], version: engine.version, engine: ENGINE_OF[name] };
        labels[name] = engine.label;
      } catch (error) {
        skipped.push({ name, reason: String(error.message ?? error).split('\n')[0] });
      }
    }
    return { targets: names.filter((name) => launched[name]), labels, engines, skipped };
  },
  input: (mode, size) =>
    mode === 'http' ? { url: `/paced/${size}.json` } : { dataset: `/data/${size}.json`, chunkSize: CHUNK_SIZE },
  run: runOnce,
  peersLine: (versions, labels) =>
    `Browsers: ${labels.join(', ')} (Debian's; tests/browser/engines); @streamparser/json ` +
    `${versions['@streamparser/json']} bundled with esbuild ${versions.esbuild}; sluice loads its .wasm by URL`,
  close: () => Promise.all(Object.values(launched).map((engine) => engine.close().catch(() => {}))),
});
