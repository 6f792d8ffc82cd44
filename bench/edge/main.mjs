// npm run bench:edge: one worker with sluice, @streamparser/json(-whatwg) or passing bytes through, in workerd.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { integer, list, number, readFlags, text } from '../harness/cli.mjs';
import { packageVersion } from '../harness/environment.mjs';
import { writeResults } from '../harness/save.mjs';
import { mdTable, upperMedian as median } from '../harness/stats.mjs';
import { makeBody, memoryMb, request, startUpstream, startWorker } from './workerd.mjs';

if (typeof WebSocket === 'undefined') {
  // Node 20: the inspector's client needs the WebSocket global.
  const r = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const WHATWG = '@streamparser/json-whatwg';
const ENTRIES = {
  passthrough: 'worker_passthrough.js',
  sluice: 'worker_sluice.js',
  [WHATWG]: 'worker_streamparser.js',
  '@streamparser/json': 'worker_streamparser_core.js',
};
const options = readFlags(
  `usage: npm run bench:edge -- [options]   (about 3 min at the defaults; needs dist/ built)
  --sizes MB          upstream sizes for every worker but json-whatwg (default 25,100,400)
  --whatwg-sizes MB   sizes for @streamparser/json-whatwg, quadratic in the rows (default 1,2,5)
  --capped-mb MB      one more json-whatwg run under the CPU cap, 0 for none (default 100)
  --cap S             the CPU cap in seconds (default 60)
  --runs N            requests per cell; tables show medians (default 1)
  --only NAMES        comma-separated workers: ${Object.keys(ENTRIES).join(', ')}
  --v8-flags FLAGS    workerd's V8 flags, e.g. "--max-old-space-size=16": the live set against what V8 lets pile up`,
  { sizes: [25, 100, 400], whatwgSizes: [1, 2, 5], cappedMb: 100, cap: 60, runs: 1, only: Object.keys(ENTRIES) },
  {
    '--sizes': list('sizes', null, Number),
    '--whatwg-sizes': list('whatwgSizes', null, Number),
    '--capped-mb': number('cappedMb', true),
    '--cap': number('cap'),
    '--runs': integer('runs', 1),
    '--only': list('only', Object.keys(ENTRIES)),
    '--v8-flags': text('v8Flags'),
  },
);
const { sizes: SIZES, whatwgSizes, cappedMb, cap, runs: RUNS, only } = options;
const v8Flags = (options.v8Flags ?? '').split(' ').filter(Boolean);
const names = Object.keys(ENTRIES).filter((name) => only.includes(name));

// Every worker at SIZES; json-whatwg at whatwgSizes (sluice and passthrough too, for the ratio) and at cappedMb.
const plan = new Map();
const add = (mb, name) => plan.set(mb, [...(plan.get(mb) ?? []), name]);
for (const mb of SIZES) for (const name of names) if (name !== WHATWG) add(mb, name);
for (const mb of whatwgSizes) for (const name of names) if (name === WHATWG || !SIZES.includes(mb)) add(mb, name);
if (names.includes(WHATWG) && cappedMb > 0) add(cappedMb, WHATWG);

const find = (name, mb) => results.find((r) => r.name === name && r.mb === mb);
const cpu = (r) => median(r.runs.map((x) => x.cpu));
const f0 = (v) => v.toFixed(0);
const cpuCell = (r, last) => {
  const sluice = find('sluice', r.mb);
  const against =
    ['sluice', 'passthrough'].includes(r.name) || !sluice ? '' : ` (${(cpu(r) / cpu(sluice)).toFixed(1)}x)`;
  if (!last.capped) return `${cpu(r).toFixed(2)} s${against}`;
  return (
    `did not finish: stopped at ${cap} s of CPU, after ${last.upstreamMb.toFixed(1)} MB of ` +
    `${f0(r.bytes / 1e6)} MB read (${last.lines} of ${r.rows} rows written)`
  );
};
const ttfbCell = (r) => (r.runs[0].ttfb === undefined ? '' : `${f0(median(r.runs.map((x) => x.ttfb)))} ms`);
const memoryCell = (r, last) =>
  `${f0(r.hwm)} MB (${f0(r.idle)}); heap ${f0(last.heapUsed)} / ${f0(last.heapTotal)} MB, buffers ${f0(last.backing)} MB`;

const upstream = await startUpstream();
const results = []; // { name, mb, rows, bytes, runs, idle, hwm }
const started = performance.now();
try {
  for (const mb of [...plan.keys()].sort((a, b) => a - b)) {
    const { body, rows } = makeBody(mb * 1e6);
    upstream.body = body;
    for (const name of names.filter((n) => plan.get(mb).includes(n))) {
      const worker = await startWorker(ENTRIES[name], upstream.port, { v8Flags });
      try {
        const idle = memoryMb(worker.pid, 'VmRSS');
        const runs = [];
        for (let run = 0; run < (name === WHATWG && mb === cappedMb ? 1 : RUNS); ++run) {
          const r = await request(worker, { capCpu: name === WHATWG ? cap : Number.POSITIVE_INFINITY });
          r.upstreamMb = upstream.sent / 1e6;
          const expected = name === 'passthrough' ? r.bytes === body.length : r.lines === rows;
          if (!r.capped && !expected) throw new Error(`${name} at ${mb} MB: ${r.lines} lines, ${r.bytes} bytes`);
          runs.push(r);
          if (r.capped) break;
        }
        const result = { name, mb, rows, bytes: body.length, runs, idle, hwm: memoryMb(worker.pid, 'VmHWM') };
        results.push(result);
        const cells = [cpuCell, ttfbCell, memoryCell].map((cell) => cell(result, runs.at(-1)));
        console.log(`${name} ${mb} MB: CPU ${cells[0]}; TTFB ${cells[1]}; peak RSS ${cells[2]}`);
      } finally {
        worker.stop();
      }
    }
  }
} finally {
  await upstream.close();
}

const sizes = [...new Set(results.map((r) => r.mb))].sort((a, b) => a - b);
const section = (title, format) => {
  const cell = (r) => (r ? format(r, r.runs.at(-1)) : '');
  const rows = sizes.map((mb) => [`${mb} MB`, ...names.map((n) => cell(find(n, mb)))]);
  return ['', title, '', ...mdTable(['upstream', ...names], rows, '---')];
};
const flags = v8Flags.length ? ` --v8-flags '${v8Flags.join(' ')}'` : '';
const subset = names.length < Object.keys(ENTRIES).length ? ` --only ${names.join(',')}` : '';
const command =
  `npm run bench:edge -- --sizes ${SIZES.join(',')} --whatwg-sizes ${whatwgSizes.join(',')} --capped-mb ` +
  `${cappedMb} --cap ${cap} --runs ${RUNS}${flags}${subset}`;
const load = os.loadavg()[0].toFixed(1);
const edgePeer = (name) => packageVersion(`../edge/node_modules/${name}`);
const table = [
  `workerd ${packageVersion('../../node_modules/workerd')}, ${WHATWG} ${edgePeer(WHATWG)} ` +
    `(over @streamparser/json 0.0.22), @streamparser/json ${edgePeer('@streamparser/json')}; ` +
    `${RUNS === 1 ? 'one request' : `median of ${RUNS} requests`} per cell (the first includes compiling the worker), ` +
    `load average ${load} at the end, ${((performance.now() - started) / 60000).toFixed(1)} min. \`${command}\`.`,
  ...section("CPU per request (against sluice's at the same size):", cpuCell),
  ...section('Time to first byte:', ttfbCell),
  ...section(
    "workerd peak RSS (VmHWM; idle before the request), and the V8 heap's peak during the request, used / reserved " +
      '(ArrayBuffers outside it: the peak of their backing stores):',
    memoryCell,
  ),
].join('\n');
console.log(`\n${table}`);
// docs/benchmarks.md's "At the edge" shows both; a run with V8 flags is the memory experiment beside the default one.
const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '');
writeResults('edge', {
  [v8Flags.length ? 'table-v8-flags.md' : 'table.md']: `${table}\n`,
  [`edge-${stamp}.json`]: JSON.stringify({ command, load, results }, null, 1),
});
