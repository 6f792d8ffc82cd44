// Medians, CPU time, per-competitor summaries and the Markdown tables every benchmark prints or renders.
export const MB = 1e6;
const MiB = 2 ** 20;
const SLICE_MS = 20;

export function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The upper median, always one of the values (the medians of CPU times). */
export const upperMedian = (values) => [...values].sort((x, y) => x - y)[values.length >> 1];

export function cpuMs(start) {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** CPU ms per call of each of `variants`, a figure per round: after a warm-up, each gets `slices` slices of ~20 ms a round,
 * rotated every slice so that a shared machine's load falls on all alike (one slower than a slice: once a round). */
export async function interleaveCpu(variants, { rounds, slices = 10, warmupMs = 500 }) {
  const ids = Object.keys(variants);
  const repeats = {};
  for (const id of ids) {
    const start = process.cpuUsage();
    let n;
    for (n = 0; n < 2 || cpuMs(start) < warmupMs; n++) await variants[id]();
    repeats[id] = Math.max(1, Math.round((SLICE_MS * n) / cpuMs(start)));
  }
  const times = Object.fromEntries(ids.map((id) => [id, []]));
  for (let round = 0; round < rounds; round++) {
    const spent = Object.fromEntries(ids.map((id) => [id, [0, 0]]));
    for (let slice = 0; slice < slices; slice++) {
      for (let k = 0; k < ids.length; k++) {
        const id = ids[(k + slice + round) % ids.length];
        if (repeats[id] === 1 && slice > 0) continue;
        const start = process.cpuUsage();
        for (let r = 0; r < repeats[id]; r++) await variants[id]();
        spent[id][0] += cpuMs(start);
        spent[id][1] += repeats[id];
      }
    }
    for (const id of ids) times[id].push(spent[id][0] / spent[id][1]);
  }
  return times;
}

export async function* chunksOf(items) {
  for (const item of items) yield item;
}

export function pieces(bytes, size) {
  const out = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

/** A Markdown table's lines; `align` for every column after the first (or one per column). */
export function mdTable(head, rows, align = '---:') {
  const aligns = head.slice(1).map((_, i) => (Array.isArray(align) ? align[i] : align));
  return [`| ${head.join(' | ')} |`, `|---|${aligns.join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}

export const fixed = (v, digits) => (v === null || v === undefined ? '–' : v.toFixed(digits));

export const msWith = (small, medium) => (v) => {
  if (v === null || v === undefined) return '–';
  return v < 1000 ? `${v.toFixed(v < 10 ? small : medium)} ms` : `${(v / 1000).toFixed(2)} s`;
};
export const ms = msWith(2, 1);

/** Per-competitor medians over its successful runs; MB/s counts `bytes`; `timings`: more run fields to take. */
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

const rss = (s) => `${fixed(s.rssGrowthMiB, 1)} MiB`;
const COLUMNS = {
  parse: [
    ['time to first element', (s) => ms(s.firstElementMs)],
    ['peak RSS growth', rss],
    ['CPU / wall', (s) => fixed(s.cpuPerWall, 2)],
    ['page faults', (s) => fixed(s.faults, 0)],
  ],
  stringify: [
    ['first byte', (s) => ms(s.firstByteMs)],
    ['first byte after first row', (s) => ms(s.firstByteAfterRowMs)],
    ['peak RSS growth', rss],
    ['CPU / wall', (s) => fixed(s.cpuPerWall, 2)],
  ],
};

export function markdownTable(rows, kind = 'parse') {
  const columns = COLUMNS[kind];
  const line = ({ label, summary: s, note }) => {
    if (!s || s.runs === 0)
      return `| ${label} | ${note ?? (kind === 'stringify' ? `failed: ${s?.errors?.[0] ?? ''}` : 'failed')} |${' |'.repeat(columns.length + 1)}`;
    const mbps = `${fixed(s.mbps, 1)}${s.failed ? ` (${s.failed} failed)` : ''}`;
    return `| ${[label, mbps, `${fixed(s.mbpsMin, 0)}–${fixed(s.mbpsMax, 0)}`, ...columns.map(([, cell]) => cell(s))].join(' | ')} |`;
  };
  const head = ['competitor', 'MB/s (median)', 'MB/s min–max', ...columns.map(([name]) => name)];
  return [...mdTable(head, []), ...rows.map(line)].join('\n');
}

export function loadLine(before, after, cores, warn = true) {
  const line = `Load average (1 min) before: ${before[0].toFixed(2)}, after: ${after[0].toFixed(2)}`;
  if (!cores) return `${line}.`;
  const busy = warn && Math.max(before[0], after[0]) > cores * 0.75;
  const warning =
    ' WARNING: other work was running; absolute numbers are low and noisy (ratios within this run less so).';
  return `${line} on ${cores} cores.${busy ? warning : ''}`;
}
