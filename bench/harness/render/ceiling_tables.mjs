// docs/benchmarks.md's section on value mode against its ceiling (the --ceiling runs), with issue 17's goals.
import { mdTable } from '../stats.mjs';
import { ORDER, runInfo } from './model.mjs';
import { mbps, time } from './summary.mjs';

const BUILDS = { simd: 'SIMD', scalar: 'scalar' };
const GOALS = { ceiling: 0.9, peer: 2, bytesMBps: 500, firstMs: 10 };

const mark = (text, ok) => (ok === false ? `${text} ✗` : text);
const ratio = (a, b) => (a && b ? a / b : null);
const times = (v) => (v === null ? '–' : `${v.toFixed(2)}x`);

function ceilingRows(results) {
  const rows = [];
  for (const kind of ['ceiling-engines', 'ceiling-browser']) {
    const data = results[kind]?.data;
    for (const { engine, bytes, count, competitors } of data?.cells ?? []) {
      const s = (id) => competitors.find((c) => c.id === id)?.summary ?? null;
      const [utf8, ascii, peer] = ['ceiling', 'ceiling-ascii', 'streamparser'].map((id) => s(id)?.mbps ?? null);
      const ceiling = Math.max(utf8 ?? 0, ascii ?? 0) || null;
      const info = data.engines?.[engine];
      for (const [build, label] of Object.entries(BUILDS)) {
        const value = s(`sluice-${build}`)?.mbps ?? null;
        const ofCeiling = ratio(value, ceiling);
        const ofPeer = ratio(value, peer);
        const scan = s(`sluice-none-${build}`)?.mbps ?? null;
        const bytesMode = s(`sluice-bytes-${build}`)?.mbps ?? null;
        const first = s(`sluice-${build}`)?.firstElementMs ?? null;
        const cells = [
          info ? `${info.name} ${info.version}` : engine,
          label,
          `${mbps(utf8)} / ${mbps(ascii)} MB/s`,
          `${mbps(value)} MB/s`,
          mark(times(ofCeiling), ofCeiling === null || ofCeiling >= GOALS.ceiling),
          `${mbps(scan)} MB/s`,
          // Value mode scans, then decodes and parses at best as fast as the ceiling: at most scan / (scan + ceiling).
          times(scan && ceiling ? scan / (scan + ceiling) : null),
          `${mbps(peer)} MB/s`,
          mark(times(ofPeer), ofPeer === null || ofPeer >= GOALS.peer),
          mark(`${mbps(bytesMode)} MB/s`, build !== 'simd' || bytesMode === null || bytesMode >= GOALS.bytesMBps),
          mark(time(first), first === null || first <= GOALS.firstMs),
        ];
        rows.push({ engine, bytes, count, cells });
      }
    }
  }
  return rows.sort((a, b) => ORDER.indexOf(a.engine) - ORDER.indexOf(b.engine));
}

export function ceilingDetails(results) {
  const rows = ceilingRows(results);
  if (rows.length === 0) return [];
  const data = results['ceiling-browser']?.data ?? results['ceiling-engines']?.data;
  const { dates, load } = runInfo(results, ['ceiling-engines', 'ceiling-browser']);
  const first = rows[0];
  const lines = [
    `## Value mode against its ceiling: ${(first.bytes / 1e6).toFixed(1)} MB (${first.count.toLocaleString('en-US')} articles) in memory`,
    '',
    '`npm run bench -- --only ceiling` (`node bench/engines/main.mjs --ceiling` and `node bench/browser/main.mjs ' +
      `--ceiling\`), run ${dates} UTC, load average ${load}; medians of ${data.options.runs} run${data.options.runs === 1 ? '' : 's'}, each a ` +
      'fresh process or page, interleaved. The ceiling: the very elements value mode delivers, batched as it batches ' +
      'them (the elements each 64 KiB chunk completes, as one JSON array text, cut before the clock starts), turned ' +
      'into values by one `TextDecoder.decode` + one `JSON.parse` per batch and nothing else; in two forms, the ' +
      "elements' own UTF-8 bytes and the ASCII-escaped text sluice's wasm writes, the faster of which is the ceiling. " +
      'Value mode is the whole parse: the copy into wasm, the scan, the batch, the decode and `JSON.parse`. Bytes mode ' +
      "delivers each element's bytes as a `Uint8Array`; scan only: a path that selects nothing (the copy into " +
      'wasm, the scan, the validation of every byte), and bound: what value / ceiling can be at most with that scan, ' +
      'scan / (scan + ceiling), since value mode does both one after the other. First element: from the first ' +
      '`push()` to the first element delivered, in a fresh page, which is when its last byte arrived. ✗: short of the goal in the header (issue 17).',
    '',
  ];
  const head = ['engine', 'build', 'ceiling UTF-8 / ASCII', 'value mode', `value / ceiling (≥ ${GOALS.ceiling})`];
  head.push('scan only', 'bound', '@streamparser/json', `value / it (≥ ${GOALS.peer})`);
  head.push(`bytes mode (≥ ${GOALS.bytesMBps} SIMD)`, `first element (≤ ${GOALS.firstMs} ms)`);
  lines.push(
    ...mdTable(
      head,
      rows.map((row) => row.cells),
      ['---', ...Array(9).fill('---:')],
    ),
  );
  return lines;
}
