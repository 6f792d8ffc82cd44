// The README's benchmark block (and the top of docs/benchmarks.md): the chart, a paragraph, the ratio table; no dates.
import { mdTable, msWith } from '../stats.mjs';
import { renderChart } from './chart.mjs';
import { engineColumns, matrixShape, parseMatrix } from './model.mjs';

const MB = 1e6;
export const mbps = (v) => (v === null || v === undefined ? '–' : v < 10 ? v.toFixed(1) : v.toFixed(0));
export const mib = mbps;
export const time = msWith(1, 0);
export const sizeLabel = (size) => size.replace(/MB$/, ' MB');
const whole = (mode) => (mode === 'http' ? 'res-json' : 'json-parse');
const wholeLabel = (mode) => (mode === 'http' ? '`await res.json()`' : '`JSON.parse` of the whole text');

/** The cell the chart and the paragraph are about: the largest size over HTTP (else in memory). */
export function headline(results) {
  const { sizes, modes } = matrixShape(results);
  if (sizes.length === 0) return null;
  const mode = modes.includes('http') ? 'http' : 'memory';
  return parseMatrix(results, sizes.at(-1), mode);
}

const range = (values, format) => {
  const v = values.filter((x) => x !== null && x !== undefined);
  if (v.length === 0) return '–';
  const [lo, hi] = [Math.min(...v), Math.max(...v)];
  return format(lo) === format(hi) ? format(lo) : `${format(lo)} to ${format(hi)}`;
};

export function headlineChart(matrix, caption) {
  const keep = ['sluice-simd', whole(matrix.mode), 'streamparser'];
  const values = (lib) => Object.entries(lib.cells).map(([engine, s]) => [engine, [s.firstElementMs, s.rssGrowthMiB]]);
  const series = matrix.libraries
    .filter((lib) => keep.includes(lib.key))
    .map((lib) => ({ key: lib.key, label: lib.label, own: lib.own, values: Object.fromEntries(values(lib)) }));
  const how = matrix.mode === 'http' ? 'a paced response' : 'memory';
  const format = (v) => (v < 10 ? v.toFixed(1) : v.toFixed(0));
  const title = `Reading ${(matrix.bytes / MB).toFixed(0)} MB of JSON (${matrix.count.toLocaleString('en-US')} articles) from ${how}, in every engine`;
  const panels = [
    { title: 'First element, ms (log scale, lower is better)', log: true, format },
    { title: 'Peak memory growth, MiB (lower is better)', format },
  ];
  return renderChart({ groups: matrix.engines, series }, { title, panels, caption });
}

function everywhere(matrix) {
  const lib = (key) => matrix.libraries.find((l) => l.key === key);
  const sluice = lib('sluice-simd');
  const parse = lib(whole(matrix.mode));
  if (!sluice || !parse) return '';
  const engines = matrix.engines.map((e) => e.key);
  const drain = lib('drain');
  const of = (l, get, format) =>
    range(
      engines.map((e) => l.cells[e] && get(l.cells[e], e)),
      format,
    );
  const first = (l) => of(l, (s) => s.firstElementMs, time);
  const memory = (l) => of(l, (s) => s.rssGrowthMiB, mib);
  const after = (l) => of(l, (s, e) => (drain.cells[e] ? Math.max(0, s.ms - drain.cells[e].ms) : null), time);
  const how = matrix.mode === 'http' ? `a response paced at ${matrix.paceMBps} MB/s` : 'memory';
  return (
    `Reading ${(matrix.bytes / MB).toFixed(0)} MB from ${how}, in each of the ${engines.length} engines: the first ` +
    `element arrives after ${first(sluice)} with sluice, ${first(parse)} with ${wholeLabel(matrix.mode)}; peak ` +
    `memory grows by ${memory(sluice)} MiB against ${memory(parse)} MiB` +
    (drain ? `; the last element comes ${after(sluice)} after the last byte, against ${after(parse)}.` : '.')
  );
}

export function againstWhole(results) {
  const { sizes, modes } = matrixShape(results);
  return modes.flatMap((mode) =>
    sizes.map((size) => {
      const m = parseMatrix(results, size, mode);
      const lib = (key) => m.libraries.find((l) => l.key === key);
      return { mode, size, m, sluice: lib('sluice-simd'), parse: lib(whole(mode)) };
    }),
  );
}

function ratioTable(results) {
  const engines = engineColumns(results);
  const rows = againstWhole(results).map(({ mode, size, sluice, parse }) => [
    `${sizeLabel(size)}${mode === 'http' ? ', paced response, vs res.json()' : ' in memory, vs JSON.parse'}`,
    ...engines.map((e) => {
      const a = sluice?.cells[e.key]?.mbps;
      const b = parse?.cells[e.key]?.mbps;
      return a && b ? `${(a / b).toFixed(2)}× (${mbps(a)} / ${mbps(b)})` : '–';
    }),
  ]);
  return mdTable(['sluice (SIMD) ÷ whole-text parse', ...engines.map((e) => e.label)], rows).join('\n');
}

export function machineShort(results) {
  const env = (results.engines ?? results.browser ?? results.parse)?.data.environment;
  const engines = engineColumns(results).map(
    (e) => `${e.key === 'chromium' ? `Chromium ${e.version}` : `${e.name} ${e.version}`} (${e.engine.split(' ')[0]})`,
  );
  return env ? `${env.cpu}, ${env.cores} cores; ${engines.join(', ')}; sluice ${env.sluice}` : '';
}

/** `assets`: the path from the including document to docs/. */
export function summaryMarkdown(results, { assets, link }) {
  const matrix = headline(results);
  if (!matrix) return 'No engine matrix results yet: run `npm run bench`.';
  matrix.paceMBps = (results.engines ?? results.browser).data.options.paceMBps;
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
