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
