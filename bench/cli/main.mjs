// npm run bench:cli: `sluice select` against the command-line peers, every run a fresh process under runner.c.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { DATA_DIR, ensureDataset, fileSize } from '../datasets.mjs';
import { integer, list, log, readFlags, set } from '../harness/cli.mjs';
import { environment, packageVersion } from '../harness/environment.mjs';
import { roundRobin } from '../harness/runtime.mjs';
import { renderChart } from '../harness/render/chart.mjs';
import { writeResults } from '../harness/save.mjs';
import { mdTable, median } from '../harness/stats.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PEER_BIN = `${ROOT}bench/node_modules/.bin/`;
const HERE = `${ROOT}bench/cli/`;
const BUILD = `${ROOT}build/bench-cli/`;
const RUNNER = `${BUILD}runner`;
const SIMDJSON_BIN = `${BUILD}simdjson_select`;
const SIMDJSON = `${ROOT}node_modules/@nozbe/simdjson/src/`;
const PATH = '$._embedded.articles[*]';
const JQ_STREAM = 'fromstream(3|truncate_stream(inputs | select(.[0][0] == "_embedded" and .[0][1] == "articles")))';
const node = process.execPath;

const select = (f) => [node, `${ROOT}dist/cli/sluice.cjs`, 'select', PATH, f];
const script = (mode) => (f) => [node, `${ROOT}bench/competitors/cli_js_select.mjs`, mode, f];
/** [id, label, argv(file, pretty), extra]; `ndjson`: reads NDJSON on its standard input, so the tight file only. */
const COMMANDS = [
  ['sluice', 'sluice select', select, { own: true }],
  ['sluice-scalar', 'sluice select (scalar build)', select, { own: true, env: { SLUICE_WASM: 'scalar' } }],
  ['simdjson', 'simdjson On-Demand (C++)', (f, pretty) => [SIMDJSON_BIN, f, ...(pretty ? ['--minify'] : [])]],
  ['jq', 'jq -c', (f) => ['jq', '-c', '._embedded.articles[]', f]],
  ['jq-stream', 'jq -c --stream', (f) => ['jq', '-cn', '--stream', JQ_STREAM, f]],
  ['gojq', 'gojq -c (sorts keys)', (f) => ['gojq', '-c', '._embedded.articles[]', f]],
  ['ndjson-split', 'ndjson-split', () => [`${PEER_BIN}ndjson-split`, 'd._embedded.articles'], { ndjson: true }],
  ['fx', 'fx', (f) => [`${PEER_BIN}fx`, f, '._embedded.articles', '.map(x => JSON.stringify(x)).join("\\n")']],
  ['json-parse', 'JSON.parse script', script('json-parse')],
  ['streamparser', '@streamparser/json script', script('streamparser')],
].map(([id, label, argv, extra]) => ({ id, label, argv, ...extra }));

const IDS = COMMANDS.map((c) => c.id);
const options = readFlags(
  `usage: npm run bench:cli -- [options]
  --runs N     runs per command and input; tables show medians (default 3)
  --only IDS   comma-separated command ids (default: all): ${IDS.join(',')}
  --quick      a smoke run: 10 MB of articles, one run, no 1 GB and 4.2 GB runs (which generate 5.3 GB once)`,
  { runs: 3, only: IDS, big: true, quick: false },
  {
    '--runs': integer('runs', 1),
    '--only': list('only', IDS),
    '--quick': set({ quick: true, runs: 1, big: false }),
  },
);

const versionOf = (command) =>
  spawnSync(command, ['--version'], { encoding: 'utf8' }).stdout?.trim().split('\n')[0] || 'unknown';

/** A binary built again when one of its sources is newer. */
function build(out, [compiler, ...flags], ...sources) {
  if (!existsSync(out) || sources.some((source) => statSync(source).mtimeMs > statSync(out).mtimeMs)) {
    log(`bench:cli: building ${out} (${compiler} ${flags.join(' ')})`);
    execFileSync(compiler, [...flags, '-o', out, ...sources], { stdio: 'inherit' });
  }
}

// jq and gojq from apt when missing; runner.c and the simdjson On-Demand peer (about a minute) into build/bench-cli/.
const missing = ['jq', 'gojq'].filter((command) => versionOf(command) === 'unknown');
if (missing.length > 0) {
  log(`bench:cli: installing ${missing.join(' ')} (apt-get)`);
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
mkdirSync(BUILD, { recursive: true });
build(RUNNER, ['cc', '-O2', '-Wall'], `${HERE}runner.c`);
const cxx = ['c++', '-O3', '-std=c++17', `-I${SIMDJSON}`];
build(SIMDJSON_BIN, cxx, `${HERE}simdjson_select.cpp`, `${SIMDJSON}simdjson.cpp`);
// NODE_EXTRA_CA_CERTS makes every Node process parse a CA bundle at start: the machine's cost, not the commands'.
const { NODE_EXTRA_CA_CERTS: _, ...ENV } = process.env;

function measure(command, file, pretty, { pipe = false, first = false, extraArgs = [] } = {}) {
  const flags = [pipe && '--pipe', first && '--first', ...(command.ndjson ? ['--stdin', file] : [])].filter(Boolean);
  const argv = [...flags, '--', ...command.argv(file, pretty), ...extraArgs];
  return JSON.parse(execFileSync(RUNNER, argv, { env: { ...ENV, ...command.env }, encoding: 'utf8' }));
}

/** CPU time split into fixed and per-byte cost: one article, the 100 MB file and one twice as long, interleaved. */
async function measureFixedCost(commands, runs) {
  const files = { one: await sized(1), single: await sized(count), double: await sized(2 * count) };
  const { one, single, double } = files;
  const cpu = new Map();
  const add = (key, command, file) => {
    const result = measure(command, file, false);
    if (result.code !== 0) throw new Error(`bench:cli: ${key} exited with ${result.code}`);
    cpu.set(key, [...(cpu.get(key) ?? []), result.cpuMs]);
  };
  for (let round = 0; round < runs; round++) {
    add('node', { argv: () => [node, '-e', '0'] }, one.file);
    for (const command of commands)
      for (const [name, { file }] of Object.entries(files)) add(`${command.id}/${name}`, command, file);
    log(`fixed cost: round ${round + 1}/${runs}`);
  }
  const med = (key) => median(cpu.get(key));
  return {
    runs,
    nodeMs: med('node'),
    singleLabel: single.label,
    doubleLabel: double.label,
    rows: commands.map(({ id, label, own = false }) => {
      const [oneMs, singleMs, doubleMs] = Object.keys(files).map((file) => med(`${id}/${file}`));
      const perFileMs = doubleMs - singleMs;
      // (double - single) bytes in (double - single) ms: the rate once started and compiled.
      const steadyMBps = (double.bytes - single.bytes) / 1e3 / perFileMs;
      const fixedMs = singleMs - perFileMs * (single.bytes / (double.bytes - single.bytes));
      return { id, label, own, oneMs, singleMs, doubleMs, steadyMBps, fixedMs };
    }),
  };
}

function fixedCostMarkdown(split) {
  const ms = (x) => `${Math.round(x)} ms`;
  const { singleLabel: single, doubleLabel: double } = split;
  const rows = split.rows.map((r) => [
    r.own ? `**${r.label}**` : r.label,
    ...[r.oneMs, r.singleMs, r.doubleMs].map(ms),
    `${Math.round(r.steadyMBps)} MB/s`,
    ms(r.fixedMs),
  ]);
  return [
    `Where the CPU time goes: medians of ${split.runs} interleaved fresh processes (\`node -e 0\`: ${ms(split.nodeMs)}). ` +
      `Per byte: the ${double} file's time less the ${single}'s, as MB/s. Fixed: the ${single} run less its bytes at ` +
      "that rate (the process's start and, for sluice, V8's compile of the scan and the reads run before it).",
    '',
    ...mdTable(['command', '1 article', single, double, 'per byte', 'fixed'], rows),
  ];
}

const mib = (kib) => kib / 1024;
const round = (v) => (v < 10 ? v.toFixed(1) : String(Math.round(v)));

function summarise(bytes, runs) {
  const ok = runs.filter((r) => r.code === 0);
  if (ok.length === 0) return { failed: `exit ${runs[0]?.code}` };
  const cpuMs = median(ok.map((r) => r.cpuMs));
  return {
    mbps: bytes / 1e3 / cpuMs,
    cpuMs,
    rssMiB: mib(median(ok.map((r) => r.maxRssKiB))),
    wallMs: median(ok.map((r) => r.wallMs)),
    firstLineMs: median(runs.map((r) => r.first?.firstByteMs)),
    bytesOut: runs[0].pipe?.bytesOut ?? null,
  };
}

function cell(s) {
  if (s === undefined) return '–';
  if (s.failed) return s.failed;
  const t = s.firstLineMs;
  const first = t === null ? '' : ` · ${t < 1000 ? `${Math.round(t)} ms` : `${(t / 1000).toFixed(1)} s`}`;
  return `${round(s.mbps)} MB/s · ${round(s.rssMiB)} MiB${first}${s.note ? ` (${s.note})` : ''}`;
}

const count = options.quick ? 25_000 : 250_000;
const tight = await ensureDataset('articles', count, { log });
const pretty = `${DATA_DIR}/articles-${count}.pretty.json`;
if (!existsSync(pretty)) {
  // The dataset is JSON.stringify's output, so this only adds whitespace: every command must write the same lines.
  log(`bench:cli: writing the pretty-printed copy ${pretty}`);
  writeFileSync(pretty, `${JSON.stringify(JSON.parse(readFileSync(tight, 'utf8')), null, 2)}\n`);
}
const mb = (file) => `${(fileSize(file) / 1e6).toFixed(0)} MB`;
const sized = async (n) => {
  const file = await ensureDataset('articles', n, { log });
  return { file, bytes: fileSize(file), label: mb(file) };
};
const inputs = [
  { key: 'tight', label: `${mb(tight)} of articles`, file: tight, pretty: false },
  { key: 'pretty', label: `the same, pretty-printed (${mb(pretty)})`, file: pretty, pretty: true },
];
const all = COMMANDS.filter((c) => options.only.includes(c.id));
const env = environment();
const runs = await roundRobin({
  runs: options.runs,
  entries: inputs.flatMap((input) =>
    all
      .filter((c) => !(input.pretty && c.ndjson))
      .map((c) => ({ key: `${c.id}/${input.key}`, label: `${c.id}/${input.key}`, c, input })),
  ),
  runOnce: ({ c, input }, earlier) => {
    // The first run of each warms the disk cache and goes to a pipe: the output size.
    const pipe = earlier.length === 0 ? measure(c, input.file, input.pretty, { pipe: true }) : undefined;
    const result = measure(c, input.file, input.pretty);
    // The time to the first line, on a warm disk: to a pipe, stopped at the first byte.
    const first = measure(c, input.file, input.pretty, { first: true });
    return { ...result, pipe, first };
  },
  shown: (r) => `${r.cpuMs.toFixed(0)} ms CPU, ${mib(r.maxRssKiB).toFixed(1)} MiB, exit ${r.code}`,
  tag: 'round',
});
const expectedBytes = runs['sluice/tight']?.[0].pipe.bytesOut;
const table = all.map(({ id, label, own = false }) => ({
  id,
  label,
  own,
  cells: inputs.map((input) => {
    const list = runs[`${id}/${input.key}`];
    const cell = list && summarise(fileSize(input.file), list);
    if (cell && !cell.failed && expectedBytes !== undefined && cell.bytesOut !== expectedBytes) {
      cell.note = `wrote ${cell.bytesOut} bytes, sluice ${expectedBytes}`;
      log(`bench:cli: ${id} on ${input.key} ${cell.note}`);
    }
    return cell;
  }),
}));

const splitCommands = all.filter((c) => c.id === 'sluice' || c.id === 'simdjson');
const runsOfSplit = options.quick ? 1 : Math.max(11, options.runs);
const split = splitCommands.length === 0 ? null : await measureFixedCost(splitCommands, runsOfSplit);

const big = [];
for (const n of options.big ? [2_500_000, 10_000_000] : []) {
  const { file, bytes } = await sized(n);
  // An untimed run first reads the file into the disk cache: the runs measure the command, not the disk.
  measure(COMMANDS[0], file, false);
  for (const progress of [false, true]) {
    const result = measure(COMMANDS[0], file, false, { extraArgs: progress ? ['--progress'] : [] });
    big.push({ bytes, progress, ...result, mbps: bytes / 1e3 / result.cpuMs });
    log(`big ${n}${progress ? ' --progress' : ''}: ${result.cpuMs.toFixed(0)} ms CPU, ${mib(result.maxRssKiB)} MiB`);
  }
}

const versions =
  `Node ${env.node}; ${versionOf('jq')}; ${versionOf('gojq')}; fx ${packageVersion('fx')}; ` +
  `ndjson-cli ${packageVersion('ndjson-cli')}; @streamparser/json ${packageVersion('@streamparser/json')}; simdjson 3.9.4`;
// The date and the load average go to results.json only: table.md and the chart are copied into docs/cli.md.
const machine = `${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}`;
const args = process.argv.slice(2);
const command = `npm run bench:cli${args.length ? ` -- ${args.join(' ')}` : ''}`;
const lines = [
  `\`${command}\`: extracting \`${PATH}\` as NDJSON. Each cell: MB of input per second of CPU time (user + system, ` +
    'all threads), peak RSS, time to the first line (runs writing to a pipe, stopped at their first byte); medians ' +
    `of ${options.runs} fresh processes.`,
  '',
  ...mdTable(
    ['command', ...inputs.map((i) => i.label)],
    table.map((row) => [row.own ? `**${row.label}**` : row.label, ...row.cells.map(cell)]),
  ),
  ...(split ? ['', ...fixedCostMarkdown(split)] : []),
];
if (big.length > 0) {
  lines.push('', 'Big files: one run each, after an untimed run that reads the file into the disk cache.', '');
  const what = (b) => `${(b.bytes / 1e9).toFixed(2)} GB${b.progress ? ', --progress' : ''}`;
  const rows = big.map((b) => [what(b), Math.round(b.mbps), `${mib(b.maxRssKiB).toFixed(1)} MiB`]);
  lines.push(...mdTable(['sluice select', 'MB/s of CPU', 'peak RSS'], rows));
}
lines.push('', `${versions}.`, `${machine}.`);
const markdown = `${lines.join('\n')}\n`;
process.stdout.write(markdown);
// Per command, MB/s of CPU (higher is better) and peak RSS (log: the peers span 3 MiB to gigabytes), per input.
const measured = (i) =>
  table.filter(({ cells: c }) => c[i] && !c[i].failed).map(({ label, cells: c }) => [label, [c[i].mbps, c[i].rssMiB]]);
const groups = table.map(({ label, own }) => ({ key: label, label, own }));
const series = inputs.map(({ label }, i) => ({ key: label, label, values: Object.fromEntries(measured(i)) }));
const svg = renderChart(
  { groups, series },
  {
    title: `Extracting ${PATH} as NDJSON: MB/s of CPU and peak RSS`,
    caption: [`${command}, medians of fresh processes. ${versions}.`, `${machine}.`],
    panels: [
      { title: 'MB/s of CPU time (higher is better)', format: round },
      { title: 'Peak RSS, MiB, log scale (lower is better)', log: true, format: round },
    ],
  },
);
const run = { date: new Date().toISOString(), loadavg: os.loadavg(), env, options, inputs, table, split, big };
const files = { 'results.json': JSON.stringify(run, null, 2), 'table.md': markdown, 'chart.svg': svg };
log(`bench:cli: wrote ${writeResults('cli', files)}results.json, table.md and chart.svg`);
