// Command-line options of bench:stringify.
import { choice, integer, list, number, only, parseFlags, set } from '../harness/cli.mjs';

export { selected } from '../harness/cli.mjs';
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

export function parseOptions(argv, competitorIds) {
  const defaults = { counts: [100_000, 1_000_000], sources: KINDS, only: null, runs: 3, http: true, tables: true };
  return parseFlags(
    argv,
    USAGE,
    { ...defaults, httpSeconds: 10, load: null },
    {
      '--counts': (options, text, flag, fail) => {
        list('counts', null, Number)(options, text, flag, fail);
        if (options.counts.some((n) => !Number.isInteger(n) || n < 1)) fail(`${flag} takes positive integers`);
      },
      '--sources': list('sources', KINDS),
      '--only': only(competitorIds),
      '--runs': integer('runs', 1),
      '--no-http': set({ http: false }),
      '--http-only': set({ tables: false }),
      '--http-seconds': number('httpSeconds'),
      '--load': choice('load', ['wrk', 'autocannon']),
    },
  );
}
