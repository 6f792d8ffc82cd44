// Instructions executed in the optimised code of each wasm function for `sluice select` of articles 25,000
// (10.4 MB) in compact lines, fed in 256 KiB pieces to a sluice-cli module: callgrind counts every instruction
// (--dump-instr=yes) and node's --perf-basic-prof map names the code's address ranges. Unlike the total of the
// process (instructions.mjs), which moves by a few per cent between identical runs with the JS heap's work, this
// count repeats exactly: what decides between two builds of the scan.
//   node bench/tools/jit_instructions.mjs WASM... [--passes N] [--node-flag FLAG]...
// WASM: sluice-cli.simd.wasm files (dist/ has the current one). Prints, for each, the total and the heaviest
// functions (V8's names: wasm-function[index]).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDataset } from '../datasets.mjs';

const READ = 256 * 1024;
const SELF = fileURLToPath(import.meta.url);

/** Under callgrind: the passes themselves, on the raw exports (no JS layer, whose work would blur nothing here). */
async function drive(wasmPath, passes, dataPath) {
  const data = readFileSync(dataPath);
  const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {
    env: { emscripten_notify_memory_growth() {} },
    wasi_snapshot_preview1: {
      proc_exit(code) {
        throw new Error(`exit ${code}`);
      },
    },
  });
  const m = instance.exports;
  m._initialize();
  const view = m.parser_view_address() >>> 2;
  const path = new TextEncoder().encode('$._embedded.articles[*]');
  for (let pass = 0; pass < passes; pass++) {
    const parser = m.parser_new(1024, 256 * 1024 * 1024, 16); // 16: compact lines, as `sluice select`
    m.parser_reserve(READ);
    new Uint8Array(m.memory.buffer).set(path, new Uint32Array(m.memory.buffer)[view]);
    if (m.parser_add_path(parser, 0, path.length) !== -1) throw new Error('path refused');
    for (let at = 0; at < data.length; at += READ) {
      const u32 = new Uint32Array(m.memory.buffer);
      const n = Math.min(READ, u32[view + 1], data.length - at);
      new Uint8Array(m.memory.buffer, u32[view], n).set(data.subarray(at, at + n));
      if (m.parser_feed(parser, n) !== 0) throw new Error('feed failed');
    }
    if (m.parser_finish(parser) !== 0) throw new Error('finish failed');
    m.parser_delete(parser);
  }
}

/** Self cost per instruction address, from a callgrind file written with --dump-instr=yes (positions: instr line). */
function costByAddress(file) {
  const cost = new Map();
  let last = 0n;
  let skip = false; // the line after calls= is the call's inclusive cost, not self cost
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('calls=')) {
      skip = true;
      continue;
    }
    const m = /^(0x[0-9a-f]+|[+-]\d+|\*)\s+\S+\s+(\d+)/.exec(line);
    if (m === null) continue;
    const p = m[1];
    last = p.startsWith('0x') ? BigInt(p) : p === '*' ? last : last + BigInt(p);
    if (skip) {
      skip = false;
      continue;
    }
    cost.set(last, (cost.get(last) ?? 0) + Number(m[2]));
  }
  return cost;
}

function measure(wasmPath, passes, nodeFlags, dataPath) {
  const dir = mkdtempSync(join(tmpdir(), 'jit-instructions-'));
  try {
    const out = join(dir, 'callgrind.out');
    execFileSync(
      'valgrind',
      [
        '--tool=callgrind',
        '--dump-instr=yes',
        `--callgrind-out-file=${out}`,
        'node',
        '--single-threaded',
        '--no-liftoff',
        '--perf-basic-prof',
        ...nodeFlags,
        SELF,
        '--drive',
        wasmPath,
        String(passes),
        dataPath,
      ],
      { stdio: 'ignore', cwd: dir },
    );
    const pid = /^pid:\s*(\d+)/m.exec(readFileSync(out, 'utf8').slice(0, 4096))[1];
    const mapFile = `/tmp/perf-${pid}.map`;
    const ranges = [];
    for (const line of readFileSync(mapFile, 'utf8').split('\n')) {
      const [start, size, ...name] = line.split(' ');
      if (name.join(' ').includes('wasm-function')) {
        ranges.push({
          start: BigInt(`0x${start}`),
          end: BigInt(`0x${start}`) + BigInt(`0x${size}`),
          name: name.join(' '),
        });
      }
    }
    rmSync(mapFile, { force: true });
    const byFunction = new Map();
    for (const [address, n] of costByAddress(out)) {
      const range = ranges.find((r) => address >= r.start && address < r.end);
      if (range !== undefined) byFunction.set(range.name, (byFunction.get(range.name) ?? 0) + n);
    }
    return byFunction;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === '--drive') {
  await drive(args[1], Number(args[2]), args[3]);
} else {
  let passes = 2;
  const nodeFlags = [];
  const wasms = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--passes') passes = Number(args[++i]);
    else if (args[i] === '--node-flag') nodeFlags.push(args[++i]);
    else wasms.push(resolve(args[i]));
  }
  if (wasms.length === 0 || !(passes > 0)) {
    console.error('usage: node bench/tools/jit_instructions.mjs WASM... [--passes N] [--node-flag FLAG]...');
    process.exit(2);
  }
  const dataPath = await ensureDataset('articles', 25_000);
  for (const wasm of wasms) {
    const byFunction = measure(wasm, passes, nodeFlags, dataPath);
    const sorted = [...byFunction].sort((a, b) => b[1] - a[1]);
    const total = sorted.reduce((sum, [, n]) => sum + n, 0);
    console.log(`${wasm}: ${passes} passes, ${(total / 1e6).toFixed(2)} M instructions in wasm code`);
    for (const [name, n] of sorted.slice(0, 5)) console.log(`  ${(n / 1e6).toFixed(2).padStart(8)} M  ${name}`);
  }
}
