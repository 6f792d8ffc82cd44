// The demo's closing table, in Markdown so it can be pasted as it is, and the sentence under it.
const MiB = 2 ** 20;

const grouped = (n) => Math.round(n).toLocaleString('en-US');
const mib = (bytes) => `${grouped(bytes / MiB)} MiB`;
export const seconds = (ms) =>
  ms === null ? 'n/a' : ms < 1000 ? `${ms.toFixed(ms < 10 ? 1 : 0)} ms` : `${(ms / 1000).toFixed(2)} s`;

/** A Markdown table whose cells are padded, so it reads as a table in a terminal too. */
export function markdownTable(header, rows, align) {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(3, ...all.map((row) => row[i].length)));
  const line = (row) =>
    `| ${row.map((cell, i) => (align[i] === 'right' ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (align[i] === 'right' ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** `columns`: `[{ name, r }]`, `r` a child's result plus `lastByteMs` (the server's last byte, on its clock). */
export function resultTable(columns) {
  const row = (label, cell) => [label, ...columns.map(({ r }) => cell(r))];
  return markdownTable(
    ['', ...columns.map(({ name }) => name)],
    [
      row('articles', (r) => grouped(r.count)),
      row('time to first article', (r) => seconds(r.firstElementMs)),
      row('total time', (r) => seconds(r.ms)),
      row('server sent its last byte at', (r) => seconds(r.lastByteMs)),
      row('peak RSS', (r) => mib(r.peakRss)),
      row('RSS growth during the request', (r) => `+${mib(Math.max(0, r.peakRss - r.startRss))}`),
    ],
    ['left', ...columns.map(() => 'right')],
  );
}

const times = (a, b) => {
  const ratio = a / b;
  return `${ratio.toFixed(ratio < 10 ? 1 : 0)}×`;
};

/** One sentence: how much sooner the first article came, how the totals compare, how much less memory grew. */
export function summary(whole, streamed) {
  const first =
    `parseJsonArray had the first article after ${seconds(streamed.firstElementMs)}, ` +
    `${whole.firstElementMs > streamed.firstElementMs ? `${times(whole.firstElementMs, streamed.firstElementMs)} sooner than` : 'no sooner than'} ` +
    `res.json() (${seconds(whole.firstElementMs)})`;
  const after = (r) => (r.lastByteMs === null ? '' : ` (${seconds(r.ms - r.lastByteMs)} after the last byte was sent)`);
  const total = `; it had all of them after ${seconds(streamed.ms)}${after(streamed)}, res.json() after ${seconds(whole.ms)}${after(whole)}`;
  const growth = (r) => Math.max(r.peakRss - r.startRss, MiB);
  const ratio = growth(whole) / growth(streamed);
  const memory =
    ratio >= 1.5
      ? `; its memory grew ${times(growth(whole), growth(streamed))} less`
      : '; memory grew about as much (the document is small)';
  return `${first}${total}${memory}.`;
}
