// The engine matrix's results as its tables and chart read them, and docs/benchmarks.md's sections on them.
import { matrixMethod } from '../matrix.mjs';
import { MB, mdTable, msWith } from '../stats.mjs';

const ORDER = ['node', 'deno', 'bun', 'chromium', 'firefox', 'webkit'];
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
].map(([key, label, { memory = key, http = key, own, pkg }]) => ({ key, label, ids: { memory, http }, own, pkg }));

export const figure = (v) => (v === null || v === undefined ? '–' : v < 10 ? v.toFixed(1) : v.toFixed(0));
export const time = msWith(1, 0);
const sizeLabel = (size) => size.replace(/MB$/, ' MB');
export const whole = (mode) => (mode === 'http' ? 'res-json' : 'json-parse');

export function engineColumns(results) {
  const columns = KINDS.flatMap((kind) => {
    const data = results[kind]?.data;
    return Object.entries((data?.cells && data.engines) ?? {})
      .filter(([key]) => data.cells.some((c) => c.engine === key))
      .map(([key, { name, version, engine }]) => {
        const label = `${name} ${key === 'chromium' ? version.split('.')[0] : version}`;
        return { key, label, name, version, engine };
      });
  });
  return columns.sort((a, b) => ORDER.indexOf(a.key) - ORDER.indexOf(b.key));
}

const cellsOf = (results) => KINDS.flatMap((kind) => results[kind]?.data.cells ?? []);

const timeoutOf = (competitor) =>
  Number(/after (\d+) s/.exec(competitor.runs.find((r) => r.timedOut)?.error ?? '')?.[1] ?? 0) * 1000;

function parseMatrix(results, size, mode) {
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
    const version = KINDS.map((kind) => results[kind]?.data.versions?.[lib.pkg]).find(Boolean);
    return { key: lib.key, label: version ? `${lib.label} ${version}` : lib.label, own: lib.own, cells: out };
  }).filter((lib) => Object.keys(lib.cells).length > 0);
  const engines = engineColumns(results).filter((c) => cells.some((cell) => cell.engine === c.key));
  const { count = 0, bytes = 0 } = cells[0] ?? {};
  return { size, mode, count, bytes, engines, libraries };
}

function runInfo(results, kinds) {
  const dates = new Set(kinds.map((k) => results[k]?.data.date?.slice(0, 16).replace('T', ' ')).filter(Boolean));
  const loads = kinds.flatMap((k) => (results[k]?.data.cells ?? []).flatMap((c) => [c.loadBefore[0], c.loadAfter[0]]));
  const load = loads.length ? `${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}` : '–';
  return { dates: [...dates].join(' and '), load };
}

/** Every size's matrix in each mode: in memory first, sizes ascending. */
function matrices(results) {
  const cells = cellsOf(results);
  const sizes = [...new Set(cells.map((c) => c.size))].sort((a, b) => parseFloat(a) - parseFloat(b));
  const modes = ['memory', 'http'].filter((m) => cells.some((c) => c.mode === m));
  return modes.flatMap((mode) => sizes.map((size) => parseMatrix(results, size, mode)));
}

/** Per size and mode, sluice (SIMD)'s and the whole-text parse's median MB/s in each engine: [column, a, b]. */
function againstWhole(results) {
  const engines = engineColumns(results);
  return matrices(results).map(({ mode, size, libraries }) => {
    const [sluice, parse] = ['sluice-simd', whole(mode)].map((key) => libraries.find((l) => l.key === key));
    const pairs = engines.map((e) => [e, sluice?.cells[e.key]?.mbps, parse?.cells[e.key]?.mbps]);
    return { mode, size, parse, pairs };
  });
}
/** The cell the chart and the paragraph are about: the largest size over HTTP (else in memory), the last matrix. */
export function headline(results) {
  const matrix = matrices(results).at(-1);
  return matrix && { ...matrix, options: (results.engines ?? results.browser).data.options };
}

export function ratioTable(results) {
  const engines = engineColumns(results);
  const rows = againstWhole(results).map(({ mode, size, pairs }) => [
    `${sizeLabel(size)}${mode === 'http' ? ', paced response, vs res.json()' : ' in memory, vs JSON.parse'}`,
    ...pairs.map(([, a, b]) => (a && b ? `${(a / b).toFixed(2)}× (${figure(a)} / ${figure(b)})` : '–')),
  ]);
  return mdTable(['sluice (SIMD) ÷ whole-text parse', ...engines.map((e) => e.label)], rows).join('\n');
}

const summaryCell = (s) => `${figure(s.mbps)} MB/s · ${time(s.firstElementMs)} · +${figure(s.rssGrowthMiB)} MiB`;

function table(matrix) {
  const drain = matrix.libraries.find((l) => l.key === 'drain');
  const rows = matrix.libraries.map((lib) => [
    lib.own ? `**${lib.label}**` : lib.label,
    ...matrix.engines.map((e) => {
      const s = lib.cells[e.key];
      if (!s) return '–';
      if (!s.runs && s.timedOut) return `did not finish in ${time(s.limitMs)}`;
      const parts = [`${figure(s.mbps)} MB/s`, `first ${time(s.firstElementMs)}`, `+${figure(s.rssGrowthMiB)} MiB`];
      if (matrix.mode === 'http' && lib !== drain && drain?.cells[e.key])
        parts.push(`end +${time(Math.max(0, s.ms - drain.cells[e.key].ms))}`);
      if (s.failed) parts.push(`${s.failed} of ${s.failed + s.runs} runs failed or timed out`);
      return parts.join(' · ');
    }),
  ]);
  return mdTable(['library', ...matrix.engines.map((e) => e.label)], rows).join('\n');
}

function wins(results) {
  return againstWhole(results).flatMap(({ mode, size, parse, pairs }) =>
    pairs.flatMap(([e, a, b]) => {
      const where = `${e.label}, ${sizeLabel(size)} ${mode === 'http' ? 'over HTTP' : 'in memory'}`;
      return a && b && b > a ? [`${where}: ${parse.label} ${figure(b)} MB/s, sluice (SIMD) ${figure(a)} MB/s`] : [];
    }),
  );
}

export function matrixDetails(results) {
  const columns = engineColumns(results);
  if (columns.length === 0) return [];
  const { options, environment: env } = (results.engines ?? results.browser).data;
  const all = matrices(results);
  const [sizes, modes] = ['size', 'mode'].map((key) => [...new Set(all.map((m) => m[key]))]);
  const { dates, load } = runInfo(results, ['engines', 'browser']);
  const skipped = ['engines', 'browser'].flatMap((k) => results[k]?.data.skipped ?? []);
  const list = (items) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items[0]);
  const how = modes.map((m) => (m === 'http' ? 'over HTTP' : 'in memory'));
  const cells = all.flatMap((m) => {
    const source = m.mode === 'http' ? `over a response paced at ${options.paceMBps} MB/s` : 'in memory';
    const heading = `### ${sizeLabel(m.size)} (${(m.bytes / MB).toFixed(1)} MB, ${m.count.toLocaleString('en-US')} articles), ${source}`;
    return ['', heading, '', table(m)];
  });
  const lost = wins(results);
  return [
    `## Every engine: ${list(sizes.map(sizeLabel))}, ${list(how)}`,
    '',
    `\`node bench/engines/main.mjs\` (Node, Deno, Bun: a child process per run) and \`node bench/browser/main.mjs\` ` +
      '(Chromium, Firefox, WebKit: a fresh page per run, driven by `tests/browser/engines`), the same competitor code in ' +
      `every engine. ${columns.map((c) => `${c.name} ${c.version} (${c.engine})`).join(', ')}; ${env.cpu}, ${env.cores} cores, ` +
      `${env.memoryGiB} GiB, ${env.os}; run ${dates} UTC, load average ${load}` +
      `${skipped.length ? `; skipped: ${skipped.map((s) => `${s.name} (${s.reason})`).join(', ')}` : ''}.`,
    '',
    matrixMethod(options),
    '',
    "Browser pages are cross-origin isolated (COOP/COEP headers) for `performance.now()`'s full resolution in Firefox " +
      'and WebKit; Chromium runs with `--js-flags=--expose-gc` and collects garbage before each run, Firefox and WebKit ' +
      'give pages no `gc()` (each run is a fresh page). Browser memory: the growth of the web content processes, not ' +
      'of the network process that buffers a response. Each cell: median MB/s · time to the first element · peak ' +
      'memory growth' +
      (modes.includes('http')
        ? ' · over HTTP, "end": the last element\'s delay after the transfer alone (first row: body read and dropped).'
        : '.'),
    ...cells,
    '',
    '### Where parsing the whole text wins',
    '',
    lost.length
      ? `Median MB/s of \`JSON.parse\` (or \`res.json()\`) above sluice (SIMD)'s in ${lost.length} of the cells above:\n\n${lost.map((l) => `- ${l}`).join('\n')}`
      : 'Nowhere in this run: sluice (SIMD) had the higher median MB/s in every cell.',
    ...writersDetails(results),
  ];
}

function writersDetails(results) {
  const entries = KINDS.map((kind) => results[kind]?.data.stringify).filter(Boolean);
  if (entries.length === 0) return [];
  const byEngine = new Map(entries.flatMap((e) => e.engines.map((engine) => [engine.id, engine])));
  const engines = engineColumns(results).filter((c) => byEngine.has(c.key));
  const ids = [...new Set(entries.flatMap((e) => e.engines.flatMap((engine) => engine.competitors.map((c) => c.id))))];
  const rows = ids.map((id) => {
    const found = engines.map((e) => byEngine.get(e.key).competitors.find((c) => c.id === id));
    const label = found.findLast(Boolean)?.label ?? id;
    return [
      id === 'sluice' ? `**${label}**` : label,
      ...found.map((c) => (c?.summary.runs ? summaryCell(c.summary) : '–')),
    ];
  });
  const count = [...new Set(entries.map((e) => e.count))].map((n) => n.toLocaleString('en-US')).join(' / ');
  return [
    '',
    `### Writing ${(entries[0].bytes / MB).toFixed(1)} MB (${count} articles from an async generator)`,
    '',
    'The code of `bench/competitors/stringify.mjs`; each cell: median MB/s of output · time to the first byte · peak memory growth.',
    '',
    ...mdTable(['writer', ...engines.map((e) => e.label)], rows),
  ];
}

const BUILDS = { simd: 'SIMD', scalar: 'scalar' };
const GOALS = { ceiling: 0.9, peer: 2, bytesMBps: 500, firstMs: 10 };

const mark = (text, ok) => (ok === false ? `${text} ✗` : text);
const ratio = (a, b) => (a && b ? a / b : null);
const times = (v) => (v === null ? '–' : `${v.toFixed(2)}x`);

function ceilingRows(results) {
  const rows = [];
  for (const kind of ['ceiling-engines', 'ceiling-browser']) {
    const data = results[kind]?.data;
    for (const { engine, bytes, count, competitors } of data?.cells ?? []) {
      const s = (id) => competitors.find((c) => c.id === id)?.summary ?? null;
      const mbpsOf = (id) => s(id)?.mbps ?? null;
      const [utf8, ascii, peer] = ['ceiling', 'ceiling-ascii', 'streamparser'].map(mbpsOf);
      const ceiling = Math.max(utf8 ?? 0, ascii ?? 0) || null;
      const info = data.engines?.[engine];
      for (const [build, label] of Object.entries(BUILDS)) {
        const [value, scan, bytesMode] = ['', 'none-', 'bytes-'].map((mode) => mbpsOf(`sluice-${mode}${build}`));
        const ofCeiling = ratio(value, ceiling);
        const ofPeer = ratio(value, peer);
        const first = s(`sluice-${build}`)?.firstElementMs ?? null;
        const cells = [
          info ? `${info.name} ${info.version}` : engine,
          label,
          `${figure(utf8)} / ${figure(ascii)} MB/s`,
          `${figure(value)} MB/s`,
          mark(times(ofCeiling), ofCeiling === null || ofCeiling >= GOALS.ceiling),
          `${figure(scan)} MB/s`,
          // Value mode scans, then decodes and parses at best as fast as the ceiling: at most scan / (scan + ceiling).
          times(scan && ceiling ? scan / (scan + ceiling) : null),
          `${figure(peer)} MB/s`,
          mark(times(ofPeer), ofPeer === null || ofPeer >= GOALS.peer),
          mark(`${figure(bytesMode)} MB/s`, build !== 'simd' || bytesMode === null || bytesMode >= GOALS.bytesMBps),
          mark(time(first), first === null || first <= GOALS.firstMs),
        ];
        rows.push({ engine, bytes, count, cells });
      }
    }
  }
  return rows.sort((a, b) => ORDER.indexOf(a.engine) - ORDER.indexOf(b.engine));
}

export function ceilingDetails(results) {
  const rows = ceilingRows(results);
  if (rows.length === 0) return [];
  const data = results['ceiling-browser']?.data ?? results['ceiling-engines']?.data;
  const { dates, load } = runInfo(results, ['ceiling-engines', 'ceiling-browser']);
  const first = rows[0];
  const lines = [
    `## Value mode against its ceiling: ${(first.bytes / 1e6).toFixed(1)} MB (${first.count.toLocaleString('en-US')} articles) in memory`,
    '',
    '`npm run bench -- --only ceiling` (`node bench/engines/main.mjs --ceiling` and `node bench/browser/main.mjs ' +
      `--ceiling\`), run ${dates} UTC, load average ${load}; medians of ${data.options.runs} run${data.options.runs === 1 ? '' : 's'}, each a ` +
      'fresh process or page, interleaved. The ceiling: the elements value mode delivers, in its batches (those each ' +
      '64 KiB chunk completes, as one JSON array text, cut before the clock starts), turned into values by just one ' +
      "`TextDecoder.decode` + `JSON.parse` per batch; the faster of two forms, the elements' own UTF-8 bytes or the " +
      "ASCII-escaped text sluice's wasm writes. Value mode: the whole parse (copy into wasm, scan, batch, decode, " +
      "`JSON.parse`). Bytes mode: each element's bytes as a `Uint8Array`. Scan only: a path that selects nothing " +
      '(copy into wasm, scan, validation of every byte). Bound: scan / (scan + ceiling), the most value / ceiling ' +
      'can be with that scan, as value mode does both in turn. First element: from the first `push()` to the first ' +
      'element, in a fresh page (when its last byte arrived). ✗: short of the goal in the header (issue 17).',
    '',
  ];
  const head = ['engine', 'build', 'ceiling UTF-8 / ASCII', 'value mode', `value / ceiling (≥ ${GOALS.ceiling})`];
  head.push('scan only', 'bound', '@streamparser/json', `value / it (≥ ${GOALS.peer})`);
  head.push(`bytes mode (≥ ${GOALS.bytesMBps} SIMD)`, `first element (≤ ${GOALS.firstMs} ms)`);
  const cells = rows.map((row) => row.cells);
  return [...lines, ...mdTable(head, cells, ['---', ...Array(9).fill('---:')])];
}
