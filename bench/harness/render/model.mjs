// The cross-engine view of the results that the tables and the chart share: the engine matrix's cells (Node,
// Deno and Bun from bench/engines; Chromium, Firefox and WebKit from bench/browser), one column per engine,
// one row per library, each cell a summary (median MB/s, time to first element, peak memory growth, ms).

export const ORDER = ['node', 'deno', 'bun', 'chromium', 'firefox', 'webkit'];

/** Library rows in display order: the competitor id in memory and over HTTP, and a short label for the chart. */
const library = (key, label, { memory = key, http = key, own = false, pkg } = {}) => ({
  key,
  ids: { memory, http },
  label,
  own,
  package: pkg,
});
export const LIBRARIES = [
  library('drain', 'body read, not parsed (the transfer)', { memory: null }),
  library('sluice-simd', 'sluice (SIMD)', { own: true }),
  library('sluice-scalar', 'sluice (scalar)', { own: true }),
  library('json-parse', 'JSON.parse of the whole text', { http: null }),
  library('res-json', 'await res.json()', { memory: null }),
  library('streamparser', '@streamparser/json', { pkg: '@streamparser/json' }),
  library('stream-json', 'stream-json', { pkg: 'stream-json' }),
  library('jsonstream', 'JSONStream', { pkg: 'JSONStream' }),
];

/** The engines measured, in display order: `[{ key, label, name, version, engine, options }]`. */
export function engineColumns(results) {
  const columns = [];
  for (const kind of ['engines', 'browser']) {
    const data = results[kind]?.data;
    if (!data?.cells) continue;
    for (const [key, info] of Object.entries(data.engines ?? {})) {
      if (!data.cells.some((c) => c.engine === key)) continue;
      const version = key === 'chromium' ? info.version.split('.').slice(0, 1).join('.') : info.version;
      columns.push({
        key,
        label: `${info.name} ${version}`,
        name: info.name,
        version: info.version,
        engine: info.engine,
        options: data.options,
        date: data.date,
      });
    }
  }
  return columns.sort((a, b) => ORDER.indexOf(a.key) - ORDER.indexOf(b.key));
}

function cellsOf(results) {
  return ['engines', 'browser'].flatMap((kind) => results[kind]?.data.cells ?? []);
}

/** Sizes and modes present, in the order measured. */
export function matrixShape(results) {
  const cells = cellsOf(results);
  return {
    sizes: [...new Set(cells.map((c) => c.size))].sort((a, b) => parseFloat(a) - parseFloat(b)),
    modes: ['memory', 'http'].filter((m) => cells.some((c) => c.mode === m)),
  };
}

const timeoutOf = (competitor) =>
  Number(/after (\d+) s/.exec(competitor.runs.find((r) => r.timedOut)?.error ?? '')?.[1] ?? 0) * 1000;
const versionOf = (results, pkg) => results.engines?.data.versions?.[pkg] ?? results.browser?.data.versions?.[pkg];

/**
 * One size and mode: `{ size, mode, count, bytes, engines: [{ key, label }], libraries: [{ key, label, own,
 * cells: { engineKey: summary } }] }`; summaries of runs that all failed are left out.
 */
export function parseMatrix(results, size, mode) {
  const columns = engineColumns(results);
  const cells = cellsOf(results).filter((c) => c.size === size && c.mode === mode);
  const libraries = LIBRARIES.map((lib) => {
    const id = lib.ids[mode];
    const out = {};
    for (const cell of cells) {
      const competitor = cell.competitors.find((c) => c.id === id);
      if (competitor?.summary.runs) out[cell.engine] = competitor.summary;
      // Every run timed out: the cell says so instead of vanishing.
      else if (competitor?.timedOut)
        out[cell.engine] = { ...competitor.summary, timedOut: true, limitMs: timeoutOf(competitor) };
    }
    const version = lib.package ? versionOf(results, lib.package) : null;
    return { key: lib.key, label: version ? `${lib.label} ${version}` : lib.label, own: lib.own, cells: out };
  }).filter((lib) => Object.keys(lib.cells).length > 0);
  const any = cells[0];
  return {
    size,
    mode,
    count: any?.count ?? 0,
    bytes: any?.bytes ?? 0,
    engines: columns
      .filter((c) => cells.some((cell) => cell.engine === c.key))
      .map(({ key, label }) => ({ key, label })),
    libraries,
  };
}

/** The stringify runs of every engine: `{ count, bytes, engines: [{ key, label }], libraries: [{ key, label, cells }] }`. */
export function stringifyMatrix(results) {
  const columns = engineColumns(results);
  const entries = ['engines', 'browser'].map((kind) => results[kind]?.data.stringify).filter(Boolean);
  if (entries.length === 0) return null;
  const byEngine = new Map(entries.flatMap((e) => e.engines.map((engine) => [engine.id, engine])));
  const engines = columns.filter((c) => byEngine.has(c.key));
  const ids = [...new Set(entries.flatMap((e) => e.engines.flatMap((engine) => engine.competitors.map((c) => c.id))))];
  const libraries = ids.map((id) => {
    const cells = {};
    let label = id;
    for (const column of engines) {
      const competitor = byEngine.get(column.key).competitors.find((c) => c.id === id);
      if (competitor?.summary.runs) cells[column.key] = competitor.summary;
      label = competitor?.label ?? label;
    }
    return { key: id, label, cells };
  });
  const counts = [...new Set(entries.map((e) => e.count))];
  return {
    count: counts.map((n) => n.toLocaleString('en-US')).join(' / '),
    bytes: entries[0].bytes,
    engines: engines.map(({ key, label }) => ({ key, label })),
    libraries,
  };
}

/** When and under what load the results of `kinds` were measured: 'DATE and DATE', 'LOW to HIGH'. */
export function runInfo(results, kinds) {
  const dates = new Set(kinds.map((k) => results[k]?.data.date?.slice(0, 16).replace('T', ' ')).filter(Boolean));
  const loads = kinds.flatMap((k) => (results[k]?.data.cells ?? []).flatMap((c) => [c.loadBefore[0], c.loadAfter[0]]));
  const load = loads.length ? `${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}` : '–';
  return { dates: [...dates].join(' and '), load };
}
