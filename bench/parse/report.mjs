// Medians, the Markdown table and the ratios the issue's targets are stated in.
const MB = 1e6;
const MiB = 2 ** 20;

export function median(values) {
  const sorted = values.filter((v) => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Per-competitor medians over its successful runs. */
export function summarise(bytes, runs) {
  const ok = runs.filter((r) => !r.error);
  const mbps = ok.map((r) => bytes / MB / (r.ms / 1000));
  return {
    runs: ok.length,
    failed: runs.length - ok.length,
    mbps: median(mbps),
    mbpsMin: mbps.length ? Math.min(...mbps) : null,
    mbpsMax: mbps.length ? Math.max(...mbps) : null,
    ms: median(ok.map((r) => r.ms)),
    firstElementMs: median(ok.map((r) => r.firstElementMs)),
    rssGrowthMiB: median(ok.map((r) => (r.rssPeak - r.rssBaseline) / MiB)),
    cpuPerWall: median(ok.map((r) => r.cpuMs / r.ms)),
    faults: median(ok.map((r) => r.faults ?? null)),
  };
}

const fixed = (v, digits) => (v === null ? '–' : v.toFixed(digits));
const ms = (v) =>
  v === null ? '–' : v < 10 ? `${v.toFixed(2)} ms` : v < 1000 ? `${v.toFixed(1)} ms` : `${(v / 1000).toFixed(2)} s`;

export function markdownTable(rows) {
  const lines = [
    '| competitor | MB/s (median) | MB/s min–max | time to first element | peak RSS growth | CPU / wall | page faults |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { label, summary: s, note } of rows) {
    if (!s || s.runs === 0) {
      lines.push(`| ${label} | ${note ?? 'failed'} | | | | | |`);
      continue;
    }
    const failed = s.failed ? ` (${s.failed} failed)` : '';
    lines.push(
      `| ${label} | ${fixed(s.mbps, 1)}${failed} | ${fixed(s.mbpsMin, 0)}–${fixed(s.mbpsMax, 0)} | ` +
        `${ms(s.firstElementMs)} | ${fixed(s.rssGrowthMiB, 1)} MiB | ${fixed(s.cpuPerWall, 2)} | ${fixed(s.faults, 0)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The ratios of the issue's "done when", for each sluice build measured. `targets` (articles only) adds the
 * thresholds and whether each one is met.
 */
export function ratioTable(byId, targets) {
  const builds = ['simd', 'scalar'].filter((b) => byId[`sluice-value-${b}`]?.runs || byId[`sluice-bytes-${b}`]?.runs);
  if (builds.length === 0) return null;
  const ratio = (a, b) => (a?.mbps && b?.mbps ? a.mbps / b.mbps : null);
  const metrics = [
    ['value / ceiling', (b) => ratio(byId[`sluice-value-${b}`], byId.ceiling), '×', (v) => v >= 0.85, '≥ 0.85×'],
    ['value / JSON.parse', (b) => ratio(byId[`sluice-value-${b}`], byId['json-parse']), '×', (v) => v >= 1.5, '≥ 1.5×'],
    [
      'value / @streamparser/json',
      (b) => ratio(byId[`sluice-value-${b}`], byId.streamparser),
      '×',
      (v) => v >= 2,
      '≥ 2×',
    ],
    ['bytes MB/s', (b) => byId[`sluice-bytes-${b}`]?.mbps ?? null, '', (v) => v >= 1000, '≥ 1000'],
    ['value peak RSS growth (MiB)', (b) => byId[`sluice-value-${b}`]?.rssGrowthMiB ?? null, '', (v) => v <= 32, '≤ 32'],
  ];
  const header = ['| ratio (medians) |', ...builds.map((b) => ` ${b} |`), targets ? ' target (simd) |' : ''].join('');
  const rule = ['|---|', ...builds.map(() => '---:|'), targets ? '---|' : ''].join('');
  const lines = [header, rule];
  const out = {};
  for (const [name, get, unit, passes, target] of metrics) {
    const values = builds.map(get);
    out[name] = Object.fromEntries(builds.map((b, i) => [b, values[i]]));
    const cells = values.map((v) => ` ${v === null ? '–' : `${v.toFixed(unit ? 2 : 1)}${unit}`} |`);
    let verdict = '';
    if (targets) {
      const simd = values[builds.indexOf('simd')];
      verdict = ` ${target} ${simd === undefined || simd === null ? '(not measured)' : passes(simd) ? 'met' : 'NOT met'} |`;
    }
    lines.push(`| ${name} |${cells.join('')}${verdict}`);
  }
  return { markdown: lines.join('\n'), values: out };
}
