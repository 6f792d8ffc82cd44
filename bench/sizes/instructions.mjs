// Instructions per parse of a build of dist/ (the parser's or the lazy index's module under test), counted by
// callgrind, which the machine's load does not change: what decides between optimisation levels, allocators and
// flags of the wasm modules (bench/sizes/main.mjs says what each weighs). After one warm-up parse, only the RUNS
// parses are counted (instrumentation switched on and off around them):
//   valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/cg.%p \
//     node --single-threaded bench/sizes/instructions.mjs DIST WORKLOAD RUNS
// then `callgrind_annotate /tmp/cg.PID | head -20` (or the `totals:` line of the file). WORKLOAD is
//   value | bytes | validate   createParser() over articles 25,000 (10.4 MB) in 64 KiB chunks: elements as values
//                              (the default output), as bytes, or none selected (validation only)
//   lazy                       lazyParse() of tests/corpus/jsonexamples/twitter.json, then JSON.stringify of it all
//   lazyscan                   lazyParse() of articles 25,000, then the last article's id (the index's scan and
//                              one listing of 25,000 members: the lazy module's work, little JS)
// DIST is a copy of dist/ (with another sluice.simd.wasm and its glue, or another sluice-lazy.simd.wasm).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureDataset } from '../datasets.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const [distArg, workload, runsArg] = process.argv.slice(2);
const runs = Number(runsArg);
if (!distArg || !['value', 'bytes', 'validate', 'lazy', 'lazyscan'].includes(workload) || !(runs > 0)) {
  console.error('usage: node bench/sizes/instructions.mjs DIST value|bytes|validate|lazy|lazyscan RUNS');
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
} else if (workload === 'lazyscan') {
  const bytes = readFileSync(await ensureDataset('articles', 25_000));
  work = () => {
    const articles = lazyParse(bytes)._embedded.articles;
    return articles[articles.length - 1].id;
  };
} else {
  const bytes = readFileSync(await ensureDataset('articles', 25_000));
  const options = workload === 'validate' ? { path: '$.none' }
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
