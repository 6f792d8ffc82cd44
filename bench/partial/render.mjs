// The Markdown of bench:partial: docs/partial.md's tables and the README's block (the 20 kB case). No dates or load:
// those stay in bench/results/partial-*.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { KEPT_BYTES } from '../competitors/partial.mjs';
import { mdTable, upperMedian } from '../harness/stats.mjs';

export const SIZES = { '2k': 2e3, '20k': 20e3, '200k': 200e3, '1m': 1e6 };
export const CHECK_SIZE = 20e3;
const README_PEERS = ['sluice', 'jsonriver', 'streamparser', 'ai', 'partial-json', 'openai'];

const count = (n) => n.toLocaleString('en-US');
export const kb = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} kB`);
export const ms = (value) =>
  value >= 100_000
    ? `${count(Math.round(value / 1000))} s`
    : value >= 1000
      ? `${(value / 1000).toFixed(2)} s`
      : value >= 10
        ? `${value.toFixed(0)} ms`
        : `${value.toFixed(2)} ms`;
const msNumber = (value) => (value >= 100 ? count(Math.round(value)) : value.toFixed(value >= 10 ? 1 : 2));
export const us = (value) =>
  value >= 100 ? `${value.toFixed(0)} µs` : value >= 10 ? `${value.toFixed(1)} µs` : `${value.toFixed(2)} µs`;

const commandOf = (options) => options.command ?? 'npm run bench:partial';
const machineOf = (env) => `${env.cpu}, ${env.cores} cores, Node ${env.node} (V8 ${env.v8}); sluice ${env.sluice}`;

function wrongOf(results, peer) {
  const checked = results.find((r) => r.peer === peer && r.wrong !== undefined);
  return checked ? `${count(checked.wrong)} of ${count(checked.tokens)}` : '–';
}

/** docs/partial.md's libraries table and its legend. */
export function peersSection(results, options, env) {
  const sizes = options.sizes;
  const peers = [...new Set(results.map((r) => r.peer))];
  const cell = (peer, size) => results.find((r) => r.peer === peer && r.size === SIZES[size]);
  const header = sizes.map((size) => {
    const any = results.find((r) => r.size === SIZES[size] && !r.error);
    return any ? `${kb(any.bytes)}, ${count(any.tokens)} tokens` : size;
  });
  const checkedBytes = results.find((r) => r.wrong !== undefined)?.bytes ?? CHECK_SIZE;
  const lines = mdTable(['library', ...header, `wrong snapshots (${kb(checkedBytes)} corpus)`], []);
  for (const peer of peers) {
    const first = results.find((r) => r.peer === peer && !r.error);
    const name = peer === 'sluice' ? `**${first?.label ?? peer}**` : (first?.label ?? peer);
    const cells = sizes.map((size) => {
      const r = cell(peer, size);
      if (!r) return '–';
      if (r.error) return 'failed';
      return `${r.sampled ? '~' : ''}${ms(r.totalMs)} · ${us(r.usPerToken)}`;
    });
    const wrong = wrongOf(results, peer);
    lines.push(`| ${name} | ${cells.join(' | ')} | ${peer === 'sluice' ? `**${wrong}**` : wrong} |`);
  }
  return [
    ...lines,
    '',
    `CPU time to read the corpus token by token, reading the value after every token: total · per token (median of ` +
      `${options.runs} runs, after warm-up runs, in each of ${options.processes} fresh processes per library ` +
      `and size, run round-robin; the median process). Values kept: each run's final value is kept until the last ` +
      `${kb(KEPT_BYTES)} of documents read are held, as an app keeps what it parsed; dropped at once (the other rows), a ` +
      `small document's value dies before the first young collection. ~: estimated from ` +
      `${options.sample} tokens spread over the document, each parsed alone (these libraries re-parse the whole text on ` +
      `every token). Wrong snapshots: tokens after which the value shown differs from what the text says ` +
      `(tests/support/partial_oracle.mjs). ${machineOf(env)}. \`${commandOf(options)}\`.`,
  ].join('\n');
}

/** docs/partial.md's design measurements. */
export function designSection(d, options, env) {
  const t = d.tiny.usPerToken;
  const rows = [
    ['tiny deltas: the whole JS parser, text tokens', `${us(t.jsText)} per token`],
    ['tiny deltas: the whole JS parser, the same tokens as UTF-8 bytes', `${us(t.jsBytes)} per token`],
    [
      'tiny deltas: one WebAssembly feed() per token, nothing built (text / bytes)',
      `${us(t.wasmFloorText)} / ${us(t.wasmFloorBytes)} per token`,
    ],
    ...Object.entries(d.freeze).map(([size, v]) => [
      `freezing every snapshot / finished containers only (the default) / none, ${kb(Number(size))} corpus`,
      `${us(v.all)} / ${us(v.finished)} / ${us(v.none)} per token`,
    ]),
    ...Object.entries(d.views).map(([size, v]) => [
      `long open arrays as views from 32 / from 64 (the default) / from 128 / never, ${kb(Number(size))} corpus`,
      `${us(v.from32)} / ${us(v.from64)} / ${us(v.from128)} / ${us(v.never)} per token`,
    ]),
    ...Object.entries(d.flatten).map(([size, v]) => [
      `finished strings made flat (the default) / left ropes, ${kb(Number(size))} corpus`,
      `${us(v.flat)} / ${us(v.ropes)} per token`,
    ]),
    [
      'reading an element of a 1,000-element array',
      `view ${d.read.nsPerElement.view.toFixed(1)} ns, frozen array ` + `${d.read.nsPerElement.frozen.toFixed(1)} ns`,
    ],
    [
      `heap held by the finished value, ${kb(d.heap.bytes)} corpus`,
      `createPartialParser ${(d.heap.partial / 1e6).toFixed(2)} MB, JSON.parse ${(d.heap.jsonParse / 1e6).toFixed(2)} MB`,
    ],
    [
      `big pushes: ${kb(d.big.bytes)} in ${d.big.chunks} chunks of 64 KiB`,
      `partialJson ${ms(d.big.ms.partialJson)}, ` +
        `parseJsonArray(…, { path: '$' }) ${ms(d.big.ms.parseJsonArray)}: ` +
        `**${(d.big.ms.partialJson / d.big.ms.parseJsonArray).toFixed(2)}x**`,
    ],
  ];
  return [
    ...mdTable(['measurement', 'CPU time'], rows, '---'),
    '',
    `Each choice and its alternative interleaved in one process, medians. ${machineOf(env)}. ` +
      `\`${commandOf(options)}\`.`,
  ].join('\n');
}

/** The README's block: the 20 kB case, one row per library, then one line linking docs/partial.md. */
export function readmeSection(results, model) {
  const at = (peer) => results.find((r) => r.peer === peer && r.size === CHECK_SIZE);
  const sluice = at('sluice');
  if (!sluice || sluice.error) return null;
  const lines = mdTable(['library', 'time per document (ms, CPU)', 'wrong snapshots', '× sluice'], []);
  for (const peer of README_PEERS) {
    const r = at(peer);
    if (!r) continue;
    const name = peer === 'sluice' ? `**${r.label}**` : (r.label ?? peer);
    if (r.error) {
      lines.push(`| ${name} | failed | – | – |`);
      continue;
    }
    const time = `${r.sampled ? '~' : ''}${msNumber(r.totalMs)}`;
    const times = r.totalMs / sluice.totalMs;
    const ratio =
      peer === 'sluice'
        ? '1×'
        : `${r.sampled ? '~' : ''}${times >= 100 ? count(Math.round(times)) : times.toFixed(1)}×`;
    const wrong = wrongOf(results, peer);
    lines.push(
      peer === 'sluice'
        ? `| ${name} | **${time}** | **${wrong}** | ${ratio} |`
        : `| ${name} | ${time} | ${wrong} | ${ratio} |`,
    );
  }
  lines.push(
    '',
    `A ${kb(sluice.bytes)} model output read token by token (${count(sluice.tokens)} tokens), the value ` +
      'read after every token; ~: estimated from a sample (these libraries re-parse the whole text on every token); ' +
      'wrong snapshots: values that differ from what the text says. Every size, the method and the design ' +
      'measurements: [docs/partial.md](docs/partial.md).' +
      (model ? ` ${modelSentence(model)}` : ''),
  );
  return lines.join('\n');
}

/** Per round, a's time over b's (the readers ran interleaved): the median and the range. */
export function ratioOf(times, a, b) {
  const each = times[a].map((t, round) => t / times[b][round]).sort((x, y) => x - y);
  return { median: each[each.length >> 1], min: each[0], max: each[each.length - 1] };
}

const spread = (r, digits = 2) =>
  `**${r.median.toFixed(digits)}x** (${r.min.toFixed(digits)} to ${r.max.toFixed(digits)})`;

/** docs/partial.md's model-output table: each reader, then the ratios the issue sets targets for. */
export function modelSection(m, options, env) {
  const { labels, times } = m;
  const median = (id) => upperMedian(times[id]);
  const lines = mdTable(['reader', 'CPU per document', 'per delta', '× the deltas alone'], []);
  for (const id of Object.keys(times)) {
    const t = median(id);
    const name = id === 'ai' || id === 'jsonriver' || id === 'floor' ? labels[id] : `**${labels[id]}**`;
    const ratio = id === 'partial' ? '1×' : `${(t / median('partial')).toFixed(1)}×`;
    lines.push(`| ${name} | ${ms(t)} | ${us((t * 1000) / m.deltas)} | ${ratio} |`);
  }
  const has = (...ids) => ids.every((id) => times[id]);
  const target = (what, r, goal, ok) => `| ${what} | ${spread(r)} | ${goal} | ${ok ? 'met' : 'missed'} |`;
  const targets = ['| ratio (per round) | median (range) | target | |', '|---|---:|---:|---|'];
  if (has('model', 'partial')) {
    const r = ratioOf(times, 'model', 'partial');
    targets.push(target('readModelStream / the deltas alone', r, 'at most 1.2x', r.median <= 1.2));
  }
  if (has('floor', 'partial')) {
    const r = ratioOf(times, 'floor', 'partial');
    targets.push(`| the floor (SSE + JSON.parse of each event) / the deltas alone | ${spread(r)} | – | |`);
  }
  if (has('ai', 'model')) {
    const r = ratioOf(times, 'ai', 'model');
    targets.push(target('`ai` / readModelStream', r, 'at least 50x', r.median >= 50));
  }
  if (has('jsonriver', 'model')) {
    const r = ratioOf(times, 'jsonriver', 'model');
    targets.push(target('eventsource-parser + jsonriver / readModelStream', r, 'at least 50x', r.median >= 50));
  }
  if (has('schema', 'partial')) {
    const r = ratioOf(times, 'schema', 'partial');
    targets.push(target('with the zod schema / without', r, 'at most 1.5x', r.median <= 1.5));
  }
  return [
    ...lines,
    '',
    ...targets,
    '',
    `A ${kb(m.bytes)} tool call (the corpus document) in ${count(m.deltas)} deltas, the value read after every ` +
      `delta, to the final value (checked against JSON.parse). The SSE rows read an OpenAI Chat Completions body ` +
      `of ${kb(m.bodyBytes)} in ${count(m.chunk)}-byte pieces, \`ai\` the same pieces through @ai-sdk/openai's Chat ` +
      `Completions model and a mocked \`fetch\`, then ` +
      `streamText and readUIMessageStream (parsePartialJson of the arguments so far after every delta, as useChat ` +
      `shows them). CPU time, every reader in one process, interleaved over ${m.times.partial?.length ?? '–'} ` +
      `rounds (in each, 10 slices of about 20 ms per reader, taken in turn; \`ai\` once), medians; ratios per round. ${machineOf(env)}. ` +
      `\`${commandOf(options)}\`.`,
  ].join('\n');
}

/** The README's sentence on the model-output case (its table: docs/partial.md). */
export function modelSentence(m) {
  const median = (id) => upperMedian(m.times[id]);
  return (
    `The same ${kb(m.bytes)} as a tool call's ${count(m.deltas)} deltas in an OpenAI SSE body: readModelStream ` +
    `${ms(median('model'))}, eventsource-parser + jsonriver ${ms(median('jsonriver'))}, \`ai\`'s streamText ` +
    `${ms(median('ai'))} (${Math.round(ratioOf(m.times, 'ai', 'model').median)}×); a zod schema checked as the ` +
    `value streams: ${ratioOf(m.times, 'schema', 'partial').median.toFixed(2)}× the unchecked partial parser.`
  );
}

/** A run of the model case alone: its sentence replaces the one at the end of the README block's legend. */
export function renderModelSentence(file, name, m) {
  const doc = readFileSync(file, 'utf8');
  const end = doc.indexOf(`\n<!-- ${name}:end -->`);
  const start = doc.lastIndexOf('\n', end - 1) + 1;
  if (end < 0 || doc.indexOf(`<!-- ${name}:start -->`) < 0) return false;
  const legend = doc.slice(start, end).replace(/ The same [^\n]* deltas in an OpenAI SSE body: .*$/, '');
  writeFileSync(file, `${doc.slice(0, start)}${legend} ${modelSentence(m)}${doc.slice(end)}`);
  return true;
}
