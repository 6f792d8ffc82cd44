// The cross-engine parse matrix that `npm run bench` measures in every engine (Node, Deno and Bun through
// bench/engines; Chromium, Firefox and WebKit through bench/browser): the articles dataset at three sizes,
// fed from memory and streamed over a paced HTTP response on 127.0.0.1. Both harnesses take the same options
// and write their cells in the same shape, which bench/harness/render reads.
import { ensureDataset, fileSize } from '../datasets.mjs';
import { integer, list, number, parseFlags, set } from './cli.mjs';

/** Size name -> articles (about 418 bytes each): 1.05, 10.5 and 104.6 MB. */
export const SIZES = { '1MB': 2_500, '10MB': 25_000, '100MB': 250_000 };
export const MODES = ['memory', 'http'];
export const PATH = '$._embedded.articles[*]';
export const FIELD = 'id';
export const CHUNK_SIZE = 64 * 1024;
/** The paced response's rate: 50 MB/s (400 Mbit/s), a fast connection. 0: as fast as the loopback goes. */
export const DEFAULT_PACE_MBPS = 50;

/** Options both harnesses share; `extra` adds the harness's own (its list flag and its defaults). */
export const MATRIX_USAGE = `  --runs N          runs per competitor in each cell; tables show medians (default 3)
  --sizes LIST      comma-separated: ${Object.keys(SIZES).join(', ')} (default: all)
  --modes LIST      comma-separated: memory (the input fed from memory in 64 KiB chunks), http (a paced response
                    fetched on 127.0.0.1) (default: both)
  --pace MBPS       the paced response's rate in MB/s (default ${DEFAULT_PACE_MBPS}; 0: unpaced)
  --stringify-count N  articles written by the stringify runs (default 100000; 0: no stringify runs)
  --ceiling         measure value mode against its ceiling instead (bench/competitors/parse.mjs's
                    CEILING_COMPETITORS: value mode, decode + JSON.parse of pre-cut batches, bytes mode and
                    @streamparser/json; defaults then: --sizes 10MB --modes memory --stringify-count 0)`;

/**
 * Parses the shared options and the harness's list flag (`--runtimes` or `--engines`).
 * @param {string[]} argv
 * @param {{ flag: string, known: string[], defaults: string[], usage: string }} targets
 */
export function parseMatrixOptions(argv, targets) {
  const defaults = { runs: 3, sizes: Object.keys(SIZES), modes: [...MODES], paceMBps: DEFAULT_PACE_MBPS };
  const options = parseFlags(
    argv,
    targets.usage,
    { ...defaults, stringifyCount: 100_000, targets: [...targets.defaults], ceiling: false },
    {
      '--runs': integer('runs', 1),
      '--sizes': list('sizes', Object.keys(SIZES)),
      '--modes': list('modes', MODES),
      '--pace': number('paceMBps', true),
      '--stringify-count': integer('stringifyCount', 0),
      [targets.flag]: list('targets', targets.known),
      '--ceiling': set({ ceiling: true }),
    },
  );
  if (options.ceiling) {
    const given = new Set(argv.map((arg) => arg.split('=')[0]));
    if (!given.has('--sizes')) options.sizes = ['10MB'];
    if (!given.has('--modes')) options.modes = ['memory'];
    if (!given.has('--stringify-count')) options.stringifyCount = 0;
    if (options.modes.includes('http')) throw new RangeError(`--ceiling runs in memory only\n${targets.usage}`);
  }
  return options;
}

/**
 * The dataset files of `sizes`, generated when missing: `{ size: { file, count, bytes } }`.
 * @param {string[]} sizes
 * @param {(line: string) => void} log
 */
export async function matrixDatasets(sizes, log) {
  const out = {};
  for (const size of sizes) {
    const file = await ensureDataset('articles', SIZES[size], { log });
    out[size] = { file, count: SIZES[size], bytes: fileSize(file) };
  }
  return out;
}

/** The method text both harnesses print and the renderer repeats. */
export function methodLines(options) {
  return [
    'Method: The articles dataset (bench/gen-dataset.mjs) at each size; every element at ' +
      `${PATH} is consumed (counted,`,
    'its id summed into a checksum every competitor must agree on). memory: the input is in memory before the clock',
    'starts and is fed in 64 KiB subarrays (JSON.parse: one TextDecoder.decode of the whole input, then JSON.parse).',
    `http: fetch() of a response the harness serves on 127.0.0.1 in 64 KiB writes paced at ${options.paceMBps || 'unlimited'}` +
      `${options.paceMBps ? ' MB/s' : ''}; the clock starts at`,
    'fetch(). Time to first element: from the start to the first element delivered. Peak memory growth: the peak RSS',
    'of the process running the competitor (a browser: its web content processes) sampled every 2 ms from /proc,',
    `minus its RSS once set up. Medians of ${options.runs} run${options.runs === 1 ? '' : 's'}, each a fresh process (a browser: a fresh page in a new`,
    'context; WebKit: a new browser process), interleaved round-robin; MB = 10^6 bytes.',
  ];
}
