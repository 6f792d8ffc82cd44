// npm run bench:partial: the partial-JSON libraries reading a model's output token by token (issue 20), CPU time
// per token at four sizes and the wrong snapshots each shows, then the measurements behind sluice's design, then a
// tool call read from a provider's SSE body (issue 32). Every library and size runs in a fresh child process
// (child.mjs), the design measurements in one more (design.mjs), the model-output readers in one more (model.mjs).
// Writes bench/results/partial-*.json and, for a full run, the tables of docs/partial.md and the README's block
// (between its bench:partial-readme markers, when it has them); --render FILE does the latter from a saved run.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { integer, list, parseFlags, readOptions, set, text } from '../harness/cli.mjs';
import { environment } from '../harness/environment.mjs';
import { runChild } from '../harness/fork.mjs';
import { saveResults } from '../harness/save.mjs';
import { MODEL_READERS } from '../competitors/model.mjs';
import { PEERS } from '../competitors/partial.mjs';
import {
  CHECK_SIZE,
  designSection,
  modelSection,
  ms,
  peersSection,
  readmeSection,
  renderBlock,
  renderModelSentence,
  SIZES,
  us,
} from './render.mjs';

const USAGE = `usage: npm run bench:partial -- [options]
  --sizes LIST     comma-separated of ${Object.keys(SIZES).join(', ')} (default: all)
  --only IDS       comma-separated of ${PEERS.map((p) => p.id).join(', ')} (default: all)
  --runs N         timed runs per library and size in each process, median (default: 3)
  --processes N    fresh processes per library and size, median of their medians (default: 5), run
                   round-robin: a process's time varies with where its heap and code land, by up to a third
  --full-max SIZE  libraries that re-parse the whole text on every token are timed on every token up to this
                   size (${Object.keys(SIZES).join(', ')}), on --sample tokens above it (default: 2k)
  --sample N       tokens timed per size above --full-max (default: 40)
  --no-design      skip the design measurements
  --no-model       skip the model-output case (a tool call from an SSE body, against eventsource-parser +
                   jsonriver and ai's streamText; with and without a schema)
  --model-only     only the model-output case (renders its table alone)
  --quick          --sizes 2k,20k --runs 1 --sample 10 and a short design run; never writes docs/partial.md
  --render FILE    run nothing: render docs/partial.md and the README's block from a saved full run
                   (bench/results/partial-*.json)`;

function parseOptions(argv) {
  const defaults = { sizes: Object.keys(SIZES), only: PEERS.map((p) => p.id), runs: 3, processes: 5, sample: 40 };
  return parseFlags(
    argv,
    USAGE,
    { ...defaults, fullMax: SIZES['2k'], design: true, model: true, modelOnly: false, quick: false, render: null },
    {
      '--sizes': list('sizes', Object.keys(SIZES)),
      '--only': list(
        'only',
        PEERS.map((p) => p.id),
      ),
      '--runs': integer('runs', 1),
      '--sample': integer('sample', 1),
      '--processes': integer('processes', 1),
      '--full-max': (options, text, flag, fail) => {
        list('fullMax', Object.keys(SIZES), (size) => SIZES[size])(options, text, flag, fail);
        options.fullMax = options.fullMax[0];
      },
      '--no-design': set({ design: false }),
      '--no-model': set({ model: false }),
      '--model-only': set({ modelOnly: true, design: false, only: [] }),
      '--render': text('render'),
      '--quick': set({ quick: true, sizes: ['2k', '20k'], runs: 1, processes: 1, sample: 10 }),
    },
  );
}

const script = (name) => fileURLToPath(new URL(name, import.meta.url));

const log = (line) => process.stderr.write(`${line}\n`);

/** The median of the processes' medians, with every run. */
function medianProcess(each) {
  const middle = [...each].sort((a, b) => a.totalMs - b.totalMs)[each.length >> 1];
  return {
    ...each[0],
    totalMs: middle.totalMs,
    usPerToken: middle.usPerToken,
    runs: each.flatMap((r) => r.runs),
    processMs: each.map((r) => r.totalMs),
  };
}

/** Runs every library and size, then the design measurements; returns what bench/results/partial-*.json holds. */
async function measure(options) {
  const env = environment();
  const loadBefore = os.loadavg();
  const date = new Date().toISOString();
  const specs = [];
  for (const size of options.sizes) {
    for (const id of options.only) {
      specs.push({
        peer: id,
        size: SIZES[size],
        runs: options.runs,
        // Checked in the first process only, and once per parser.
        check: SIZES[size] === CHECK_SIZE && !PEERS.find((p) => p.id === id).keepsValues,
        fullMax: options.fullMax,
        sample: options.sample,
      });
    }
  }
  // Round-robin: each round runs every library and size once, each in a fresh process, so that a machine that
  // drifts during the run moves every size alike (linearity compares sizes).
  const each = specs.map(() => []);
  const failed = specs.map(() => null);
  for (let round = 0; round < options.processes; round++) {
    for (let k = 0; k < specs.length; k++) {
      if (failed[k]) continue;
      const result = await runChild(script('./child.mjs'), { ...specs[k], check: specs[k].check && round === 0 }, []);
      if (result.error) failed[k] = result;
      else each[k].push(result);
    }
    if (specs.length) log(`round ${round + 1} of ${options.processes} done`);
  }
  const results = [];
  let problems = 0;
  for (let k = 0; k < specs.length; k++) {
    const result = failed[k] ?? medianProcess(each[k]);
    if (result.error) problems++;
    results.push({ ...specs[k], ...result });
    const size = Object.keys(SIZES).find((name) => SIZES[name] === specs[k].size);
    log(
      `[${size}] ${(result.label ?? specs[k].peer).padEnd(48)} ${
        result.error
          ? `FAILED: ${result.error}`
          : `${result.sampled ? '~' : ''}${ms(result.totalMs)}, ${us(result.usPerToken)} per token` +
            (result.wrong !== undefined ? `, ${result.wrong} wrong of ${result.tokens}` : '')
      }`,
    );
  }
  let model = null;
  if (options.model) {
    log('model output: a tool call from an SSE body (one process, interleaved)...');
    const spec = { rounds: options.quick ? 2 : 7, bytes: CHECK_SIZE, deltas: 4000, chunk: 1460 };
    model = await runChild(script('./model.mjs'), { ...spec, only: Object.keys(MODEL_READERS) }, []);
    if (model.error) {
      problems++;
      log(`model: FAILED: ${model.error}`);
      model = null;
    }
  }
  let design = null;
  if (options.design) {
    log('design measurements (one process, interleaved)...');
    design = await runChild(
      script('./design.mjs'),
      { rounds: options.quick ? 1 : 5, bigBytes: options.quick ? 1e6 : 10e6 },
      [],
    );
    if (design.error) {
      problems++;
      log(`design: FAILED: ${design.error}`);
      design = null;
    }
  }
  // The date and the load stay in the JSON, out of the rendered documents.
  return { date, environment: env, options, loadBefore, loadAfter: os.loadavg(), results, design, model, problems };
}

/** Renders a full run without failures into docs/partial.md and, when it has the markers, the README. */
function render(run) {
  const { options } = run;
  const rendered = [];
  const block = (file, name, body) => {
    if (renderBlock(fileURLToPath(new URL(`../../${file}`, import.meta.url)), name, body))
      rendered.push(`${file} (${name})`);
    else log(`bench:partial: ${file} has no <!-- ${name}:start --> … <!-- ${name}:end -->: not rendered`);
  };
  // The model-output table stands alone: any run that measured it, but a quick one, renders it.
  if (run.model && !options.quick) {
    block('docs/partial.md', 'bench:partial-model', modelSection(run.model, options, run.environment));
    const readme = fileURLToPath(new URL('../../README.md', import.meta.url));
    if (options.modelOnly && renderModelSentence(readme, 'bench:partial-readme', run.model))
      rendered.push('README.md (bench:partial-readme, its last sentence)');
  }
  const full =
    !options.quick && options.sizes.length === Object.keys(SIZES).length && options.only.length === PEERS.length;
  if (!full || run.problems > 0 || run.results.some((r) => r.error)) {
    log('bench:partial: not a full run without failures: its other tables and the README left alone');
    if (rendered.length) console.log(`rendered: ${rendered.join(', ')}`);
    return;
  }
  block('docs/partial.md', 'bench:partial', peersSection(run.results, options, run.environment));
  if (run.design) block('docs/partial.md', 'bench:partial-design', designSection(run.design, options, run.environment));
  const readme = readmeSection(run.results, run.model);
  if (readme) block('README.md', 'bench:partial-readme', readme);
  if (rendered.length) console.log(`rendered: ${rendered.join(', ')}`);
}

const options = readOptions(() => parseOptions(process.argv.slice(2)), USAGE);
if (options.render) {
  render(JSON.parse(readFileSync(options.render, 'utf8')));
} else {
  const run = await measure(options);
  if (run.results.length) console.log(`\n## Libraries\n\n${peersSection(run.results, options, run.environment)}`);
  if (run.model) console.log(`\n## Model output\n\n${modelSection(run.model, options, run.environment)}`);
  if (run.design) console.log(`\n## Design measurements\n\n${designSection(run.design, options, run.environment)}`);
  saveResults('partial', run);
  render(run);
  if (run.problems) {
    console.error(`bench:partial: ${run.problems} failed run(s) above`);
    process.exitCode = 1;
  }
}
