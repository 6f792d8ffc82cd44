#!/usr/bin/env node
// The edge claim: the same worker written with sluice and with @streamparser/json-whatwg (what Cloudflare's "Stream
// large JSON" example recommends), in workerd: an upstream array (a service binding to a Node server on 127.0.0.1,
// the body generated and held there) reshaped to NDJSON. Per request: workerd's CPU time (user + system, /proc), time
// to the first byte and to the last; the peak RSS of the workerd process (one process per worker and size) and of
// its V8 heap (inspector, Runtime.getHeapUsage). A passthrough worker is the baseline: workerd streaming the bytes.
// @streamparser/json-whatwg 0.0.22 is quadratic in the rows: it runs at --whatwg-sizes, and at --capped-mb under a
// CPU cap, reported as how far it got.
//
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { makeBody, startUpstream } from './upstream.mjs';
import { integer, list, number, readFlags, set, text } from '../harness/cli.mjs';
import { upperMedian as median } from '../harness/stats.mjs';
import { memoryMb, ROOT, request, startWorker } from './workerd.mjs';

if (typeof WebSocket === 'undefined') {
  // Node 20: the inspector's client needs the WebSocket global.
  const r = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const USAGE = `usage: npm run bench:edge -- [options]   (about 3 min at the defaults; needs dist/ built)
  --sizes MB          upstream sizes for every worker but json-whatwg (default 25,100,400)
  --whatwg-sizes MB   sizes for @streamparser/json-whatwg, quadratic in the rows (default 1,2,5)
  --capped-mb MB      one more json-whatwg run under the CPU cap, 0 for none (default 100)
  --cap S             the CPU cap in seconds (default 60)
  --runs N            requests per cell; tables show medians (default 1)
  --only NAMES        comma-separated workers: passthrough, sluice, @streamparser/json-whatwg, @streamparser/json
  --no-heap           no inspector, no V8 heap figures
  --v8-flags FLAGS    workerd's V8 flags, e.g. "--max-old-space-size=16": the live set against what V8 lets pile up`;
const mbList = (key) => list(key, null, Number);
const options = readFlags(
  USAGE,
  { sizes: [25, 100, 400], whatwgSizes: [1, 2, 5], cappedMb: 100, cap: 60, runs: 1, heap: true },
  {
    '--sizes': mbList('sizes'),
    '--whatwg-sizes': mbList('whatwgSizes'),
    '--capped-mb': number('cappedMb', true),
    '--cap': number('cap'),
    '--runs': integer('runs', 1),
    '--only': list('only'),
    '--no-heap': set({ heap: false }),
    '--v8-flags': text('v8Flags'),
  },
);
const {
  sizes: SIZES,
  whatwgSizes: WHATWG_SIZES,
  cappedMb: CAPPED_MB,
  cap: CAP,
  runs: RUNS,
  heap: HEAP,
  only: ONLY,
} = options;
const V8_FLAGS = (options.v8Flags ?? '').split(' ').filter(Boolean);
const WHATWG = '@streamparser/json-whatwg';
const WORKERS = [
  ['passthrough', 'worker_passthrough.js'],
  ['sluice', 'worker_sluice.js'],
  [WHATWG, 'worker_streamparser.js'],
  ['@streamparser/json', 'worker_streamparser_core.js'],
].filter(([name]) => ONLY === undefined || ONLY.includes(name));

// Every worker at SIZES; json-whatwg at WHATWG_SIZES (sluice and passthrough too, for the ratio) and at CAPPED_MB.
const plan = new Map();
const add = (mb, name) => plan.set(mb, [...(plan.get(mb) ?? []), name]);
for (const mb of SIZES) for (const [name] of WORKERS) if (name !== WHATWG) add(mb, name);
for (const mb of WHATWG_SIZES) for (const [name] of WORKERS) if (name === WHATWG || !SIZES.includes(mb)) add(mb, name);
if (WORKERS.some(([name]) => name === WHATWG) && CAPPED_MB > 0) add(CAPPED_MB, WHATWG);

const upstream = await startUpstream();
const results = []; // { name, mb, rows, bytes, runs, idle, hwm }
const started = performance.now();
try {
  for (const mb of [...plan.keys()].sort((a, b) => a - b)) {
    const { body, rows } = makeBody(mb * 1e6);
    upstream.serve(body);
    for (const name of WORKERS.map(([n]) => n).filter((n) => plan.get(mb).includes(n))) {
      const entry = WORKERS.find(([n]) => n === name)[1];
      const worker = await startWorker(entry, upstream.port, { heap: HEAP, v8Flags: V8_FLAGS });
      try {
        const idle = memoryMb(worker.pid, 'VmRSS');
        const runs = [];
        for (let run = 0; run < (name === WHATWG && mb === CAPPED_MB ? 1 : RUNS); ++run) {
          const r = await request(worker, { capCpu: name === WHATWG ? CAP : Number.POSITIVE_INFINITY });
          r.upstreamMb = upstream.sent() / 1e6;
          const expected = name === 'passthrough' ? r.bytes === body.length : r.lines === rows;
          if (!r.capped && !expected) throw new Error(`${name} at ${mb} MB: ${r.lines} lines, ${r.bytes} bytes`);
          runs.push(r);
          if (r.capped) break;
        }
        const result = { name, mb, rows, bytes: body.length, runs, idle, hwm: memoryMb(worker.pid, 'VmHWM') };
        results.push(result);
        const last = runs.at(-1);
        console.log(
          `${name} ${mb} MB: CPU ${runs.map((r) => r.cpu.toFixed(2)).join(', ')} s${last.capped ? ` (capped after ${last.upstreamMb.toFixed(1)} MB, ${last.lines} rows)` : ''}; ` +
            `TTFB ${runs.map((r) => r.ttfb?.toFixed(0)).join(', ')} ms; RSS idle ${idle.toFixed(0)}, peak ${result.hwm.toFixed(0)} MB; ` +
            `heap peak ${last.heapUsed.toFixed(1)} used / ${last.heapTotal.toFixed(1)} MB, buffers ${last.backing.toFixed(1)} MB`,
        );
      } finally {
        worker.stop();
      }
    }
  }
} finally {
  await upstream.close();
}

const version = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
const find = (name, mb) => results.find((r) => r.name === name && r.mb === mb);
const cpu = (r) => median(r.runs.map((x) => x.cpu));
const names = WORKERS.map(([n]) => n);
const sizes = [...new Set(results.map((r) => r.mb))].sort((a, b) => a - b);
const cell = (r, format) => (r === undefined ? '' : format(r));
const cpuCell = (r) =>
  r.runs.at(-1).capped
    ? `did not finish: stopped at ${CAP} s of CPU, after ${r.runs.at(-1).upstreamMb.toFixed(1)} MB of ${(r.bytes / 1e6).toFixed(0)} MB read (${r.runs.at(-1).lines} of ${r.rows} rows written)`
    : `${cpu(r).toFixed(2)} s${r.name !== 'sluice' && r.name !== 'passthrough' && find('sluice', r.mb) ? ` (${(cpu(r) / cpu(find('sluice', r.mb))).toFixed(1)}x)` : ''}`;
const row = (mb, format) => `| ${mb} MB | ${names.map((n) => cell(find(n, mb), format)).join(' | ')} |`;
const header = ['| upstream | ' + names.join(' | ') + ' |', `|---|${names.map(() => '---|').join('')}`];
const load = os.loadavg()[0].toFixed(1);
const command = `npm run bench:edge -- --sizes ${SIZES.join(',')} --whatwg-sizes ${WHATWG_SIZES.join(',')} --capped-mb ${CAPPED_MB} --cap ${CAP} --runs ${RUNS}${V8_FLAGS.length ? ` --v8-flags '${V8_FLAGS.join(' ')}'` : ''}${ONLY ? ` --only ${ONLY.join(',')}` : ''}`;
const table = [
  `workerd ${version(join(ROOT, 'node_modules', 'workerd'))}, ${WHATWG} ${version(join('node_modules', '@streamparser', 'json-whatwg'))} ` +
    `(over @streamparser/json 0.0.22), @streamparser/json ${version(join('node_modules', '@streamparser', 'json'))}; ` +
    `${RUNS === 1 ? 'one request' : `median of ${RUNS} requests`} per cell (the first includes compiling the worker), ` +
    `load average ${load} at the end, ${((performance.now() - started) / 60000).toFixed(1)} min. \`${command}\`.`,
  '',
  "CPU per request (against sluice's at the same size):",
  '',
  ...header,
  ...sizes.map((mb) => row(mb, cpuCell)),
  '',
  'Time to first byte:',
  '',
  ...header,
  ...sizes.map((mb) =>
    row(mb, (r) => (r.runs[0].ttfb === undefined ? '' : `${median(r.runs.map((x) => x.ttfb)).toFixed(0)} ms`)),
  ),
  '',
  "workerd peak RSS (VmHWM; idle before the request), and the V8 heap's peak during the request, used / reserved " +
    '(ArrayBuffers outside it: the peak of their backing stores):',
  '',
  ...header,
  ...sizes.map((mb) =>
    row(mb, (r) => {
      const last = r.runs.at(-1);
      const heap = HEAP
        ? `; heap ${last.heapUsed.toFixed(0)} / ${last.heapTotal.toFixed(0)} MB, buffers ${last.backing.toFixed(0)} MB`
        : '';
      return `${r.hwm.toFixed(0)} MB (${r.idle.toFixed(0)})${heap}`;
    }),
  ),
].join('\n');
console.log(`\n${table}`);
// docs/benchmarks.md's "At the edge" section shows both (bench/harness/render/markdown.mjs reads these files); a run
// with V8 flags is the memory experiment beside the default one, so it gets its own file.
mkdirSync(join(ROOT, 'bench', 'results', 'edge'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'edge', V8_FLAGS.length ? 'table-v8-flags.md' : 'table.md'), `${table}\n`);
writeFileSync(
  join(ROOT, 'bench', 'results', 'edge', `edge-${new Date().toISOString().slice(0, 19).replace(/:/g, '')}.json`),
  JSON.stringify({ command, load, results }, null, 1),
);
