// The cross-runtime view of the parse results that the summary table and the chart share: one row per library,
// one column per runtime, each cell a summary (median MB/s, peak RSS growth, time to first element). Node comes
// from bench/parse (every peer), Chromium from bench/browser, Deno and Bun from bench/all/engines.

// Library keys, in display order, and the competitor id of each benchmark that measures them.
const LIBRARIES = [
  { key: 'sluice-simd', label: 'sluice (SIMD)', ids: { parse: 'sluice-value-simd', browser: 'sluice-simd', engines: 'sluice-simd' } },
  { key: 'sluice-scalar', label: 'sluice (scalar)', ids: { parse: 'sluice-value-scalar', browser: 'sluice-scalar', engines: 'sluice-scalar' } },
  { key: 'json-parse', label: 'JSON.parse (whole text)', ids: { parse: 'json-parse', browser: 'json-parse', engines: 'json-parse' } },
  { key: 'streamparser', label: '@streamparser/json', package: 'streamparser', ids: { parse: 'streamparser', browser: 'streamparser', engines: 'streamparser' } },
  { key: 'stream-json', label: 'stream-json', package: 'stream-json', ids: { parse: 'stream-json' } },
  { key: 'jsonstream', label: 'JSONStream', package: 'jsonstream', ids: { parse: 'jsonstream' } },
];

const short = (version) => version.split('.').slice(0, 3).join('.');

/** Competitor summaries of `dataset` by runtime: `[{ key, label, byId: { id: summary } }]`. */
function runtimeColumns(results, dataset) {
  const columns = [];
  const parse = results.parse?.data.datasets.find((d) => d.name === dataset);
  if (parse) {
    columns.push({ key: 'node', source: 'parse', label: `Node ${results.parse.data.environment.node}`,
      byId: Object.fromEntries(parse.competitors.map((c) => [c.id, c.summary])) });
  }
  const browser = results.browser?.data.datasets.find((d) => d.name === dataset);
  if (browser) {
    columns.push({ key: 'chromium', source: 'browser', label: `Chromium ${short(results.browser.data.browser.version)}`,
      byId: Object.fromEntries(browser.competitors.map((c) => [c.id, c.summary])) });
  }
  const engines = results.engines?.data.datasets.find((d) => d.name === dataset);
  for (const runtime of engines?.runtimes ?? []) {
    // Node is measured by bench/parse; the engines harness's own Node run is a cross-check shown in the details.
    if (runtime.id === 'node' && parse) continue;
    columns.push({ key: runtime.id, source: 'engines', label: `${runtime.name} ${runtime.version}`,
      byId: Object.fromEntries(runtime.competitors.map((c) => [c.id, c.summary])) });
  }
  return columns;
}

/** `{ dataset, runtimes: [{ key, label }], libraries: [{ key, label, cells: { runtimeKey: summary } }] }` */
export function parseMatrix(results, dataset) {
  const columns = runtimeColumns(results, dataset);
  const versions = results.parse?.data.versions ?? {};
  const libraries = LIBRARIES.map((lib) => {
    const cells = {};
    for (const column of columns) {
      const summary = column.byId[lib.ids[column.source]];
      if (summary?.runs) cells[column.key] = summary;
    }
    const version = lib.package ? versions[lib.package] ?? results.browser?.data.versions?.[lib.package] : null;
    return { key: lib.key, label: version ? `${lib.label} ${version}` : lib.label, cells };
  }).filter((lib) => Object.keys(lib.cells).length > 0);
  const any = (source) => results[source]?.data.datasets.find((d) => d.name === dataset);
  const info = any('parse') ?? any('browser') ?? any('engines');
  return {
    dataset: info ? { name: dataset, bytes: info.bytes, count: info.count, path: info.path } : null,
    runtimes: columns.map(({ key, label }) => ({ key, label })),
    libraries,
  };
}

// MARK: stringify

// Node (bench/stringify) measures every peer; Chromium, Deno and Bun (bench/browser, bench/all/engines) the
// engine-neutral three. Display order; `short` labels fit the chart's label column.
const WRITERS = [
  { key: 'sluice', short: 'sluice stringifyStream' },
  { key: 'whole', short: 'JSON.stringify whole' },
  { key: 'naive', short: 'JSON.stringify per row' },
  { key: 'jsonstream', short: 'JSONStream', package: 'jsonstream' },
  { key: 'json-stream-stringify', short: 'json-stream-stringify', package: 'json-stream-stringify' },
  { key: 'json-ext', short: 'json-ext stringifyChunked', package: 'json-ext' },
];

/**
 * The cross-runtime view of the stringify results, shaped like parseMatrix's (each cell also has `firstByteMs`):
 * `{ runtimes: [{ key, label, count, bytes, kind }], libraries: [{ key, label, short, cells }] }`. Node's column is
 * its async-generator table of the same size as the other runtimes' when there is one, else its biggest.
 */
export function stringifyMatrix(results) {
  const columns = [];
  const cross = results.engines?.data.stringify ?? results.browser?.data.stringify;
  const tables = results.stringify?.data.tables ?? [];
  const async = tables.filter((t) => t.kind === 'async');
  const node = async.find((t) => t.count === cross?.count) ?? [...async].sort((a, b) => b.count - a.count)[0] ?? tables[0];
  const cell = (c, firstByteMs) => ({ label: c.label, mbps: c.summary.mbps, firstByteMs, rssGrowthMiB: c.summary.rssGrowthMiB,
    runs: c.summary.runs });
  if (node) {
    columns.push({ key: 'node', label: `Node ${results.stringify.data.environment.node}`, count: node.count, bytes: node.bytes,
      kind: node.kind, byId: Object.fromEntries(node.competitors.map((c) => [c.id, cell(c, c.summary.firstByteMs)])) });
  }
  const browser = results.browser?.data.stringify;
  if (browser) {
    columns.push({ key: 'chromium', label: `Chromium ${short(results.browser.data.browser.version)}`, count: browser.count,
      bytes: browser.bytes, kind: 'async', byId: Object.fromEntries(browser.competitors.map((c) => [c.id, cell(c, c.summary.firstElementMs)])) });
  }
  const engines = results.engines?.data.stringify;
  for (const runtime of engines?.runtimes ?? []) {
    if (runtime.id === 'node' && node) continue;
    columns.push({ key: runtime.id, label: `${runtime.name} ${runtime.version}`, count: engines.count, bytes: engines.bytes,
      kind: 'async', byId: Object.fromEntries(runtime.competitors.map((c) => [c.id, cell(c, c.summary.firstElementMs)])) });
  }
  const versions = results.stringify?.data.versions ?? {};
  const libraries = WRITERS.map((w) => {
    const cells = {};
    for (const column of columns) if (column.byId[w.key]?.runs) cells[column.key] = column.byId[w.key];
    const any = Object.values(cells)[0];
    const version = w.package ? versions[w.package] : null;
    return { key: w.key, label: any?.label, short: version ? `${w.short} ${version}` : w.short, cells };
  }).filter((lib) => Object.keys(lib.cells).length > 0);
  return { runtimes: columns.map(({ key, label, count, bytes, kind }) => ({ key, label, count, bytes, kind })), libraries };
}
