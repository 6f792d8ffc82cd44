// Medians, per-competitor summaries and the Markdown tables of every harness (bench:parse, bench:stringify, the
// engine matrix and bench/harness/render, which re-renders the saved summaries).
const MB = 1e6;
const MiB = 2 ** 20;

export function median(values) {
  const sorted = values.filter((v) => v !== null && v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The upper median, always one of the values (bench:partial's medians of CPU times). */
export function upperMedian(values) {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[sorted.length >> 1];
}

export const fixed = (v, digits) => (v === null || v === undefined ? '–' : v.toFixed(digits));

/** Milliseconds with the digits a table needs: 2.07 ms, 14.4 ms, 1.15 s. */
export const ms = (v) =>
  v === null || v === undefined
    ? '–'
    : v < 10
      ? `${v.toFixed(2)} ms`
      : v < 1000
        ? `${v.toFixed(1)} ms`
        : `${(v / 1000).toFixed(2)} s`;

/**
 * Per-competitor medians over its successful runs; MB/s counts `bytes`. `timings`: the run's own time fields to
 * take the median of too (parse: firstElementMs; stringify: firstByteMs, firstByteAfterRowMs).
 */
export function summarise(bytes, runs, timings = ['firstElementMs']) {
  const ok = runs.filter((r) => !r.error);
  const mbps = ok.map((r) => bytes / MB / (r.ms / 1000));
  const summary = {
    runs: ok.length,
    failed: runs.length - ok.length,
    errors: runs.filter((r) => r.error).map((r) => r.error),
    mbps: median(mbps),
    mbpsMin: mbps.length ? Math.min(...mbps) : null,
    mbpsMax: mbps.length ? Math.max(...mbps) : null,
    ms: median(ok.map((r) => r.ms)),
  };
  for (const key of timings) summary[key] = median(ok.map((r) => r[key]));
  summary.rssGrowthMiB = median(ok.map((r) => (r.rssPeak - r.rssBaseline) / MiB));
  summary.cpuPerWall = median(ok.map((r) => r.cpuMs / r.ms));
  if (timings.includes('firstElementMs')) summary.faults = median(ok.map((r) => r.faults ?? null));
  return summary;
}

const PARSE_COLUMNS = [
  ['time to first element', (s) => ms(s.firstElementMs)],
  ['peak RSS growth', (s) => `${fixed(s.rssGrowthMiB, 1)} MiB`],
  ['CPU / wall', (s) => fixed(s.cpuPerWall, 2)],
  ['page faults', (s) => fixed(s.faults, 0)],
];

const STRINGIFY_COLUMNS = [
  ['first byte', (s) => ms(s.firstByteMs)],
  ['first byte after first row', (s) => ms(s.firstByteAfterRowMs)],
  ['peak RSS growth', (s) => `${fixed(s.rssGrowthMiB, 1)} MiB`],
  ['CPU / wall', (s) => fixed(s.cpuPerWall, 2)],
];

/** The competitor table: MB/s (median, min–max), then `kind`'s columns ('parse' or 'stringify'). */
export function markdownTable(rows, kind = 'parse') {
  const columns = kind === 'stringify' ? STRINGIFY_COLUMNS : PARSE_COLUMNS;
  const empty = ' |'.repeat(columns.length + 1);
  const lines = [
    `| competitor | MB/s (median) | MB/s min–max | ${columns.map(([name]) => name).join(' | ')} |`,
    `|---|---:|---:|${columns.map(() => '---:').join('|')}|`,
  ];
  for (const { label, summary: s, note } of rows) {
    if (!s || s.runs === 0) {
      const failed = kind === 'stringify' ? `failed: ${s?.errors?.[0] ?? ''}` : 'failed';
      lines.push(`| ${label} | ${note ?? failed} |${empty}`);
      continue;
    }
    const failed = s.failed ? ` (${s.failed} failed)` : '';
    const cells = columns.map(([, cell]) => cell(s)).join(' | ');
    lines.push(
      `| ${label} | ${fixed(s.mbps, 1)}${failed} | ${fixed(s.mbpsMin, 0)}–${fixed(s.mbpsMax, 0)} | ${cells} |`,
    );
  }
  return lines.join('\n');
}

/** The load line under each table, with a warning when other work was running. */
export function loadLine(before, after, cores) {
  return (
    `Load average (1 min) before: ${before[0].toFixed(2)}, after: ${after[0].toFixed(2)} on ${cores} cores.` +
    (Math.max(before[0], after[0]) > cores * 0.75
      ? ' WARNING: other work was running; absolute numbers are low and noisy (ratios within this run less so).'
      : '')
  );
}
