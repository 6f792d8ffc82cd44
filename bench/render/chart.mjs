// The README's chart, hand-written SVG: for each library, one bar per runtime, throughput on the left (higher is
// better) and peak memory growth on the right (lower is better), every bar labelled with its value.
const WIDTH = 960;
const LABEL_WIDTH = 200;
const GAP = 28;
const PANEL_WIDTH = (WIDTH - LABEL_WIDTH - GAP - 20) / 2;
const VALUE_ROOM = 48;
const BAR = 11;
const BAR_GAP = 3;
const GROUP_GAP = 14;
// Okabe-Ito: tell apart with every kind of colour vision.
const COLOURS = { node: '#0072B2', chromium: '#E69F00', deno: '#009E73', bun: '#CC79A7' };
const FALLBACK_COLOURS = ['#56B4E9', '#D55E00', '#F0E442', '#000000'];

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const number = (v) => (v < 10 ? v.toFixed(1) : String(Math.round(v)));
const tickLabel = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

/** `text` cut into lines of at most `width` characters, at spaces. */
function wrap(text, width = 150) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A round tick step giving about four ticks up to `max`. */
function tickStep(max) {
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? 10 * power;
}

function panel({ x, top, height, title, values, max }) {
  const scale = (PANEL_WIDTH - VALUE_ROOM) / max;
  const step = tickStep(max);
  const parts = [`<text x="${x}" y="${top - 10}" class="panel">${escape(title)}</text>`];
  for (let tick = 0; tick <= max + 1e-9; tick += step) {
    const tx = x + tick * scale;
    parts.push(`<line x1="${tx.toFixed(1)}" y1="${top}" x2="${tx.toFixed(1)}" y2="${top + height}" class="grid"/>`,
      `<text x="${tx.toFixed(1)}" y="${top + height + 14}" class="tick">${tickLabel(Math.round(tick * 1e6) / 1e6)}</text>`);
  }
  for (const { y, value, colour } of values) {
    const w = Math.max(1, value * scale);
    parts.push(`<rect x="${x}" y="${y}" width="${w.toFixed(1)}" height="${BAR}" fill="${colour}"/>`,
      `<text x="${(x + w + 4).toFixed(1)}" y="${y + BAR - 1.5}" class="value">${number(value)}</text>`);
  }
  return parts.join('\n');
}

/** `matrix` from model.mjs; `caption`: lines under the chart (machine, method, date). */
export function renderChart(matrix, { title, caption }) {
  const colourOf = Object.fromEntries(matrix.runtimes.map((r, i) => [r.key, COLOURS[r.key] ?? FALLBACK_COLOURS[i % 4]]));
  const top = 108;
  const rows = [];
  const throughput = [];
  const memory = [];
  let y = top + 8;
  for (const lib of matrix.libraries) {
    const present = matrix.runtimes.filter((r) => lib.cells[r.key]);
    const groupHeight = present.length * (BAR + BAR_GAP) - BAR_GAP;
    const sluice = lib.key.startsWith('sluice');
    rows.push(`<text x="${LABEL_WIDTH - 10}" y="${(y + groupHeight / 2 + 4).toFixed(1)}" class="library${sluice ? ' own' : ''}">${escape(lib.label)}</text>`);
    present.forEach((runtime, i) => {
      const summary = lib.cells[runtime.key];
      const barY = y + i * (BAR + BAR_GAP);
      if (summary.mbps !== null) throughput.push({ y: barY, value: summary.mbps, colour: colourOf[runtime.key] });
      if (summary.rssGrowthMiB !== null) memory.push({ y: barY, value: Math.max(0, summary.rssGrowthMiB), colour: colourOf[runtime.key] });
    });
    y += groupHeight + GROUP_GAP;
  }
  const height = y - top;
  const legend = matrix.runtimes.map((r, i) => {
    const lx = LABEL_WIDTH + i * 170;
    return `<rect x="${lx}" y="62" width="12" height="12" fill="${colourOf[r.key]}"/>` +
      `<text x="${lx + 18}" y="72" class="legend">${escape(r.label)}</text>`;
  });
  const maxOf = (values) => Math.max(1, ...values.map((v) => v.value));
  const bottom = top + height + 22;
  const lines = caption.flatMap((line) => wrap(line));
  const captionLines = lines.map((line, i) => `<text x="20" y="${bottom + 18 + i * 16}" class="caption">${escape(line)}</text>`);
  const totalHeight = bottom + 18 + lines.length * 16;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${totalHeight}" viewBox="0 0 ${WIDTH} ${totalHeight}" role="img" aria-label="${escape(title)}">
<style>
  text { font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif; fill: #24292f; }
  .title { font-size: 17px; font-weight: 600; }
  .panel { font-size: 13px; font-weight: 600; }
  .legend, .library { font-size: 12.5px; }
  .library { text-anchor: end; }
  .own { font-weight: 600; }
  .value, .tick { font-size: 10.5px; fill: #57606a; }
  .tick { text-anchor: middle; }
  .caption { font-size: 11px; fill: #57606a; }
  .grid { stroke: #d0d7de; stroke-width: 1; }
</style>
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="20" y="32" class="title">${escape(title)}</text>
${legend.join('\n')}
${rows.join('\n')}
${panel({ x: LABEL_WIDTH, top, height, title: 'Throughput, MB/s (higher is better)', values: throughput, max: maxOf(throughput) })}
${panel({ x: LABEL_WIDTH + PANEL_WIDTH + GAP, top, height, title: 'Peak memory growth, MiB (lower is better)', values: memory, max: maxOf(memory) })}
${captionLines.join('\n')}
</svg>
`;
}
