// The ratios the issue's targets are stated in, under bench:parse's tables.

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
