// npm run bench:partial: the libraries token by token (child.mjs), a tool call's SSE body (model.mjs), the design.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { PEERS } from '../competitors/partial.mjs';
import { integer, list, log, readFlags, set } from '../harness/cli.mjs';
import { environment } from '../harness/environment.mjs';
import { roundRobin, runIn } from '../harness/runtime.mjs';
import { finish, renderBlock } from '../harness/save.mjs';
import * as md from './render.mjs';

const { CHECK_SIZE, SIZES } = md;
const ALL = PEERS.map((p) => p.id);
const options = readFlags(
  `usage: npm run bench:partial -- [options]
  --sizes LIST     comma-separated of ${Object.keys(SIZES).join(', ')} (default: all)
  --only IDS       comma-separated of ${ALL.join(', ')} (default: all)
  --runs N         timed runs per library and size in each of 5 processes, median (default: 3)
  --model-only     only the model-output case (renders its table alone)
  --quick          --sizes 2k,20k --runs 1, one process each, 10 sampled tokens and a short design run; never
                   writes docs/partial.md`,
  // The libraries that re-parse the whole text per token are timed on `sample` tokens past fullMax bytes.
  { sizes: Object.keys(SIZES), only: ALL, runs: 3, processes: 5, sample: 40, fullMax: SIZES['2k'] },
  {
    '--sizes': list('sizes', Object.keys(SIZES)),
    '--only': list('only', ALL),
    '--runs': integer('runs', 1),
    '--model-only': set({ modelOnly: true, design: false, only: [] }),
    '--quick': set({ quick: true, sizes: ['2k', '20k'], runs: 1, processes: 1, sample: 10 }),
  },
);
const args = process.argv.slice(2).join(' ');
options.command = `npm run bench:partial${args ? ` -- ${args}` : ''}`;
const child = (name, spec) => runIn('node', spec, { node: [], script: fileURLToPath(new URL(name, import.meta.url)) });

/** Every library and size (round-robin, so that drift moves every size alike), then the model case and the design. */
async function measure() {
  const run = { date: new Date().toISOString(), environment: environment(), options, loadBefore: os.loadavg() };
  run.problems = 0;
  const { runs, fullMax, sample } = options;
  const entries = options.sizes.flatMap((size) =>
    options.only.map((peer) => {
      const check = SIZES[size] === CHECK_SIZE && !PEERS.find((p) => p.id === peer).keepsValues;
      const spec = { peer, size: SIZES[size], runs, check, fullMax, sample };
      return { id: `${size} ${peer}`, label: `${size} ${peer}`, spec };
    }),
  );
  const processes = await roundRobin({
    runs: options.processes,
    entries,
    // After a failure the failure stands; the oracle's check runs in the first process only.
    runOnce: ({ spec }, earlier) =>
      earlier.find((r) => r.error) ?? child('./child.mjs', { ...spec, check: spec.check && !earlier.length }),
    shown: (r) => `${md.tilde(r)}${md.ms(r.totalMs)}, ${md.us(r.usPerToken)} per token`,
    tag: 'process',
  });
  run.results = entries.map(({ id, spec }) => {
    const each = processes[id];
    const { totalMs, usPerToken } = [...each].sort((a, b) => a.totalMs - b.totalMs)[each.length >> 1];
    const result = each.find((r) => r.error) ?? {
      ...each[0],
      totalMs,
      usPerToken,
      runs: each.flatMap((r) => r.runs),
      processMs: each.map((r) => r.totalMs),
    };
    if (result.error) run.problems++;
    return { ...spec, ...result };
  });
  const once = async (name, what, spec) => {
    log(`${what} (one process, interleaved)...`);
    const result = await child(name, spec);
    if (!result.error) return result;
    run.problems++;
    log(`${name}: FAILED: ${result.error}`);
    return null;
  };
  const { quick } = options;
  const model = { rounds: quick ? 2 : 7, bytes: CHECK_SIZE, deltas: 4000, chunk: 1460 };
  run.model = await once('./model.mjs', 'model output: a tool call from an SSE body', model);
  const design = { rounds: quick ? 1 : 5, bigBytes: quick ? 1e6 : 10e6 };
  run.design = options.design === false ? null : await once('./design.mjs', 'design measurements', design);
  run.loadAfter = os.loadavg(); // the date and the load stay in the JSON, out of the documents
  return run;
}

/** A full run without failures into docs/partial.md and the README; the model table from any run but a quick one. */
function render({ results, model, design, problems, environment: env }) {
  const rendered = [];
  const path = (file) => fileURLToPath(new URL(`../../${file}`, import.meta.url));
  const block = (file, name, body) => {
    if (renderBlock(path(file), name, body)) rendered.push(`${file} (${name})`);
    else log(`bench:partial: ${file} has no <!-- ${name}:start --> … <!-- ${name}:end -->: not rendered`);
  };
  if (model && !options.quick) {
    block('docs/partial.md', 'bench:partial-model', md.modelSection(model, options, env));
    if (options.modelOnly && md.renderModelSentence(path('README.md'), 'bench:partial-readme', model))
      rendered.push('README.md (bench:partial-readme, its last sentence)');
  }
  const all = options.sizes.length === Object.keys(SIZES).length && options.only.length === PEERS.length;
  if (all && !options.quick && problems === 0) {
    block('docs/partial.md', 'bench:partial', md.peersSection(results, options, env));
    if (design) block('docs/partial.md', 'bench:partial-design', md.designSection(design, options, env));
    const readme = md.readmeSection(results, model);
    if (readme) block('README.md', 'bench:partial-readme', readme);
  } else log('bench:partial: not a full run without failures: its other tables and the README left alone');
  if (rendered.length) console.log(`rendered: ${rendered.join(', ')}`);
}

const run = await measure();
const { results, model, design, environment: env } = run;
if (results.length) console.log(`\n## Libraries\n\n${md.peersSection(results, options, env)}`);
if (model) console.log(`\n## Model output\n\n${md.modelSection(model, options, env)}`);
if (design) console.log(`\n## Design measurements\n\n${md.designSection(design, options, env)}`);
finish('partial', run, run.problems);
render(run);
