// Command-line options of bench:stringify, validated eagerly with messages that name the bad value.
export const KINDS = ['array', 'sync', 'async'];

export const USAGE = `usage: npm run bench:stringify -- [options]
  --counts LIST    comma-separated article counts (default: 100000,1000000)
  --sources LIST   comma-separated: ${KINDS.join(', ')} (default: all)
  --only IDS       comma-separated competitor ids or parts of ids, e.g. sluice,floor (default: all)
  --runs N         runs per competitor and source; the tables show medians (default: 3)
  --no-http        skip the HTTP run
  --http-only      only the HTTP run
  --http-seconds S duration of each HTTP run (default: 10)
  --load NAME      HTTP load generator: wrk or autocannon (default: wrk when installed, else autocannon)`;

function list(text, flag) {
  const items =
    text
      ?.split(',')
      .map((item) => item.trim())
      .filter(Boolean) ?? [];
  if (items.length === 0) throw new RangeError(`${flag} needs a value\n${USAGE}`);
  return items;
}

export function parseOptions(argv, competitorIds) {
  const options = {
    counts: [100_000, 1_000_000],
    sources: KINDS,
    only: null,
    runs: 3,
    http: true,
    tables: true,
    httpSeconds: 10,
    load: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--counts':
        options.counts = list(value(), flag).map(Number);
        if (options.counts.some((n) => !Number.isInteger(n) || n < 1)) {
          throw new RangeError(`--counts takes positive integers\n${USAGE}`);
        }
        break;
      case '--sources':
        options.sources = list(value(), flag);
        for (const kind of options.sources) {
          if (!KINDS.includes(kind)) throw new RangeError(`--sources: unknown source "${kind}"\n${USAGE}`);
        }
        break;
      case '--only': {
        options.only = list(value(), flag);
        const unmatched = options.only.filter((part) => !competitorIds.some((id) => id.includes(part.toLowerCase())));
        if (unmatched.length) {
          throw new RangeError(`--only: "${unmatched.join(',')}" matches none of ${competitorIds.join(', ')}`);
        }
        break;
      }
      case '--runs':
        options.runs = Number(value());
        if (!Number.isInteger(options.runs) || options.runs < 1)
          throw new RangeError(`--runs must be an integer >= 1\n${USAGE}`);
        break;
      case '--no-http':
        options.http = false;
        break;
      case '--http-only':
        options.tables = false;
        break;
      case '--http-seconds':
        options.httpSeconds = Number(value());
        if (!(options.httpSeconds > 0)) throw new RangeError(`--http-seconds must be > 0\n${USAGE}`);
        break;
      case '--load':
        options.load = value();
        if (options.load !== 'wrk' && options.load !== 'autocannon') {
          throw new RangeError(`--load must be wrk or autocannon\n${USAGE}`);
        }
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

export function selected(options, id) {
  return options.only === null || options.only.some((part) => id.includes(part.toLowerCase()));
}
