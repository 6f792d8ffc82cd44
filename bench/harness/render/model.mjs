// The engine matrix's results as the tables and the chart read them: a column per engine, a row per library.
export const ORDER = ['node', 'deno', 'bun', 'chromium', 'firefox', 'webkit'];
const KINDS = ['engines', 'browser'];

/** Library rows in display order: key, label, the competitor id in memory and over HTTP (null: not there). */
const LIBRARIES = [
  ['drain', 'body read, not parsed (the transfer)', { memory: null }],
  ['sluice-simd', 'sluice (SIMD)', { own: true }],
  ['sluice-scalar', 'sluice (scalar)', { own: true }],
  ['json-parse', 'JSON.parse of the whole text', { http: null }],
  ['res-json', 'await res.json()', { memory: null }],
  ['streamparser', '@streamparser/json', { pkg: '@streamparser/json' }],
  ['stream-json', 'stream-json', { pkg: 'stream-json' }],
  ['jsonstream', 'JSONStream', { pkg: 'JSONStream' }],
].map(([key, label, { memory = key, http = key, own = false, pkg }]) => ({
  key,
  label,
  ids: { memory, http },
  own,
  pkg,
}));

export function engineColumns(results) {
  const columns = KINDS.flatMap((kind) => {
    const data = results[kind]?.data;
    return Object.entries((data?.cells && data.engines) ?? {})
      .filter(([key]) => data.cells.some((c) => c.engine === key))
      .map(([key, { name, version, engine }]) => {
        const label = `${name} ${key === 'chromium' ? version.split('.')[0] : version}`;
        return { key, label, name, version, engine, options: data.options, date: data.date };
      });
  });
  return columns.sort((a, b) => ORDER.indexOf(a.key) - ORDER.indexOf(b.key));
}

const cellsOf = (results) => KINDS.flatMap((kind) => results[kind]?.data.cells ?? []);

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

export function parseMatrix(results, size, mode) {
  const cells = cellsOf(results).filter((c) => c.size === size && c.mode === mode);
  const libraries = LIBRARIES.map((lib) => {
    const out = {};
    for (const cell of cells) {
      const competitor = cell.competitors.find((c) => c.id === lib.ids[mode]);
      if (competitor?.summary.runs) out[cell.engine] = competitor.summary;
      // Every run timed out: the cell says so instead of vanishing.
      else if (competitor?.timedOut)
        out[cell.engine] = { ...competitor.summary, timedOut: true, limitMs: timeoutOf(competitor) };
    }
    const version = lib.pkg ? versionOf(results, lib.pkg) : null;
    return { key: lib.key, label: version ? `${lib.label} ${version}` : lib.label, own: lib.own, cells: out };
  }).filter((lib) => Object.keys(lib.cells).length > 0);
  const engines = engineColumns(results).filter((c) => cells.some((cell) => cell.engine === c.key));
  const { count = 0, bytes = 0 } = cells[0] ?? {};
  return { size, mode, count, bytes, engines: engines.map(({ key, label }) => ({ key, label })), libraries };
}

export function stringifyMatrix(results) {
  const entries = KINDS.map((kind) => results[kind]?.data.stringify).filter(Boolean);
  if (entries.length === 0) return null;
  const byEngine = new Map(entries.flatMap((e) => e.engines.map((engine) => [engine.id, engine])));
  const engines = engineColumns(results).filter((c) => byEngine.has(c.key));
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
  return {
    count: [...new Set(entries.map((e) => e.count))].map((n) => n.toLocaleString('en-US')).join(' / '),
    bytes: entries[0].bytes,
    engines: engines.map(({ key, label }) => ({ key, label })),
    libraries,
  };
}

export function runInfo(results, kinds) {
  const dates = new Set(kinds.map((k) => results[k]?.data.date?.slice(0, 16).replace('T', ' ')).filter(Boolean));
  const loads = kinds.flatMap((k) => (results[k]?.data.cells ?? []).flatMap((c) => [c.loadBefore[0], c.loadAfter[0]]));
  const load = loads.length ? `${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}` : '–';
  return { dates: [...dates].join(' and '), load };
}
