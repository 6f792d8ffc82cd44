// Instructions per parse of a build of dist/ (the parser's or the lazy index's module under test), counted by
// callgrind, which the machine's load does not change: what decides between optimisation levels, allocators and
// flags of the wasm modules (bench/sizes/main.mjs says what each weighs). After one warm-up parse, only the RUNS
// parses are counted (instrumentation switched on and off around them):
//   valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/cg.%p \
//     node --single-threaded bench/tools/instructions.mjs DIST WORKLOAD RUNS
// then `callgrind_annotate /tmp/cg.PID | head -20` (or the `totals:` line of the file). WORKLOAD is
//   value | bytes | validate   createParser() over articles 25,000 (10.4 MB) in 64 KiB chunks: elements as values
//                              (the default output), as bytes, or none selected (validation only)
//   lazy                       lazyParse() of tests/corpus/jsonexamples/twitter.json, then JSON.stringify of it all
//   lazyindex                  the lazy index's module alone, called directly (no lazyParse): articles 25,000
//                              built, then every container listed (lazyParse's JS and GC would blur the module's
//                              own count)
// DIST is a copy of dist/ (with another sluice.simd.wasm and its glue, or another sluice-lazy.simd.wasm).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureDataset } from '../datasets.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const [distArg, workload, runsArg] = process.argv.slice(2);
const runs = Number(runsArg);
if (!distArg || !['value', 'bytes', 'validate', 'lazy', 'lazyindex'].includes(workload) || !(runs > 0)) {
  console.error('usage: node bench/tools/instructions.mjs DIST value|bytes|validate|lazy|lazyindex RUNS');
  process.exit(2);
}
const dist = resolve(distArg);
const { init, createParser, lazyParse } = await import(pathToFileURL(join(dist, 'index.js')).href);
await init(new Uint8Array(readFileSync(join(dist, 'sluice.simd.wasm'))), {
  lazyModule: new Uint8Array(readFileSync(join(dist, 'sluice-lazy.simd.wasm'))),
});

const CHUNK = 64 * 1024;
let work;
if (workload === 'lazy') {
  const text = readFileSync(join(ROOT, 'tests/corpus/jsonexamples/twitter.json'));
  work = () => JSON.stringify(lazyParse(text)).length;
} else if (workload === 'lazyindex') {
  const bytes = readFileSync(await ensureDataset('articles', 25_000));
  const { instance } = await WebAssembly.instantiate(readFileSync(join(dist, 'sluice-lazy.simd.wasm')), {
    env: { emscripten_notify_memory_growth() {} },
    wasi_snapshot_preview1: { proc_exit() {} },
  });
  const m = instance.exports;
  m._initialize();
  const out = m.lazy_out_address() >>> 2;
  work = () => {
    const index = m.lazy_index_new(1024);
    const at = m.lazy_index_reserve(index, bytes.length);
    new Uint8Array(m.memory.buffer).set(bytes, at);
    if (m.lazy_index_build(index, bytes.length) !== 0) throw new Error('build failed');
    m.lazy_index_containers(index);
    const containers = new Uint32Array(m.memory.buffer)[out + 2];
    let members = 0;
    for (let c = 0; c < containers; c++) {
      if (m.lazy_index_children(index, c) === 0) throw new Error(`listing ${c} failed`);
      members += new Uint32Array(m.memory.buffer)[out + 2];
    }
    m.lazy_index_delete(index);
    return members;
  };
} else {
  const bytes = readFileSync(await ensureDataset('articles', 25_000));
  const options =
    workload === 'validate'
      ? { path: '$.none' }
      : { path: '$._embedded.articles[*]', output: workload === 'bytes' ? 'bytes' : 'value' };
  work = () => {
    const parser = createParser(options);
    let count = 0;
    for (let at = 0; at < bytes.length; at += CHUNK) count += parser.push(bytes.subarray(at, at + CHUNK)).length;
    return count + parser.end().length;
  };
}

const callgrind = (state) => execFileSync('callgrind_control', ['-i', state, String(process.pid)], { stdio: 'ignore' });
const warm = work();
callgrind('on');
let total = 0;
for (let run = 0; run < runs; run++) total += work();
callgrind('off');
console.log(`${workload}: ${runs} runs counted after a warm-up (${warm} elements or characters each; ${total} in all)`);
