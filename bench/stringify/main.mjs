// npm run bench:stringify: sluice's encoder against JSON.stringify and the peers, each run a fresh process; then HTTP.
import os from 'node:os';
import { articleArray, articleRow, preparePool } from '../articles.mjs';
import { makeDocument, makeStringifyContext } from '../competitors/stringify.mjs';
import { COMPETITORS } from '../competitors/stringify_node.mjs';
import { integer, list, log, only, readFlags, selected, set } from '../harness/cli.mjs';
import { startReport, withVersions } from '../harness/environment.mjs';
import { measureTable, runIn } from '../harness/runtime.mjs';
import { finish } from '../harness/save.mjs';
import { loadLine } from '../harness/stats.mjs';
import { httpRun, httpSection } from './http.mjs';

const VERIFY_COUNT = 3000;
const HTTP_COUNT = 100_000;
const HTTP_CONNECTIONS = 50;
const PEERS = ['json-stream-stringify', '@discoveryjs/json-ext', 'JSONStream', 'autocannon'];
const SOURCES = { array: 'an array', sync: 'a sync generator', async: 'an async generator' };
const SERVERS = { sluice: 'sluice StreamedJsonResponse', whole: 'JSON.stringify whole' };

const options = readFlags(
  `usage: npm run bench:stringify -- [options]
  --counts LIST    comma-separated article counts (default: 100000,1000000)
  --sources LIST   comma-separated: ${Object.keys(SOURCES).join(', ')} (default: all)
  --only IDS       comma-separated competitor ids or parts of ids, e.g. sluice,floor (default: all)
  --runs N         runs per competitor and source; the tables show medians (default: 3)
  --no-http        skip the HTTP run (10 s per server)`,
  { counts: [100_000, 1_000_000], sources: Object.keys(SOURCES), only: null, runs: 3, http: true, httpSeconds: 10 },
  {
    '--counts': (options, text, flag, fail) => {
      list('counts', null, Number)(options, text, flag, fail);
      if (options.counts.some((n) => !Number.isInteger(n) || n < 1)) fail(`${flag} takes positive integers`);
    },
    '--sources': list('sources', Object.keys(SOURCES)),
    '--only': only(COMPETITORS.map((c) => c.id)),
    '--runs': integer('runs', 1),
    '--no-http': set({ http: false }),
  },
);

/** `competitor`'s output against JSON.stringify's: the same bytes, or the same JSON (other escaping). */
async function verify(competitor, count, deps) {
  const expected = Buffer.from(JSON.stringify(makeDocument({ count }, articleArray(count))));
  const run = await competitor.setup(deps);
  const verdicts = [];
  for (const kind of ['array', 'sync', 'async']) {
    const chunks = [];
    const context = makeStringifyContext({ kind, count, sampled: false });
    await run({ ...context, onChunk: (c) => chunks.push(Buffer.from(c)) });
    const output = Buffer.concat(chunks);
    let verdict = 'DIFFERENT';
    try {
      if (competitor.id === 'floor') verdict = 'rows only (no framing)';
      else if (output.equals(expected)) verdict = 'identical bytes';
      else if (JSON.stringify(JSON.parse(output)) === expected.toString()) verdict = 'same JSON, other escaping';
    } catch {} // not JSON: different
    verdicts.push({ kind, verdict });
  }
  return verdicts;
}

function documentBytes(count) {
  preparePool();
  let bytes = `{"_embedded":{"articles":[]},"total":${count}}`.length + Math.max(0, count - 1);
  for (let i = 0; i < count; i++) bytes += Buffer.byteLength(JSON.stringify(articleRow(i)));
  return bytes;
}

const { versions, competitors } = withVersions(COMPETITORS.filter((c) => selected(options, c.id)));
const sluice = await import(new URL('../../dist/index.js', import.meta.url).href);
const method = `Method (bench/README.md, bench:stringify): medians of ${options.runs} runs per cell, each a fresh process.`;
const { env, results } = startReport('bench:stringify', PEERS, method, { versions, options, verify: {}, tables: [] });
let problems = 0;

// Correctness first: a competitor that writes another document would make its speed meaningless.
console.log(`\n## Output check (${VERIFY_COUNT} articles, against JSON.stringify)\n`);
console.log('| competitor | array | sync generator | async generator |\n|---|---|---|---|');
for (const c of competitors) {
  const verdicts = await verify(c, VERIFY_COUNT, { sluice });
  results.verify[c.id] = verdicts;
  if (verdicts.some((v) => v.verdict === 'DIFFERENT')) problems++;
  console.log(`| ${c.label} | ${verdicts.map((v) => v.verdict).join(' | ')} |`);
}

for (const count of options.counts) {
  const bytes = documentBytes(count);
  for (const kind of options.sources) {
    const table = await measureTable({
      runs: options.runs,
      competitors,
      bytes,
      kind: 'stringify',
      cores: env.cores,
      tag: `${count} ${kind}`,
      runOnce: async (c) => {
        const spec = { bench: 'stringify', competitor: c.id, kind, count, sampled: false };
        // The whole-document competitors need ~2.5 GB at a million articles.
        const r = await runIn('node', spec, { node: ['--expose-gc', '--max-old-space-size=8192'] });
        return { ...r, firstByteMs: r.firstElementMs };
      },
      // The floor writes the rows alone, without the document's framing.
      check: (c, r) =>
        c.id === 'floor' || r.bytes === bytes ? undefined : `wrote ${r.bytes} bytes, expected ${bytes}`,
    });
    problems += table.failures;
    const title = `## ${count.toLocaleString('en')} articles from ${SOURCES[kind]}: ${(bytes / 1e6).toFixed(1)} MB`;
    console.log(['', title, '', table.markdown].join('\n'));
    const { loadBefore, loadAfter, entries } = table;
    results.tables.push({ count, kind, bytes, loadBefore, loadAfter, competitors: entries });
  }
}

results.http = [];
if (options.http && selected(options, 'sluice')) {
  const loadBefore = os.loadavg();
  const run = { count: HTTP_COUNT, connections: HTTP_CONNECTIONS, seconds: options.httpSeconds };
  for (const [impl, label] of Object.entries(SERVERS)) {
    log(`[http] ${label}: ${HTTP_CONNECTIONS} connections, ${options.httpSeconds} s, ${HTTP_COUNT} articles each`);
    const result = await httpRun(impl, run).catch((error) => ({ error: error.message }));
    results.http.push({ label, ...result });
    if (result.error) log(`[http] ${label} FAILED: ${result.error}`);
  }
  problems += results.http.filter((h) => h.error).length;
  console.log([...httpSection(results.http, options), '', loadLine(loadBefore, os.loadavg())].join('\n'));
}

finish('stringify', results, problems);
console.log(`Command: npm run bench:stringify -- ${process.argv.slice(2).join(' ')}`.trimEnd());
