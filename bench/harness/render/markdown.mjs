// docs/benchmarks.md, each section with machine, versions, dates and load; the README's block (its top, no dates).
import { loadLine, MB, markdownTable, mdTable } from '../stats.mjs';
import { httpSection } from '../../stringify/http.mjs';
import { readResult } from '../save.mjs';
import { renderChart } from './chart.mjs';
import { ceilingDetails, engineColumns, headline, matrixDetails, figure, ratioTable, time, whole } from './matrix.mjs';

const kB = (bytes) => (bytes === null || bytes === undefined ? '–' : `${(bytes / 1000).toFixed(1)} kB`);

const peers = (r) =>
  Object.entries(r.versions)
    .map((pair) => pair.join(' '))
    .join(', ');
const wholeLabel = (mode) => (mode === 'http' ? '`await res.json()`' : '`JSON.parse` of the whole text');

export function headlineChart(results) {
  const matrix = headline(results);
  if (!matrix) return null;
  const { options } = matrix;
  const caption = [
    `Medians of ${options.runs} run${options.runs === 1 ? '' : 's'}, each in a fresh process or page; ` +
      (matrix.mode === 'http'
        ? `fetch() of a response paced at ${options.paceMBps} MB/s on 127.0.0.1`
        : 'fed from memory in 64 KiB chunks') +
      '; every element consumed; memory: peak RSS growth of the process (a browser: its web content processes).',
    `${machineShort(results)}.`,
    'npm run bench · docs/benchmarks.md',
  ];
  const keep = ['sluice-simd', whole(matrix.mode), 'streamparser'];
  const values = (lib) => Object.entries(lib.cells).map(([engine, s]) => [engine, [s.firstElementMs, s.rssGrowthMiB]]);
  const series = matrix.libraries
    .filter((lib) => keep.includes(lib.key))
    .map((lib) => ({ key: lib.key, label: lib.label, own: lib.own, values: Object.fromEntries(values(lib)) }));
  const how = matrix.mode === 'http' ? 'a paced response' : 'memory';
  const title = `Reading ${(matrix.bytes / MB).toFixed(0)} MB of JSON (${matrix.count.toLocaleString('en-US')} articles) from ${how}, in every engine`;
  const panels = [
    { title: 'First element, ms (log scale, lower is better)', log: true, format: figure },
    { title: 'Peak memory growth, MiB (lower is better)', format: figure },
  ];
  return renderChart({ groups: matrix.engines, series }, { title, panels, caption });
}

function everywhere(matrix) {
  const keys = ['sluice-simd', whole(matrix.mode), 'drain'];
  const [sluice, parse, drain] = keys.map((key) => matrix.libraries.find((l) => l.key === key));
  if (!sluice || !parse) return '';
  const engines = matrix.engines.map((e) => e.key);
  // The range over the engines, one figure when the formats agree.
  const of = (l, get, format) => {
    const v = engines.map((e) => l.cells[e] && get(l.cells[e], e)).filter((x) => x !== null && x !== undefined);
    if (v.length === 0) return '–';
    const [lo, hi] = [format(Math.min(...v)), format(Math.max(...v))];
    return lo === hi ? lo : `${lo} to ${hi}`;
  };
  const first = (l) => of(l, (s) => s.firstElementMs, time);
  const memory = (l) => of(l, (s) => s.rssGrowthMiB, figure);
  const after = (l) => of(l, (s, e) => (drain.cells[e] ? Math.max(0, s.ms - drain.cells[e].ms) : null), time);
  const how = matrix.mode === 'http' ? `a response paced at ${matrix.options.paceMBps} MB/s` : 'memory';
  return (
    `Reading ${(matrix.bytes / MB).toFixed(0)} MB from ${how}, in each of the ${engines.length} engines: the first ` +
    `element arrives after ${first(sluice)} with sluice, ${first(parse)} with ${wholeLabel(matrix.mode)}; peak ` +
    `memory grows by ${memory(sluice)} MiB against ${memory(parse)} MiB` +
    (drain ? `; the last element comes ${after(sluice)} after the last byte, against ${after(parse)}.` : '.')
  );
}

function machineShort(results) {
  const env = (results.engines ?? results.browser ?? results.parse)?.data.environment;
  const engines = engineColumns(results).map((e) => `${e.name} ${e.version} (${e.engine.split(' ')[0]})`);
  return env ? `${env.cpu}, ${env.cores} cores; ${engines.join(', ')}; sluice ${env.sluice}` : '';
}

/** `assets`: the path from the including document to docs/. */
export function summaryMarkdown(results, { assets, link }) {
  const matrix = headline(results);
  if (!matrix) return 'No engine matrix results yet: run `npm run bench`.';
  return [
    `![${(matrix.bytes / MB).toFixed(0)} MB of JSON in every engine: time to the first element and peak memory](${assets}benchmarks.svg)`,
    '',
    everywhere(matrix),
    '',
    `Throughput is another matter: sluice's MB/s divided by ${wholeLabel('memory')}'s (in memory) or \`await res.json()\`'s ` +
      '(over the paced response), median MB/s in brackets; below 1× the whole-text parse is faster:',
    '',
    ratioTable(results),
    '',
    `${machineShort(results)}. ${link ? `Method, every table and where each number comes from: [${assets}benchmarks.md](${assets}benchmarks.md).` : ''}`.trim(),
  ].join('\n');
}

function workloadDetails(r, title, method, tables, heading, kind) {
  const out = [title, '', method];
  for (const t of tables) {
    const load = loadLine(t.loadBefore, t.loadAfter, r.environment.cores, false);
    out.push('', heading(t), '', markdownTable(t.competitors, kind), '', load);
  }
  return out;
}

function parseDetails(results) {
  const r = results.parse?.data;
  if (!r) return [];
  const method =
    `Node ${r.environment.node} (V8 ${r.environment.v8}); peers: ${peers(r)}. ${r.options.runs} runs per competitor, ` +
    `each a fresh \`node --expose-gc\` process; ${r.options.chunkSize}-byte chunks; \`value\` mode gives what ` +
    "`JSON.parse` gives, `bytes` mode each element's exact bytes; the ceiling is one `TextDecoder.decode` + " +
    '`JSON.parse` per chunk of pre-cut element batches (no scanning at all).';
  const heading = (d) =>
    `### ${d.name}: ${(d.bytes / MB).toFixed(1)} MB, ${d.count.toLocaleString('en-US')} elements at \`${d.path}\``;
  return workloadDetails(r, '## Parse in Node (`npm run bench:parse`)', method, r.datasets, heading);
}

function stringifyDetails(results) {
  const r = results.stringify?.data;
  if (!r) return [];
  const source = { array: 'an array', sync: 'a sync generator', async: 'an async generator' };
  const method =
    `Node ${r.environment.node}; peers: ${peers(r)}. The document is ` +
    "`{ _embedded: { articles: SOURCE }, total: N }`, every competitor's output checked byte for byte against " +
    `\`JSON.stringify\` first; ${r.options.runs} runs per cell, each a fresh process; output consumed as UTF-8 chunks.`;
  const heading = (t) =>
    `### ${t.count.toLocaleString('en-US')} articles from ${source[t.kind]}: ${(t.bytes / MB).toFixed(1)} MB`;
  const title = '## Stringify in Node (`npm run bench:stringify`)';
  return [...workloadDetails(r, title, method, r.tables, heading, 'stringify'), ...httpSection(r.http, r.options)];
}

export function sizesDetails(results) {
  const s = results.sizes?.data;
  if (!s) return [];
  const js = s.shipped.filter((f) => !f.file.endsWith('.wasm'));
  const both = (m) => [kB(m.raw), kB(m.gzip)];
  const sluice = s.sluice.map((x) => [x.label, x.build, ...[x.js, x.wasm, x.total].flatMap(both), kB(x.budget)]);
  const features = s.features.rows.map((r) => [r.feature, kB(r.alone), kB(r.added), kB(r.saved)]);
  const node = (p) => (p.platform === 'node' ? ' (without Node built-ins)' : '');
  const peers = s.peers.map((p) => [p.name, p.version, p.use, kB(p.raw), kB(p.gzip) + node(p)]);
  const head = ['sluice', 'build', 'JS', 'JS gzip', '.wasm', '.wasm gzip', 'total', 'total gzip', 'budget'];
  return [
    '## Download sizes (`node bench/sizes/main.mjs`)',
    '',
    `esbuild ${s.esbuild} \`--bundle --minify --format=esm\`; gzip -9 (zlib); kB = 1000 bytes. A page loads the JS and ` +
      "one `.wasm` (SIMD where supported): the parser's, or the lazy index's (which holds the parser) where `lazyParse` " +
      "is bundled; none for the pure-JS features. The budget is the total's (docs/decisions.md, 2026-12-06); the " +
      'script exits 1 over it.',
    '',
    ...mdTable(head, sluice, ['---', ...Array(7).fill('---:')]),
    '',
    `The JS of everything (${kB(s.features.all)} gzip) by feature (bench/sizes/features.mjs): "alone", a bundle of that ` +
      'feature\'s exports only; "added", what it adds to the rows above it; "saved", what everything loses without it.',
    '',
    ...mdTable(['feature', 'alone', 'added', 'saved'], features),
    '',
    ...mdTable(['peer', 'version', 'benchmark', 'minified', 'gzip'], peers, ['---', '---', '---:', '---:']),
    '',
    `The installed package (\`dist/\`, unminified): ${js.length} JS files, ${kB(js.reduce((sum, f) => sum + f.raw, 0))}.`,
  ];
}

function cliDetails() {
  const table = readResult('cli/table.md');
  if (table === undefined) return [];
  return [
    '## The command line (`npm run bench:cli`)',
    '',
    '![Extracting $._embedded.articles[*] as NDJSON: MB/s of CPU and peak RSS per command](cli.svg)',
    '',
    table,
    '',
    'Where the time goes, and what each peer is: [cli.md](cli.md).',
  ];
}

// A run of bench:edge with --v8-flags writes table-v8-flags.md, the memory experiment beside the default one.
function edgeDetails() {
  const main = readResult('edge/table.md');
  if (main === undefined) return [];
  const capped = readResult('edge/table-v8-flags.md');
  return [
    '## At the edge: workerd, against @streamparser/json-whatwg (`npm run bench:edge`)',
    '',
    'The same worker written with sluice and as Cloudflare\'s "Stream large JSON" example writes it ' +
      "(`JSONParser`, `paths: ['$.*']`, `keepStack: false`): an upstream array (a service binding to a Node server " +
      'that holds the generated body) reshaped to NDJSON, three fields a row, 64 KiB chunks. CPU is the workerd ' +
      "process's user + system time over the request (/proc; the pid is the workerd binary itself), memory its peak " +
      "RSS (VmHWM), one process per worker and size, and the V8 heap sampled every 100 ms through workerd's inspector " +
      '(`Runtime.getHeapUsage`; the inspector adds about 24 MB to the idle RSS, not to the peak). `passthrough` is the ' +
      "baseline: a worker that returns the upstream's body untouched. @streamparser/json 0.0.26 is the core package " +
      'without the stream wrapper.',
    '',
    '@streamparser/json-whatwg 0.0.22 pins @streamparser/json 0.0.22, whose CPU grows with the square of the rows ' +
      '(in Node, the same pipeline: 10,000 rows 1.86 s, 20,000 rows 7.42 s, 30,000 rows 18.6 s), so at 100 MB it runs ' +
      'under a CPU cap and the table says how far it got.',
    '',
    "Memory: the passthrough's peak shows workerd's own streaming. A parsing worker's peak follows the V8 heap's, " +
      'which V8 lets grow between major collections; the run with the old generation capped (below, when present) ' +
      "shows the live set: what the worker holds, whatever the upstream's size.",
    '',
    main,
    ...(capped === undefined ? [] : ['', "With V8's old generation capped:", '', capped]),
  ];
}

export function documentMarkdown(results) {
  const files = Object.values(results).map((r) => `\`${r.file.replace(/^.*\/bench\//, 'bench/')}\``);
  return [
    '<!-- Generated by `npm run bench` (bench/harness/render/main.mjs) from bench/results/*.json: edits here are overwritten. -->',
    '# Benchmarks',
    '',
    summaryMarkdown(results, { assets: '', link: false }),
    '',
    ...matrixDetails(results),
    '',
    ...ceilingDetails(results),
    '',
    ...parseDetails(results),
    '',
    ...stringifyDetails(results),
    '',
    ...sizesDetails(results),
    '',
    ...cliDetails(),
    '',
    ...edgeDetails(),
    '',
    '## Reproduce',
    '',
    '```sh',
    'npm run bench   # this page, its charts (docs/*.svg) and bench/results/*.json',
    'npm run bench -- --help',
    'npm run bench -- --quick    # a few-minute smoke of the whole pipeline (renders into bench/results/quick/)',
    'node bench/engines/main.mjs --help; node bench/browser/main.mjs --help   # the engine matrix',
    'npm run bench -- --only ceiling --runs 5   # value mode against its ceiling, bytes mode, first element (10 MB)',
    'npm run bench:parse -- --help; npm run bench:stringify -- --help; node bench/sizes/main.mjs',
    'npm run bench:cli -- --runs 3   # the command line against jq, gojq, ndjson-split, fx and simdjson',
    'npm run bench:edge   # workerd: sluice against @streamparser/json-whatwg, to NDJSON (options: bench/edge/main.mjs)',
    'node bench/harness/render/main.mjs        # re-render from the newest results of each kind',
    '```',
    '',
    `Result files: ${files.join(', ')}.`,
    '',
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}
