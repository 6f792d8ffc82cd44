// Command-line options of bench:parse.
import { DATASETS } from '../datasets.mjs';
import { integer, list, only, parseFlags } from '../harness/cli.mjs';

export const USAGE = `usage: npm run bench:parse -- [options]
  --dataset NAMES  comma-separated: ${Object.keys(DATASETS).join(', ')} (default: all but bigints)
  --only IDS       comma-separated competitor ids or parts of ids, e.g. sluice,ceiling (default: all but
                   sluice-value-bigint-simd, run only when named whole)
  --runs N         runs per competitor; the table shows medians (default: 5)
  --chunk SIZE     chunk size in bytes, or with a k/KiB suffix (default: 64KiB)
  --warm N         N untimed runs in each child before the timed one: steady state, as in a long-running
                   server (default: 0, every run cold in a fresh process)`;

const chunk = (options, text, flag, fail) => {
  const match = /^(\d+)\s*(k|kib|m|mib)?$/i.exec(text ?? '');
  const unit = { k: 1024, kib: 1024, m: 1 << 20, mib: 1 << 20 }[match?.[2]?.toLowerCase()] ?? 1;
  options.chunkSize = match ? Number(match[1]) * unit : NaN;
  if (!(options.chunkSize >= 1)) fail(`${flag} must be a size like 65536 or 64k`);
};

export function parseOptions(argv, competitorIds) {
  const defaults = Object.keys(DATASETS).filter((name) => !DATASETS[name].optIn);
  return parseFlags(
    argv,
    USAGE,
    { datasets: defaults, only: null, runs: 5, chunkSize: 64 * 1024, warm: 0 },
    {
      '--dataset': list('datasets', Object.keys(DATASETS)),
      '--only': only(competitorIds),
      '--runs': integer('runs', 1),
      '--chunk': chunk,
      '--warm': integer('warm', 0),
    },
  );
}

/** An opt-in competitor (options.integers) runs only when --only names its whole id. */
export function selected(options, id, optIn = false) {
  if (optIn) return options.only?.some((part) => id === part.toLowerCase()) ?? false;
  return options.only === null || options.only.some((part) => id.includes(part.toLowerCase()));
}
