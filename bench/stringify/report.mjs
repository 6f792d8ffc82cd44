// The targets for bench:stringify, under each of its tables.

/** The "done when" for one count and source: ratios of medians, each against its threshold. */
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
