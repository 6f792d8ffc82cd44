// bench:cli's chart, hand-written SVG: per command, MB/s of CPU on the left (higher is better) and peak RSS on
// the right (lower is better, logarithmic: the peers span 3 MiB to gigabytes), one bar per input.
const WIDTH = 960;
const LABEL = 230;
const PANEL = (WIDTH - LABEL - 60) / 2;
const BAR = 11;
const COLOURS = ['#0072B2', '#E69F00'];

const escapeXml = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const label = (v) => (v < 10 ? v.toFixed(1) : String(Math.round(v)));

/**
 * rows: [{ label, own, values: [{ mbps, rssMiB } | null per input] }]; inputs: the series' names; caption: lines.
 */
export function renderChart({ title, inputs, rows, caption }) {
  const top = 96;
  const groupHeight = inputs.length * (BAR + 3) + 12;
  const height = rows.length * groupHeight;
  const maxRate = Math.max(1, ...rows.flatMap((r) => r.values.map((v) => v?.mbps ?? 0)));
  const maxRss = Math.max(2, ...rows.flatMap((r) => r.values.map((v) => v?.rssMiB ?? 0)));
  const rateX = LABEL;
  const rssX = LABEL + PANEL + 40;
  const log = (v) => Math.log10(Math.max(1, v)) / Math.log10(maxRss * 1.2);
  const parts = [];
  rows.forEach((row, r) => {
    const y = top + r * groupHeight;
    parts.push(
      `<text x="${LABEL - 10}" y="${y + groupHeight / 2}" class="row${row.own ? ' own' : ''}">${escapeXml(row.label)}</text>`,
    );
    row.values.forEach((value, i) => {
      if (value === null) return;
      const by = y + i * (BAR + 3);
      const rate = Math.max(1, (value.mbps / maxRate) * (PANEL - 50));
      const rss = Math.max(1, log(value.rssMiB) * (PANEL - 50));
      parts.push(
        `<rect x="${rateX}" y="${by}" width="${rate.toFixed(1)}" height="${BAR}" fill="${COLOURS[i]}"/>`,
        `<text x="${(rateX + rate + 4).toFixed(1)}" y="${by + BAR - 1.5}" class="value">${label(value.mbps)}</text>`,
        `<rect x="${rssX}" y="${by}" width="${rss.toFixed(1)}" height="${BAR}" fill="${COLOURS[i]}"/>`,
        `<text x="${(rssX + rss + 4).toFixed(1)}" y="${by + BAR - 1.5}" class="value">${label(value.rssMiB)}</text>`,
      );
    });
  });
  const legend = inputs.map(
    (name, i) =>
      `<rect x="${LABEL + i * 260}" y="52" width="12" height="12" fill="${COLOURS[i]}"/>` +
      `<text x="${LABEL + i * 260 + 18}" y="62" class="legend">${escapeXml(name)}</text>`,
  );
  const bottom = top + height + 10;
  const captionLines = caption.map(
    (line, i) => `<text x="20" y="${bottom + 16 + i * 15}" class="caption">${escapeXml(line)}</text>`,
  );
  const total = bottom + 16 + caption.length * 15;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${total}" viewBox="0 0 ${WIDTH} ${total}" role="img" aria-label="${escapeXml(title)}">
<style>
  text { font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif; fill: #24292f; }
  .title { font-size: 17px; font-weight: 600; }
  .panel { font-size: 13px; font-weight: 600; }
  .legend, .row { font-size: 12.5px; }
  .row { text-anchor: end; dominant-baseline: middle; }
  .own { font-weight: 600; }
  .value { font-size: 10.5px; fill: #57606a; }
  .caption { font-size: 11px; fill: #57606a; }
</style>
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="20" y="30" class="title">${escapeXml(title)}</text>
${legend.join('\n')}
<text x="${rateX}" y="${top - 10}" class="panel">MB/s of CPU time (higher is better)</text>
<text x="${rssX}" y="${top - 10}" class="panel">Peak RSS, MiB, log scale (lower is better)</text>
${parts.join('\n')}
${captionLines.join('\n')}
</svg>
`;
}
