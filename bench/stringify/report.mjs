// Medians, the Markdown tables and the ratios the issue's targets are stated in.
const MB = 1e6;
const MiB = 2 ** 20;

export function median(values) {
  const sorted = values.filter((v) => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Per-competitor medians over its successful runs; MB/s counts the document's bytes. */
export function summarise(documentBytes, runs) {
  const ok = runs.filter((r) => !r.error);
  const mbps = ok.map((r) => documentBytes / MB / (r.ms / 1000));
  return {
    runs: ok.length,
    failed: runs.length - ok.length,
    errors: runs.filter((r) => r.error).map((r) => r.error),
    mbps: median(mbps),
    mbpsMin: mbps.length ? Math.min(...mbps) : null,
    mbpsMax: mbps.length ? Math.max(...mbps) : null,
    ms: median(ok.map((r) => r.ms)),
    firstByteMs: median(ok.map((r) => r.firstByteMs)),
    firstByteAfterRowMs: median(ok.map((r) => r.firstByteAfterRowMs)),
    rssGrowthMiB: median(ok.map((r) => (r.rssPeak - r.rssBaseline) / MiB)),
    cpuPerWall: median(ok.map((r) => r.cpuMs / r.ms)),
  };
}

const fixed = (v, digits) => (v === null || v === undefined ? '–' : v.toFixed(digits));
export const ms = (v) =>
  v === null || v === undefined
    ? '–'
    : v < 10
      ? `${v.toFixed(2)} ms`
      : v < 1000
        ? `${v.toFixed(1)} ms`
        : `${(v / 1000).toFixed(2)} s`;

export function markdownTable(rows) {
  const lines = [
    '| competitor | MB/s (median) | MB/s min–max | first byte | first byte after first row | peak RSS growth | CPU / wall |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { label, summary: s, note } of rows) {
    if (!s || s.runs === 0) {
      lines.push(`| ${label} | ${note ?? `failed: ${s?.errors?.[0] ?? ''}`} | | | | | |`);
      continue;
    }
    const failed = s.failed ? ` (${s.failed} failed)` : '';
    lines.push(
      `| ${label} | ${fixed(s.mbps, 1)}${failed} | ${fixed(s.mbpsMin, 0)}–${fixed(s.mbpsMax, 0)} | ` +
        `${ms(s.firstByteMs)} | ${ms(s.firstByteAfterRowMs)} | ${fixed(s.rssGrowthMiB, 1)} MiB | ` +
        `${fixed(s.cpuPerWall, 2)} |`,
    );
  }
  return lines.join('\n');
}

/** The issue's "done when" for one count and source: ratios of medians, each against its threshold. */
export function targetTable(byId) {
  const sluice = byId.sluice;
  if (!sluice?.runs) return null;
  const ratio = (other) => (byId[other]?.mbps ? sluice.mbps / byId[other].mbps : null);
  const rows = [
    ['throughput / JSON.stringify whole + TextEncoder', ratio('whole'), (v) => v >= 2, '≥ 2×', '×'],
    ['throughput / JSONStream.stringify', ratio('jsonstream'), (v) => v >= 1.3, '≥ 1.3×', '×'],
    ['throughput / JSONStream.stringify as a web stream', ratio('jsonstream-web'), (v) => v >= 1.3, '≥ 1.3×', '×'],
    ['throughput / json-stream-stringify', ratio('json-stream-stringify'), (v) => v >= 3, '≥ 3×', '×'],
    [
      'throughput / json-stream-stringify as a web stream',
      ratio('json-stream-stringify-web'),
      (v) => v >= 3,
      '≥ 3×',
      '×',
    ],
    ['throughput / JS floor', ratio('floor'), (v) => v >= 0.8, '≥ 0.8×', '×'],
    ['peak RSS growth (MiB)', sluice.rssGrowthMiB, (v) => v <= 16, '≤ 16 MiB', ''],
    ['first byte after first row (ms)', sluice.firstByteAfterRowMs, (v) => v <= 5, '≤ 5 ms', ''],
  ];
  const lines = ['| sluice (medians) | measured | target | |', '|---|---:|---|---|'];
  const values = {};
  for (const [name, value, passes, target, unit] of rows) {
    values[name] = value;
    const shown = value === null ? '–' : `${value.toFixed(2)}${unit}`;
    lines.push(
      `| ${name} | ${shown} | ${target} | ${value === null ? 'not measured' : passes(value) ? 'met' : 'NOT met'} |`,
    );
  }
  return { markdown: lines.join('\n'), values };
}
