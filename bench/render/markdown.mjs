// The generated Markdown: the summary the README shows (the chart, the cross-runtime parse table, the encoder and
// the download sizes) and docs/benchmarks.md, which adds every table the benchmarks printed and how to reproduce
// them. Machine, runtimes, versions and load are named next to the numbers they qualify.
import { markdownTable as parseTable } from '../parse/report.mjs';
import { markdownTable as stringifyTable } from '../stringify/report.mjs';
import { httpTable } from '../stringify/http.mjs';
import { parseMatrix, stringifyMatrix } from './model.mjs';

const MB = 1e6;
const mbps = (v) => (v === null ? '–' : v < 10 ? v.toFixed(1) : v.toFixed(0));
const mib = (v) => (v === null ? '–' : v < 10 ? v.toFixed(1) : v.toFixed(0));
const time = (v) => (v === null || v === undefined ? '–' : v < 10 ? `${v.toFixed(1)} ms` : v < 1000 ? `${v.toFixed(0)} ms` : `${(v / 1000).toFixed(2)} s`);
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const day = (iso) => iso.slice(0, 10);

function loads(results) {
  const values = [];
  const add = (entry) => { if (entry?.loadBefore) values.push(entry.loadBefore[0], entry.loadAfter[0]); };
  for (const kind of ['parse', 'browser', 'engines']) for (const d of results[kind]?.data.datasets ?? []) add(d);
  for (const t of results.stringify?.data.tables ?? []) add(t);
  for (const kind of ['browser', 'engines']) add(results[kind]?.data.stringify);
  return values.length ? { min: Math.min(...values), max: Math.max(...values) } : null;
}

/** One line naming the machine, every runtime measured, the date and the load. */
export function machineLine(results) {
  const env = (results.parse ?? results.browser ?? results.engines ?? results.stringify ?? results.sizes)?.data.environment;
  if (!env) return '';
  const runtimes = [];
  const node = results.parse?.data.environment ?? results.stringify?.data.environment;
  if (node) runtimes.push(`Node ${node.node} (V8 ${node.v8.split('-')[0]})`);
  if (results.browser) runtimes.push(`Chromium ${results.browser.data.browser.version}`);
  for (const r of Object.values(results.engines?.data.runtimes ?? {})) {
    if (r.name !== 'Node') runtimes.push(`${r.name} ${r.version} (${r.engine.replace(/-rusty$/, '')})`);
  }
  const load = loads(results);
  const dates = [...new Set(Object.values(results).map((r) => day(r.data.date)))].sort();
  return `${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}; ${runtimes.join(', ')}; sluice ${env.sluice}; ` +
    `${dates.join(' to ')}` +
    (load ? `; load average ${load.min.toFixed(1)} to ${load.max.toFixed(1)} on ${env.cores} cores` +
      (load.max > env.cores * 0.75 ? ' (a shared machine: absolute numbers are noisy, ratios within a table less so)' : '') : '') +
    '.';
}

// MARK: summary

/** The runs per competitor behind the medians ("3", or "3 to 5" when the benchmarks were run differently). */
function runsOf(results) {
  const counts = [...new Set(['parse', 'browser', 'engines'].map((k) => results[k]?.data.options.runs).filter(Boolean))].sort();
  return counts.length > 1 ? `${counts[0]} to ${counts.at(-1)}` : String(counts[0] ?? '?');
}

function runtimeTable(matrix) {
  const lines = [
    `| library | ${matrix.runtimes.map((r) => r.label).join(' | ')} |`,
    `|---|${matrix.runtimes.map(() => '---:').join('|')}|`,
  ];
  for (const lib of matrix.libraries) {
    const name = lib.key.startsWith('sluice') ? `**${lib.label}**` : lib.label;
    const cells = matrix.runtimes.map((r) => {
      const s = lib.cells[r.key];
      return s ? `${mbps(s.mbps)} MB/s · +${mib(s.rssGrowthMiB)} MiB` : '–';
    });
    lines.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

function firstElementLine(matrix) {
  const node = matrix.runtimes[0];
  if (!node) return '';
  const parts = matrix.libraries.filter((lib) => lib.cells[node.key]?.firstElementMs !== null && lib.cells[node.key])
    .map((lib) => `${lib.label.replace(/ \(whole text\)/, '')} ${time(lib.cells[node.key].firstElementMs)}`);
  return `Time to the first element (${node.label}): ${parts.join(', ')}.`;
}

function stringifySummary(results, assets) {
  const matrix = stringifyMatrix(results);
  if (matrix.libraries.length === 0) return null;
  const source = { array: 'an array', sync: 'a sync generator', async: 'an async generator' };
  const sizes = [...new Set(matrix.runtimes.map((c) => `${c.count.toLocaleString('en-US')} articles from ${source[c.kind]} ` +
    `(${(c.bytes / MB).toFixed(1)} MB of JSON)`))];
  const lines = [
    `![Writing ${(matrix.runtimes[0].bytes / MB).toFixed(0)} MB of JSON: throughput and peak memory growth per library and runtime]` +
      `(${assets}benchmarks-stringify.svg)`,
    '',
    `Writing \`{ _embedded: { articles }, total }\` with ${sizes.join(' (Node), ')}, output consumed as UTF-8 chunks; ` +
      'median MB/s, time to the first byte and peak RSS growth (the other peers in Node only):',
    '',
    `| library | ${matrix.runtimes.map((c) => c.label).join(' | ')} |`,
    `|---|${matrix.runtimes.map(() => '---:').join('|')}|`,
  ];
  for (const lib of matrix.libraries) {
    const cells = matrix.runtimes.map((c) => {
      const x = lib.cells[c.key];
      return x ? `${mbps(x.mbps)} MB/s · ${time(x.firstByteMs)} · +${mib(x.rssGrowthMiB)} MiB` : '–';
    });
    lines.push(`| ${lib.key === 'sluice' ? `**${lib.label}**` : lib.label} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

function sizesSummary(results) {
  const sizes = results.sizes?.data;
  if (!sizes) return null;
  const sluice = sizes.sluice.map((s) => `| **sluice ${s.entry === 'parse' ? '`parseJsonArray`' : 'everything'}, ${s.build === 'simd' ? 'SIMD' : 'scalar'} build** ` +
    `(JS + .wasm) | ${kB(s.total.raw)} | ${kB(s.total.gzip)} |`);
  const peers = sizes.peers.map((p) => `| ${p.name} ${p.version}${p.platform === 'node' ? ' (plus polyfills of Node streams in a browser)' : ''} | ` +
    `${kB(p.raw)} | ${kB(p.gzip)} |`);
  return [
    `What a browser downloads: the package bundled with esbuild ${sizes.esbuild} \`--bundle --minify\`, plus the one \`.wasm\` ` +
      'the loader picks; gzip -9:',
    '',
    '| download | minified | gzip |',
    '|---|---:|---:|',
    ...sluice,
    ...peers,
  ].join('\n');
}

/**
 * The README's benchmark section body (no heading). `assets`: the path from the including document to docs/
 * ('docs/' from the README, '' from docs/benchmarks.md).
 */
export function summaryMarkdown(results, { assets, details = true }) {
  const runs = runsOf(results);
  const matrix = parseMatrix(results, 'articles');
  const parts = [];
  if (matrix.dataset) {
    const d = matrix.dataset;
    parts.push(
      `![Parsing ${(d.bytes / MB).toFixed(0)} MB of JSON: throughput and peak memory growth per library and runtime](${assets}benchmarks.svg)`,
      '',
      `Parsing ${(d.bytes / MB).toFixed(1)} MB of JSON (${d.count.toLocaleString('en-US')} articles at \`${d.path}\`) fed in 64 KiB ` +
        'chunks from memory, every element consumed; median MB/s and peak RSS growth (the process, or the page\'s ' +
        `renderer in Chromium) of ${runs} run${runs === '1' ? '' : 's'}, each in a fresh process:`,
      '',
      runtimeTable(matrix),
      '',
      firstElementLine(matrix),
    );
  }
  for (const section of [stringifySummary(results, assets), sizesSummary(results)]) if (section) parts.push('', section);
  parts.push('', `${machineLine(results)} ${details ? `All tables and the method: [${assets}benchmarks.md](${assets}benchmarks.md); ` +
    'reproduce with `npm run bench`.' : 'Reproduce with `npm run bench`.'}`);
  return parts.join('\n');
}

// MARK: details

function loadLine(entry, cores) {
  return `Load average (1 min) before: ${entry.loadBefore[0].toFixed(2)}, after: ${entry.loadAfter[0].toFixed(2)} on ${cores} cores.`;
}

function parseDetails(results) {
  const r = results.parse?.data;
  if (!r) return [];
  const out = ['## Parse in Node (`npm run bench:parse`)', '',
    `Node ${r.environment.node} (V8 ${r.environment.v8}); peers: ${Object.entries(r.versions).map(([id, v]) => `${id} ${v}`).join(', ')}. ` +
    `${r.options.runs} runs per competitor, each a fresh \`node --expose-gc\` process; ${r.options.chunkSize}-byte chunks; ` +
    '`value` mode gives what `JSON.parse` gives, `bytes` mode each element\'s exact bytes; the ceiling is one ' +
    '`TextDecoder.decode` + `JSON.parse` per chunk of pre-cut element batches (no scanning at all).'];
  for (const d of r.datasets) {
    out.push('', `### ${d.name}: ${(d.bytes / MB).toFixed(1)} MB, ${d.count.toLocaleString('en-US')} elements at \`${d.path}\``, '',
      parseTable(d.competitors.map((c) => ({ label: c.label, summary: c.summary }))), '', loadLine(d, r.environment.cores));
  }
  return out;
}

function browserDetails(results) {
  const r = results.browser?.data;
  if (!r) return [];
  const out = [`## Parse${r.stringify ? ' and stringify' : ''} in Chromium (\`node bench/browser/main.mjs\`)`, '',
    `Chromium ${r.browser.version} (Debian's, headless, driven by playwright-core); @streamparser/json ${r.versions.streamparser} ` +
    `bundled with esbuild ${r.versions.esbuild}. The page fetches the dataset into memory first; sluice loads its \`.wasm\` by ` +
    `URL. ${r.options.runs} runs per competitor, each in a fresh browser context (its own renderer process); peak RSS ` +
    'growth of that renderer, sampled from /proc every 2 ms.'];
  for (const d of r.datasets) {
    out.push('', `### ${d.name}: ${(d.bytes / MB).toFixed(1)} MB`, '',
      parseTable(d.competitors.map((c) => ({ label: c.label, summary: c.summary }))), '', loadLine(d, r.environment.cores));
  }
  if (r.stringify) {
    out.push('', stringifyHeading(r.stringify), '', STRINGIFY_NOTE, '',
      parseTable(r.stringify.competitors.map((c) => ({ label: c.label, summary: c.summary }))), '', loadLine(r.stringify, r.environment.cores));
  }
  return out;
}

const STRINGIFY_NOTE = 'The code of `bench/all/engines/stringify_competitors.mjs`; "time to first element" is the time to ' +
  'the first byte of output; MB/s of output.';

function stringifyHeading(entry) {
  return `### stringify: ${entry.count.toLocaleString('en-US')} articles from an async generator: ${(entry.bytes / MB).toFixed(1)} MB`;
}

function enginesDetails(results) {
  const r = results.engines?.data;
  if (!r) return [];
  const names = Object.values(r.runtimes).map((x) => `${x.name} ${x.version} (${x.engine})`).join(', ');
  const out = [`## Parse${r.stringify ? ' and stringify' : ''} in Deno and Bun (\`node bench/all/engines/main.mjs\`)`, '',
    `${names}: the same competitor code as the page (\`bench/all/engines/competitors.mjs\`), the input read into memory ` +
    `first; ${r.options.runs} runs per competitor, each a fresh process; peak RSS growth sampled from /proc every 2 ms.` +
    (r.skipped?.length ? ` Skipped: ${r.skipped.map((s) => `${s.name} (${s.reason})`).join('; ')}.` : '')];
  for (const d of r.datasets) {
    const rows = d.runtimes.flatMap((rt) => rt.competitors.map((c) => ({ label: `${rt.name} ${rt.version}: ${c.label}`, summary: c.summary })));
    out.push('', `### ${d.name}: ${(d.bytes / MB).toFixed(1)} MB`, '', parseTable(rows), '', loadLine(d, r.environment.cores));
  }
  if (r.stringify) {
    const rows = r.stringify.runtimes.flatMap((rt) => rt.competitors.map((c) => ({ label: `${rt.name} ${rt.version}: ${c.label}`, summary: c.summary })));
    out.push('', stringifyHeading(r.stringify), '', STRINGIFY_NOTE, '', parseTable(rows), '', loadLine(r.stringify, r.environment.cores));
  }
  return out;
}

function stringifyDetails(results) {
  const r = results.stringify?.data;
  if (!r) return [];
  const source = { array: 'an array', sync: 'a sync generator', async: 'an async generator' };
  const out = ['## Stringify in Node (`npm run bench:stringify`)', '',
    `Node ${r.environment.node}; peers: ${Object.entries(r.versions).map(([id, v]) => `${id} ${v}`).join(', ')}. The document is ` +
    '`{ _embedded: { articles: SOURCE }, total: N }`, every competitor\'s output checked byte for byte against ' +
    `\`JSON.stringify\` first; ${r.options.runs} runs per cell, each a fresh process; output consumed as UTF-8 chunks.`];
  for (const t of r.tables) {
    out.push('', `### ${t.count.toLocaleString('en-US')} articles from ${source[t.kind]}: ${(t.bytes / MB).toFixed(1)} MB`, '',
      stringifyTable(t.competitors.map((c) => ({ label: c.label, summary: c.summary }))), '', loadLine(t, r.environment.cores));
  }
  const http = r.http.filter((h) => !h.error);
  if (http.length) {
    out.push('', `### HTTP: a server streaming ${r.options.httpSeconds ? `for ${r.options.httpSeconds} s ` : ''}to 50 connections on 127.0.0.1`, '',
      `Load generator: ${http[0].generator}; client and server share the machine's cores.`, '', httpTable(http));
  }
  return out;
}

function sizesDetails(results) {
  const s = results.sizes?.data;
  if (!s) return [];
  return ['## Download sizes (`node bench/sizes/main.mjs`)', '',
    `esbuild ${s.esbuild} \`--bundle --minify --format=esm\`; gzip -9 (zlib); kB = 1000 bytes. A page loads the JS and one ` +
    'of the two `.wasm` files (SIMD where the engine supports it).', '',
    '| sluice | build | JS | JS gzip | .wasm | .wasm gzip | total | total gzip |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...s.sluice.map((x) => `| ${x.label} | ${x.build} | ${kB(x.js.raw)} | ${kB(x.js.gzip)} | ${kB(x.wasm.raw)} | ${kB(x.wasm.gzip)} | ` +
      `${kB(x.total.raw)} | ${kB(x.total.gzip)} |`),
    '',
    '| peer | version | benchmark | minified | gzip |',
    '|---|---|---|---:|---:|',
    ...s.peers.map((p) => `| ${p.name} | ${p.version} | ${p.use} | ${kB(p.raw)} | ${kB(p.gzip)}${p.platform === 'node' ? ' (without Node built-ins)' : ''} |`),
    '',
    `The package as npm installs it (\`dist/\`, unminified): ${s.shipped.filter((f) => !f.file.endsWith('.wasm')).length} JS files, ` +
      `${kB(s.shipped.filter((f) => !f.file.endsWith('.wasm')).reduce((sum, f) => sum + f.raw, 0))}.`];
}

/** docs/benchmarks.md. */
export function documentMarkdown(results, { command }) {
  return [
    '<!-- Generated by `npm run bench` (bench/render/main.mjs) from bench/results/*.json: edits here are overwritten. -->',
    '# Benchmarks',
    '',
    summaryMarkdown(results, { assets: '', details: false }),
    '',
    ...parseDetails(results), '',
    ...browserDetails(results), '',
    ...enginesDetails(results), '',
    ...stringifyDetails(results), '',
    ...sizesDetails(results), '',
    '## Reproduce', '',
    '```sh',
    `${command}   # this page, its charts (docs/*.svg) and bench/results/*.json`,
    'npm run bench -- --help',
    'npm run bench:parse -- --help; npm run bench:stringify -- --help',
    'node bench/browser/main.mjs --help; node bench/all/engines/main.mjs --help; node bench/sizes/main.mjs',
    'node bench/render/main.mjs        # re-render from the newest results of each kind',
    '```',
    '',
    `Result files: ${Object.values(results).map((r) => `\`${r.file.replace(/^.*\/bench\//, 'bench/')}\``).join(', ')}.`,
    '',
  ].join('\n').replace(/\n{3,}/g, '\n\n');
}
