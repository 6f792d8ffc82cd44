// The benchmark chart, hand-written SVG: a group of bars per engine, a bar per series, two panels (linear or log).
const WIDTH = 960;
const LABEL_WIDTH = 150;
const GAP = 36;
const PANEL_WIDTH = (WIDTH - LABEL_WIDTH - GAP - 20) / 2;
const VALUE_ROOM = 58;
const BAR = 11;
const BAR_GAP = 3;
const GROUP_GAP = 14;
// Okabe-Ito: tell apart with every kind of colour vision.
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00'];

const escapeXml = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const text = (x, y, cls, value) => `<text x="${x}" y="${y}" class="${cls}">${escapeXml(value)}</text>`;

/** Lines of at most 150 characters, each as many whole words as fit (the caption's words are shorter). */
const wrap = (text) => text.match(/[^ ].{0,149}(?= |$)/g) ?? [];

function axis(values, log) {
  if (log) {
    const low = 10 ** Math.floor(Math.log10(Math.max(Math.min(...values), 0.1)));
    const high = 10 ** Math.ceil(Math.log10(Math.max(...values, low * 10)));
    const ticks = [];
    for (let t = low; t <= high * 1.0001; t *= 10) ticks.push(t);
    const at = (v) => (Math.log10(Math.max(v, low)) - Math.log10(low)) / (Math.log10(high) - Math.log10(low));
    return { at, ticks };
  }
  // A round step giving about four ticks.
  const max = Math.max(1, ...values);
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks = Array.from({ length: Math.ceil(max / step - 1e-9) + 1 }, (_, i) => Math.round(i * step * 1e6) / 1e6);
  return { at: (v) => v / ticks.at(-1), ticks };
}

function panel({ side, top, height, title, bars, log, format }) {
  const x = LABEL_WIDTH + side * (PANEL_WIDTH + GAP);
  const values = bars.map((b) => b.value);
  const { at, ticks } = axis(values, log);
  const scale = PANEL_WIDTH - VALUE_ROOM;
  const parts = [text(x, top - 10, 'panel', title)];
  for (const tick of ticks) {
    const tx = (x + at(tick) * scale).toFixed(1);
    parts.push(`<line x1="${tx}" y1="${top}" x2="${tx}" y2="${top + height}" class="grid"/>`);
    parts.push(text(tx, top + height + 14, 'tick', format(tick)));
  }
  for (const { y, value, colour } of bars) {
    const w = Math.max(1, at(value) * scale);
    parts.push(`<rect x="${x}" y="${y}" width="${w.toFixed(1)}" height="${BAR}" fill="${colour}"/>`);
    parts.push(text((x + w + 4).toFixed(1), y + BAR - 1.5, 'value', format(value)));
  }
  return parts.join('\n');
}

/** `data`: { groups: [{ key, label, own }], series: [{ key, label, own, values: group key -> [left, right] }] }. */
export function renderChart(data, { title, panels, caption }) {
  const top = 108;
  const rows = [];
  const bars = [[], []];
  let y = top + 8;
  for (const group of data.groups) {
    const present = data.series.filter((s) => s.values[group.key]);
    const groupHeight = present.length * (BAR + BAR_GAP) - BAR_GAP;
    rows.push(
      text(LABEL_WIDTH - 10, (y + groupHeight / 2 + 4).toFixed(1), `group${group.own ? ' own' : ''}`, group.label),
    );
    present.forEach((series, i) => {
      const colour = COLOURS[data.series.indexOf(series) % COLOURS.length];
      for (const [side, value] of series.values[group.key].entries())
        if (value !== null) bars[side].push({ y: y + i * (BAR + BAR_GAP), value: Math.max(0, value), colour });
    });
    y += groupHeight + GROUP_GAP;
  }
  const height = y - top;
  const legend = data.series.map((s, i) => {
    const lx = 20 + i * 235;
    return (
      `<rect x="${lx}" y="62" width="12" height="12" fill="${COLOURS[i % COLOURS.length]}"/>` +
      text(lx + 18, 72, `legend${s.own ? ' own' : ''}`, s.label)
    );
  });
  const bottom = top + height + 22;
  const lines = caption.flatMap((line) => wrap(line));
  const captionLines = lines.map((line, i) => text(20, bottom + 18 + i * 16, 'caption', line));
  const drawn = panels.map((p, side) => panel({ ...p, side, top, height, bars: bars[side] }));
  const totalHeight = bottom + 18 + lines.length * 16;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${totalHeight}" viewBox="0 0 ${WIDTH} ${totalHeight}" role="img" aria-label="${escapeXml(title)}">
<style>
  text { font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif; fill: #24292f; }
  .title { font-size: 17px; font-weight: 600; }
  .panel { font-size: 13px; font-weight: 600; }
  .legend, .group { font-size: 12.5px; }
  .group { text-anchor: end; }
  .own { font-weight: 600; }
  .value, .tick { font-size: 10.5px; fill: #57606a; }
  .tick { text-anchor: middle; }
  .caption { font-size: 11px; fill: #57606a; }
  .grid { stroke: #d0d7de; stroke-width: 1; }
</style>
<rect width="100%" height="100%" fill="#ffffff"/>
${text(20, 32, 'title', title)}
${legend.join('\n')}
${rows.join('\n')}
${drawn.join('\n')}
${captionLines.join('\n')}
</svg>
`;
}
