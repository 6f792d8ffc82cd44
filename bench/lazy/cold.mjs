// Where the first document of a fresh process spends its time, against later documents: `node bench/lazy/cold.mjs
// FILE [FRACTION] [--runs N]`. Each run is two fresh processes (node --expose-gc): one times lazyParse() and the
// reads of the chosen leaves (bench:lazy's "from the root" pattern) for the first document and then for 30 more
// (4 for a document over 20 MB), each with the minor page faults it took; the other times TextDecoder +
// JSON.parse of the same bytes, first and later. Later is the median of the second half of those documents, as in
// bench:lazy. Prints medians over the runs. bench:lazy has the ratios; this says what the cold ones are made of.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chooseLeaves, leafValue } from './leaves.mjs';
import { memoryCost, memoryCostLine } from '../parse/environment.mjs';
import { median } from '../parse/report.mjs';

const DIST = new URL('../../dist/', import.meta.url);

const faults = () => process.resourceUsage().minorPageFault;
const settle = async () => {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
};

async function child(spec) {
  const input = new Uint8Array(readFileSync(spec.file));
  const { paths } = chooseLeaves(JSON.parse(new TextDecoder().decode(input)), spec.fraction);
  let read;
  if (spec.kind === 'lazy') {
    const { init, lazyParse } = await import(new URL('index.js', DIST).href);
    await init(readFileSync(new URL('sluice.simd.wasm', DIST)));
    read = () => {
      const f0 = faults();
      const t0 = performance.now();
      const doc = lazyParse(input);
      const t1 = performance.now();
      const f1 = faults();
      let sum = 0;
      for (const path of paths) {
        let value = doc;
        for (const key of path) value = value[key];
        sum += leafValue(value);
      }
      const t2 = performance.now();
      return { open: t1 - t0, reads: t2 - t1, openFaults: f1 - f0, readFaults: faults() - f1, sum };
    };
  } else {
    const decoder = new TextDecoder();
    read = () => {
      const f0 = faults();
      const t0 = performance.now();
      const tree = JSON.parse(decoder.decode(input));
      const t1 = performance.now();
      return { open: t1 - t0, reads: 0, openFaults: faults() - f0, readFaults: 0, sum: Object.keys(tree).length };
    };
  }
  await settle();
  const first = read();
  const later = [];
  const count = input.length > 20e6 ? 4 : 30;
  for (let i = 0; i < count; i++) {
    await settle();
    later.push(read());
  }
  process.send({ first, later: later.slice(count / 2), leaves: paths.length });
  process.disconnect();
}

function run(spec) {
  return new Promise((resolve, reject) => {
    let result = null;
    const proc = fork(fileURLToPath(import.meta.url), ['--child', JSON.stringify(spec)], { execArgv: ['--expose-gc'] });
    proc.on('message', (message) => {
      result = message;
    });
    proc.on('error', reject);
    proc.on('exit', (code) => (result ? resolve(result) : reject(new Error(`child exited with code ${code}`))));
  });
}

async function main(argv) {
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 5;
  const positional = argv.filter((a, i) => !a.startsWith('--') && (runsAt < 0 || i !== runsAt + 1));
  const [file, fractionText = '0.01'] = positional;
  const fraction = Number(fractionText);
  if (!file || !(fraction > 0 && fraction <= 1) || !(runs >= 1)) {
    throw new RangeError('usage: node bench/lazy/cold.mjs FILE [FRACTION (0..1], default 0.01] [--runs N]');
  }
  const results = { lazy: [], parse: [] };
  let leaves = 0;
  for (let r = 0; r < runs; r++) {
    for (const kind of ['lazy', 'parse']) {
      const result = await run({ kind, file, fraction });
      results[kind].push(result);
      leaves = result.leaves;
    }
  }
  const ms = (x) => `${x.toFixed(2)} ms`;
  const part = (kind, pick, key) =>
    median(results[kind].map((r) => (pick === 'first' ? r.first[key] : median(r.later.map((l) => l[key])))));
  console.log(`${file}: ${leaves} leaves read (fraction ${fraction}), medians of ${runs} fresh processes each`);
  console.log(memoryCostLine(memoryCost()));
  console.log('| | first document | later documents (median of the second half) |');
  console.log('|---|---:|---:|');
  for (const [label, kind, key] of [
    ['lazyParse() call', 'lazy', 'open'],
    ['  its minor page faults', 'lazy', 'openFaults'],
    ['reads of the leaves', 'lazy', 'reads'],
    ['  their minor page faults', 'lazy', 'readFaults'],
    ['TextDecoder + JSON.parse', 'parse', 'open'],
    ['  its minor page faults', 'parse', 'openFaults'],
  ]) {
    const fmt = key.endsWith('Faults') ? (x) => String(Math.round(x)) : ms;
    console.log(`| ${label} | ${fmt(part(kind, 'first', key))} | ${fmt(part(kind, 'later', key))} |`);
  }
  const total = (pick) => part('lazy', pick, 'open') + part('lazy', pick, 'reads');
  console.log(
    `JSON.parse time / lazyParse time: first ${(part('parse', 'first', 'open') / total('first')).toFixed(2)}x, ` +
      `later ${(part('parse', 'later', 'open') / total('later')).toFixed(2)}x`,
  );
}

if (process.argv[2] === '--child') {
  await child(JSON.parse(process.argv[3]));
} else {
  await main(process.argv.slice(2));
}
