// npm run bench:stringify: sluice's encoder against JSON.stringify, the streaming peers and the JS floor, writing
// `{ _embedded: { articles: SOURCE }, total: N }` (the article shape of bench/gen-dataset.mjs) from an array, a sync
// generator and an async generator; then an HTTP run (wrk or autocannon, 50 connections) against a server streaming
// with sluice and one answering with JSON.stringify of the whole document. Every timed run is a fresh child process
// (child.mjs); runs are interleaved round-robin so that drift of the machine hits every competitor alike.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { articleRow, preparePool } from '../articles.mjs';
import { existsSync } from 'node:fs';
import { COMPETITORS } from '../competitors/stringify_node.mjs';
import { httpRun, httpTable, loadGenerator } from './http.mjs';
import { parseOptions, selected, USAGE } from './options.mjs';
import { targetTable } from './report.mjs';
import { runChild } from '../harness/fork.mjs';
import { saveResults } from '../harness/save.mjs';
import { loadLine, markdownTable, summarise } from '../harness/stats.mjs';
import { verify } from './verify.mjs';
import { environment, packageVersion } from '../harness/environment.mjs';
import { readOptions } from '../harness/cli.mjs';

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const SAMPLE_INTERVAL_MS = 1;
const VERIFY_COUNT = 3000;
const HTTP_COUNT = 100_000;
const HTTP_CONNECTIONS = 50;
const PEERS = ['json-stream-stringify', '@discoveryjs/json-ext', 'JSONStream', 'autocannon'];
const SOURCE_LABEL = { array: 'an array', sync: 'a sync generator', async: 'an async generator' };

const options = readOptions(
  () =>
    parseOptions(
      process.argv.slice(2),
      COMPETITORS.map((c) => c.id),
    ),
  USAGE,
);

const log = (line) => process.stderr.write(`${line}\n`);

// The whole-document competitors need ~2.5 GB at a million articles.
const CHILD_FLAGS = ['--expose-gc', '--max-old-space-size=8192'];

/** UTF-8 length of JSON.stringify of the document: what every competitor writes (the floor: its rows). */
function documentBytes(count) {
  preparePool();
  let bytes = `{"_embedded":{"articles":[]},"total":${count}}`.length + Math.max(0, count - 1);
  for (let i = 0; i < count; i++) bytes += Buffer.byteLength(JSON.stringify(articleRow(i)));
  return bytes;
}

const env = environment();
const competitors = COMPETITORS.filter((c) => selected(options, c.id));
const versions = Object.fromEntries(competitors.filter((c) => c.package).map((c) => [c.id, packageVersion(c.package)]));
const labelOf = (c) => (versions[c.id] ? `${c.label} ${versions[c.id]}` : c.label);
const ENCODER = new URL('../../dist/encode/index.js', import.meta.url);
// sluice's row needs dist/ built; the others run without it.
const available = (c) => c.id !== 'sluice' || existsSync(fileURLToPath(ENCODER));
const measured = competitors.filter(available);
const missing = competitors.filter((c) => !available(c));

console.log(
  [
    '# bench:stringify',
    '',
    `Machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}`,
    `Runtime: Node ${env.node}, V8 ${env.v8}; sluice ${env.sluice}`,
    `Peers: ${PEERS.map((p) => `${p} ${packageVersion(p)}`).join(', ')}`,
    '',
    'Method:',
    '- the document is `{ _embedded: { articles: SOURCE }, total: N }`; an article is the shape of',
    '  bench/gen-dataset.mjs (~410 bytes of JSON with escapes and non-ASCII), a fresh object per row sharing the',
    '  flat strings of 4096 distinct articles (a database driver hands out fresh rows of flat strings).',
    '- SOURCE is an array built before the run, or a sync or async generator building each row when asked.',
    '- output is consumed as UTF-8 chunks (peers that produce strings pay a TextEncoder.encode per chunk), each',
    '  chunk counted; peers that take no generators (whole JSON.stringify, json-ext) collect the rows first, in the',
    '  timed part; json-stream-stringify reads generators through Readable.from (its way to stream rows).',
    '- MB/s = document bytes (10^6) per second; medians of ' + `${options.runs} runs per cell.`,
    '- each run is a fresh child process (node --expose-gc), cold; runs interleaved round-robin across competitors.',
    `- peak RSS growth = max(RSS sampled every ${SAMPLE_INTERVAL_MS} ms by a worker thread, RSS after) minus the`,
    '  baseline after setup (modules loaded, the array built for the array source) and a GC.',
    '- first byte: from the start of the run; after first row: from the moment the source handed out its first row.',
  ].join('\n'),
);
if (missing.length) console.log(`\nSkipped (dist/ not built): ${missing.map((c) => c.id).join(', ')}`);

const results = {
  date: new Date().toISOString(),
  environment: env,
  versions,
  options,
  verify: {},
  tables: [],
  http: [],
};
let problems = 0;

if (options.tables) {
  // Correctness first: a competitor that writes another document would make its speed meaningless.
  console.log(`\n## Output check (${VERIFY_COUNT} articles, against JSON.stringify)\n`);
  console.log('| competitor | array | sync generator | async generator |\n|---|---|---|---|');
  for (const c of measured) {
    const verdicts = await verify(c, VERIFY_COUNT, available(c) ? { sluice: await import(ENCODER.href) } : {});
    results.verify[c.id] = verdicts;
    if (verdicts.some((v) => v.verdict === 'DIFFERENT')) problems++;
    console.log(`| ${labelOf(c)} | ${verdicts.map((v) => v.verdict).join(' | ')} |`);
  }

  for (const count of options.counts) {
    const bytes = documentBytes(count);
    for (const kind of options.sources) {
      const loadBefore = os.loadavg();
      const runs = Object.fromEntries(measured.map((c) => [c.id, []]));
      for (let run = 1; run <= options.runs; run++) {
        for (const c of measured) {
          const spec = { competitor: c.id, kind, count, sampleIntervalMs: SAMPLE_INTERVAL_MS };
          const result = await runChild(CHILD, spec, CHILD_FLAGS);
          const expectedBytes = c.id === 'floor' ? null : bytes;
          if (!result.error && expectedBytes !== null && result.bytes !== expectedBytes) {
            result.error = `wrote ${result.bytes} bytes, expected ${expectedBytes}`;
          }
          runs[c.id].push(result);
          const shown = result.error
            ? `FAILED: ${result.error}`
            : `${(bytes / 1e6 / (result.ms / 1000)).toFixed(1)} MB/s`;
          log(`[${count} ${kind} ${run}/${options.runs}] ${labelOf(c).padEnd(72)} ${shown}`);
        }
      }
      const loadAfter = os.loadavg();
      const byId = Object.fromEntries(
        measured.map((c) => [c.id, summarise(bytes, runs[c.id], ['firstByteMs', 'firstByteAfterRowMs'])]),
      );
      problems += Object.values(runs)
        .flat()
        .filter((r) => r.error).length;
      const rows = competitors.map((c) => ({
        label: labelOf(c),
        summary: byId[c.id],
        note: available(c) ? undefined : 'not built',
      }));
      const targets = targetTable(byId);
      console.log(
        [
          '',
          `## ${count.toLocaleString('en')} articles from ${SOURCE_LABEL[kind]}: ${(bytes / 1e6).toFixed(1)} MB`,
          '',
          markdownTable(rows, 'stringify'),
          '',
          loadLine(loadBefore, loadAfter, env.cores),
          ...(targets ? ['', targets.markdown] : []),
        ].join('\n'),
      );
      results.tables.push({
        count,
        kind,
        bytes,
        loadBefore,
        loadAfter,
        competitors: measured.map((c) => ({ id: c.id, label: labelOf(c), summary: byId[c.id], runs: runs[c.id] })),
        targets: targets?.values ?? null,
      });
    }
  }
}

if (options.http && measured.some((c) => c.id === 'sluice')) {
  const loadBefore = os.loadavg();
  const generator = await loadGenerator(options.load);
  const http = [];
  for (const [impl, label] of [
    ['sluice', 'sluice StreamedJsonResponse'],
    ['whole', 'JSON.stringify whole'],
  ]) {
    log(
      `[http] ${label}: ${generator.name}, ${HTTP_CONNECTIONS} connections, ${options.httpSeconds} s, ${HTTP_COUNT} articles per response`,
    );
    try {
      const run = { count: HTTP_COUNT, connections: HTTP_CONNECTIONS, seconds: options.httpSeconds, generator };
      http.push({ label, ...(await httpRun(impl, run)) });
    } catch (error) {
      problems++;
      http.push({ label, error: error.message });
      log(`[http] ${label} FAILED: ${error.message}`);
    }
  }
  results.http = http;
  const ok = http.filter((r) => !r.error);
  const [streamed, whole] = [ok.find((r) => r.impl === 'sluice'), ok.find((r) => r.impl === 'whole')];
  const lines = [
    '',
    `## HTTP: ${HTTP_COUNT.toLocaleString('en')} articles per response from an async generator, ${generator.name} ` +
      `${HTTP_CONNECTIONS} connections, ${options.httpSeconds} s, 127.0.0.1`,
    '',
    `Server: node:http, one process; sluice's body written chunk by chunk (waiting for 'drain'), the whole document ` +
      `with res.end(). requests/s counts responses completed within the ${options.httpSeconds} s.` +
      ` Load: ${generator.name} ${generator.version}` +
      `${generator.name === 'autocannon' ? ' (a JavaScript client, itself the bottleneck here: see http.mjs).' : '.'}`,
    '',
    httpTable(ok),
    '',
    `Load average (1 min) before: ${loadBefore[0].toFixed(2)}, after: ${os.loadavg()[0].toFixed(2)}; client and ` +
      `server share the ${env.cores} cores.`,
  ];
  if (streamed && whole) {
    const rps = streamed.requestsPerSecond / whole.requestsPerSecond;
    const rss = streamed.serverRssPeakMiB / whole.serverRssPeakMiB;
    const shownRps = Number.isFinite(rps) ? `${rps.toFixed(2)}×` : `${streamed.requests} vs 0 completed`;
    lines.push(
      '',
      '| sluice vs whole | measured | target | |',
      '|---|---:|---|---|',
      `| requests/s ratio | ${shownRps} | ≥ 1× | ${rps >= 1 ? 'met' : 'NOT met'} |`,
      `| server peak RSS ratio | ${rss.toFixed(2)}× | ≤ 0.2× | ${rss <= 0.2 ? 'met' : 'NOT met'} |`,
    );
  }
  console.log(lines.join('\n'));
}

saveResults('stringify', results);
console.log(`Command: npm run bench:stringify -- ${process.argv.slice(2).join(' ')}`.trimEnd());
if (problems) {
  console.error(`bench:stringify: ${problems} problem(s) above`);
  process.exitCode = 1;
}
