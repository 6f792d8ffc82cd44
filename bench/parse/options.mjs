// Command-line options of bench:parse, validated eagerly with messages that name the bad value.
import { DATASETS } from '../datasets.mjs';

export const USAGE = `usage: npm run bench:parse -- [options]
  --dataset NAMES  comma-separated: ${Object.keys(DATASETS).join(', ')} (default: all but bigints)
  --only IDS       comma-separated competitor ids or parts of ids, e.g. sluice,ceiling (default: all but
                   sluice-value-bigint-simd, run only when named whole)
  --runs N         runs per competitor; the table shows medians (default: 5)
  --chunk SIZE     chunk size in bytes, or with a k/KiB suffix (default: 64KiB)
  --warm N         N untimed runs in each child before the timed one: steady state, as in a long-running
                   server (default: 0, every run cold in a fresh process)`;

function parseSize(text) {
  const match = /^(\d+)\s*(k|kib|m|mib)?$/i.exec(text ?? '');
  if (!match) return NaN;
  const unit = { k: 1024, kib: 1024, m: 1 << 20, mib: 1 << 20 }[match[2]?.toLowerCase()] ?? 1;
  return Number(match[1]) * unit;
}

export function parseOptions(argv, competitorIds) {
  const defaults = Object.keys(DATASETS).filter((name) => !DATASETS[name].optIn);
  const options = { datasets: defaults, only: null, runs: 5, chunkSize: 64 * 1024, warm: 0 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--dataset':
        options.datasets = value()?.split(',').filter(Boolean) ?? [];
        for (const name of options.datasets) {
          if (!DATASETS[name]) throw new RangeError(`--dataset: unknown dataset "${name}"\n${USAGE}`);
        }
        if (options.datasets.length === 0) throw new RangeError(`--dataset needs a name\n${USAGE}`);
        break;
      case '--only': {
        options.only = value()?.split(',').filter(Boolean) ?? [];
        const unmatched = options.only.filter((part) => !competitorIds.some((id) => id.includes(part.toLowerCase())));
        if (options.only.length === 0 || unmatched.length) {
          throw new RangeError(`--only: "${unmatched.join(',')}" matches none of ${competitorIds.join(', ')}`);
        }
        break;
      }
      case '--runs':
        options.runs = Number(value());
        if (!Number.isInteger(options.runs) || options.runs < 1)
          throw new RangeError(`--runs must be an integer >= 1\n${USAGE}`);
        break;
      case '--chunk':
        options.chunkSize = parseSize(value());
        if (!Number.isInteger(options.chunkSize) || options.chunkSize < 1)
          throw new RangeError(`--chunk must be a size like 65536 or 64k\n${USAGE}`);
        break;
      case '--warm':
        options.warm = Number(value());
        if (!Number.isInteger(options.warm) || options.warm < 0)
          throw new RangeError(`--warm must be an integer >= 0\n${USAGE}`);
        break;
      case '--help':
      case '-h':
        options.help = true;
        break;
      default:
        throw new RangeError(`unknown option ${argv[i]}\n${USAGE}`);
    }
  }
  return options;
}

/** An opt-in competitor (options.integers) runs only when --only names its whole id. */
export function selected(options, id, optIn = false) {
  if (optIn) return options.only?.some((part) => id === part.toLowerCase()) ?? false;
  return options.only === null || options.only.some((part) => id.includes(part.toLowerCase()));
}
