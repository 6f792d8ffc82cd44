// docs/benchmarks.md's engine-matrix sections: a table per size and mode, where whole-text parsing wins, the writers.
import { matrixMethod } from '../matrix.mjs';
import { mdTable } from '../stats.mjs';
import { engineColumns, matrixShape, parseMatrix, runInfo, stringifyMatrix } from './model.mjs';
import { againstWhole, mbps, mib, sizeLabel, time } from './summary.mjs';

const MB = 1e6;
const summaryCell = (s) => `${mbps(s.mbps)} MB/s · ${time(s.firstElementMs)} · +${mib(s.rssGrowthMiB)} MiB`;

function table(matrix, { afterTransfer }) {
  const drain = matrix.libraries.find((l) => l.key === 'drain');
  const rows = matrix.libraries.map((lib) => [
    lib.own ? `**${lib.label}**` : lib.label,
    ...matrix.engines.map((e) => {
      const s = lib.cells[e.key];
      if (!s) return '–';
      if (!s.runs && s.timedOut) return `did not finish in ${time(s.limitMs)}`;
      const parts = [`${mbps(s.mbps)} MB/s`, `first ${time(s.firstElementMs)}`, `+${mib(s.rssGrowthMiB)} MiB`];
      if (afterTransfer && lib !== drain && drain?.cells[e.key])
        parts.push(`end +${time(Math.max(0, s.ms - drain.cells[e.key].ms))}`);
      if (s.failed) parts.push(`${s.failed} of ${s.failed + s.runs} runs failed or timed out`);
      return parts.join(' · ');
    }),
  ]);
  return mdTable(['library', ...matrix.engines.map((e) => e.label)], rows).join('\n');
}

function wins(results) {
  return againstWhole(results).flatMap(({ mode, size, m, sluice, parse }) =>
    m.engines.flatMap((e) => {
      const a = sluice?.cells[e.key]?.mbps;
      const b = parse?.cells[e.key]?.mbps;
      const where = `${e.label}, ${sizeLabel(size)} ${mode === 'http' ? 'over HTTP' : 'in memory'}`;
      return a && b && b > a ? [`${where}: ${parse.label} ${mbps(b)} MB/s, sluice (SIMD) ${mbps(a)} MB/s`] : [];
    }),
  );
}

export function matrixDetails(results) {
  const columns = engineColumns(results);
  if (columns.length === 0) return [];
  const options = (results.engines ?? results.browser).data.options;
  const { sizes, modes } = matrixShape(results);
  const env = (results.engines ?? results.browser).data.environment;
  const { dates, load } = runInfo(results, ['engines', 'browser']);
  const skipped = ['engines', 'browser'].flatMap((k) => results[k]?.data.skipped ?? []);
  const list = (items) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items[0]);
  const how = modes.map((m) => (m === 'http' ? 'over HTTP' : 'in memory'));
  const out = [
    `## Every engine: ${list(sizes.map(sizeLabel))}, ${list(how)}`,
    '',
    `\`node bench/engines/main.mjs\` (Node, Deno, Bun: a child process per run) and \`node bench/browser/main.mjs\` ` +
      '(Chromium, Firefox, WebKit: a fresh page per run, driven by `tests/browser/engines`), the same competitor code in ' +
      `every engine. ${columns.map((c) => `${c.name} ${c.version} (${c.engine})`).join(', ')}; ${env.cpu}, ${env.cores} cores, ` +
      `${env.memoryGiB} GiB, ${env.os}; run ${dates} UTC, load average ${load}` +
      `${skipped.length ? `; skipped: ${skipped.map((s) => `${s.name} (${s.reason})`).join(', ')}` : ''}.`,
    '',
    matrixMethod(options),
    '',
    'Browser pages are cross-origin isolated (COOP/COEP headers), so that `performance.now()` has its full resolution in ' +
      'Firefox and WebKit too; Chromium runs with `--js-flags=--expose-gc` and collects garbage before each run, Firefox ' +
      'and WebKit give pages no `gc()` (each run is a fresh page). Browser memory is the growth of the web content ' +
      'processes; the network process that buffers a response is not counted. Each cell: median MB/s · time to the first ' +
      'element · peak memory growth' +
      (modes.includes('http')
        ? ' · over HTTP, "end": how long after the transfer alone ' +
          '(the body read and dropped, first row) the last element came.'
        : '.'),
  ];
  for (const mode of modes) {
    for (const size of sizes) {
      const m = parseMatrix(results, size, mode);
      out.push(
        '',
        `### ${sizeLabel(size)} (${(m.bytes / MB).toFixed(1)} MB, ${m.count.toLocaleString('en-US')} articles), ` +
          `${mode === 'http' ? `over a response paced at ${options.paceMBps ? `${options.paceMBps} MB/s` : 'full speed'}` : 'in memory'}`,
        '',
        table(m, { afterTransfer: mode === 'http' }),
      );
    }
  }
  const lost = wins(results);
  out.push(
    '',
    '### Where parsing the whole text wins',
    '',
    lost.length
      ? `Median MB/s of \`JSON.parse\` (or \`res.json()\`) above sluice (SIMD)'s in ${lost.length} of the cells above:\n\n${lost.map((l) => `- ${l}`).join('\n')}`
      : 'Nowhere in this run: sluice (SIMD) had the higher median MB/s in every cell.',
  );
  const written = stringifyMatrix(results);
  if (!written) return out;
  const rows = written.libraries.map((lib) => [
    lib.key === 'sluice' ? `**${lib.label}**` : lib.label,
    ...written.engines.map((e) => (lib.cells[e.key] ? summaryCell(lib.cells[e.key]) : '–')),
  ]);
  out.push(
    '',
    `### Writing ${(written.bytes / MB).toFixed(1)} MB (${written.count} articles from an async generator)`,
    '',
    'The code of `bench/competitors/stringify.mjs`; each cell: median MB/s of output · time to the first byte · peak memory growth.',
    '',
    ...mdTable(['writer', ...written.engines.map((e) => e.label)], rows),
  );
  return out;
}
