// The Markdown of bench:partial: docs/partial.md's tables and the README's block (no dates or load).
import { readFileSync } from 'node:fs';
import { KEPT_BYTES } from '../competitors/partial.mjs';
import { renderBlock } from '../harness/save.mjs';
import { mdTable, msWith, upperMedian } from '../harness/stats.mjs';

export const SIZES = { '2k': 2e3, '20k': 20e3, '200k': 200e3, '1m': 1e6 };
export const CHECK_SIZE = 20e3;
const README_PEERS = ['sluice', 'jsonriver', 'streamparser', 'ai', 'partial-json', 'openai'];

const count = (n) => n.toLocaleString('en-US');
const kb = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} kB`);
export const ms = (v) => (v >= 100_000 ? `${count(Math.round(v / 1000))} s` : msWith(2, 0)(v));
const msNumber = (v) => (v >= 100 ? count(Math.round(v)) : v.toFixed(v >= 10 ? 1 : 2));
export const us = (v) => `${v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)} µs`;
const bold = (on, text) => (on ? `**${text}**` : text);
export const tilde = (r) => (r.sampled ? '~' : '');
const signed = (env, options) =>
  `${env.cpu}, ${env.cores} cores, Node ${env.node} (V8 ${env.v8}); sluice ${env.sluice}. ` +
  `\`${options.command ?? 'npm run bench:partial'}\`.`;

function wrongOf(results, peer) {
  const checked = results.find((r) => r.peer === peer && r.wrong !== undefined);
  return checked ? `${count(checked.wrong)} of ${count(checked.tokens)}` : '–';
}

export function peersSection(results, options, env) {
  const header = options.sizes.map((size) => {
    const any = results.find((r) => r.size === SIZES[size] && !r.error);
    return any ? `${kb(any.bytes)}, ${count(any.tokens)} tokens` : size;
  });
  const checkedBytes = results.find((r) => r.wrong !== undefined)?.bytes ?? CHECK_SIZE;
  const rows = [...new Set(results.map((r) => r.peer))].map((peer) => {
    const cells = options.sizes.map((size) => {
      const r = results.find((x) => x.peer === peer && x.size === SIZES[size]);
      return !r ? '–' : r.error ? 'failed' : `${tilde(r)}${ms(r.totalMs)} · ${us(r.usPerToken)}`;
    });
    const label = results.find((r) => r.peer === peer && !r.error)?.label ?? peer;
    return [bold(peer === 'sluice', label), ...cells, bold(peer === 'sluice', wrongOf(results, peer))];
  });
  return [
    ...mdTable(['library', ...header, `wrong snapshots (${kb(checkedBytes)} corpus)`], rows),
    '',
    `CPU time to read the corpus token by token, reading the value after every token: total · per token (median of ` +
      `${options.runs} runs, after warm-up runs, in each of ${options.processes} fresh processes per library ` +
      `and size, run round-robin; the median process). Values kept: each run's final value is kept until the last ` +
      `${kb(KEPT_BYTES)} of documents read are held, as an app keeps what it parsed; dropped at once (the other rows), a ` +
      `small document's value dies before the first young collection. ~: estimated from ` +
      `${options.sample} tokens spread over the document, each parsed alone (these libraries re-parse the whole text on ` +
      `every token). Wrong snapshots: tokens after which the value shown differs from what the text says ` +
      `(tests/support/partial_oracle.mjs). ${signed(env, options)}`,
  ].join('\n');
}

export function designSection(d, options, env) {
  const t = d.tiny.usPerToken;
  const ns = d.read.nsPerElement;
  // Each size's variants in the order measured, which `what` names.
  const per = (values) => `${Object.values(values).map(us).join(' / ')} per token`;
  const bySize = (key, what) =>
    Object.entries(d[key]).map(([size, v]) => [`${what}, ${kb(Number(size))} corpus`, per(v)]);
  const tiny = (what, ...keys) => [`tiny deltas: ${what}`, per(keys.map((key) => t[key]))];
  const rows = [
    tiny('the whole JS parser, text tokens', 'jsText'),
    tiny('the whole JS parser, the same tokens as UTF-8 bytes', 'jsBytes'),
    tiny('one WebAssembly feed() per token, nothing built (text / bytes)', 'wasmFloorText', 'wasmFloorBytes'),
    ...bySize('freeze', 'freezing every snapshot / finished containers only (the default) / none'),
    ...bySize('views', 'long open arrays as views from 32 / from 64 (the default) / from 128 / never'),
    ...bySize('flatten', 'finished strings made flat (the default) / left ropes'),
    [
      'reading an element of a 1,000-element array',
      `view ${ns.view.toFixed(1)} ns, frozen array ${ns.frozen.toFixed(1)} ns`,
    ],
    [
      `heap held by the finished value, ${kb(d.heap.bytes)} corpus`,
      `createPartialParser ${(d.heap.partial / 1e6).toFixed(2)} MB, JSON.parse ${(d.heap.jsonParse / 1e6).toFixed(2)} MB`,
    ],
    [
      `big pushes: ${kb(d.big.bytes)} in ${d.big.chunks} chunks of 64 KiB`,
      `partialJson ${ms(d.big.ms.partialJson)}, parseJsonArray(…, { path: '$' }) ${ms(d.big.ms.parseJsonArray)}: ` +
        `**${(d.big.ms.partialJson / d.big.ms.parseJsonArray).toFixed(2)}x**`,
    ],
  ];
  return [
    ...mdTable(['measurement', 'CPU time'], rows, '---'),
    '',
    `Each choice and its alternative interleaved in one process, medians. ${signed(env, options)}`,
  ].join('\n');
}

/** The README's block: the 20 kB case, one row per library, then one line linking docs/partial.md. */
export function readmeSection(results, model) {
  const at = (peer) => results.find((r) => r.peer === peer && r.size === CHECK_SIZE);
  const sluice = at('sluice');
  if (!sluice || sluice.error) return null;
  const rows = README_PEERS.filter(at).map((peer) => {
    const r = at(peer);
    const own = peer === 'sluice';
    const name = own ? `**${r.label}**` : (r.label ?? peer);
    if (r.error) return [name, 'failed', '–', '–'];
    const times = r.totalMs / sluice.totalMs;
    const ratio = own ? '1×' : `${tilde(r)}${times >= 100 ? count(Math.round(times)) : times.toFixed(1)}×`;
    return [name, bold(own, `${tilde(r)}${msNumber(r.totalMs)}`), bold(own, wrongOf(results, peer)), ratio];
  });
  return [
    ...mdTable(['library', 'time per document (ms, CPU)', 'wrong snapshots', '× sluice'], rows),
    '',
    `A ${kb(sluice.bytes)} model output read token by token (${count(sluice.tokens)} tokens), the value ` +
      'read after every token; ~: estimated from a sample (these libraries re-parse the whole text on every token); ' +
      'wrong snapshots: values that differ from what the text says. Every size, the method and the design ' +
      'measurements: [docs/partial.md](docs/partial.md).' +
      (model ? ` ${modelSentence(model)}` : ''),
  ].join('\n');
}

/** Per round, a's time over b's (the readers ran interleaved): the median and the range. */
function ratioOf(times, a, b) {
  const each = times[a].map((t, round) => t / times[b][round]).sort((x, y) => x - y);
  return { median: each[each.length >> 1], min: each[0], max: each[each.length - 1] };
}

// The model case's ratios: [reader, over reader, what, target, met(median)].
const TARGETS = [
  ['model', 'partial', 'readModelStream / the deltas alone', 'at most 1.2x', (x) => x <= 1.2],
  ['floor', 'partial', 'the floor (SSE + JSON.parse of each event) / the deltas alone', '–'],
  ['ai', 'model', '`ai` / readModelStream', 'at least 50x', (x) => x >= 50],
  ['jsonriver', 'model', 'eventsource-parser + jsonriver / readModelStream', 'at least 50x', (x) => x >= 50],
  ['schema', 'partial', 'with the zod schema / without', 'at most 1.5x', (x) => x <= 1.5],
];

export function modelSection(m, options, env) {
  const { labels, times } = m;
  const median = (id) => upperMedian(times[id]);
  const rows = Object.keys(times).map((id) => [
    bold(!['ai', 'jsonriver', 'floor'].includes(id), labels[id]),
    ms(median(id)),
    us((median(id) * 1000) / m.deltas),
    id === 'partial' ? '1×' : `${(median(id) / median('partial')).toFixed(1)}×`,
  ]);
  const targets = TARGETS.filter(([a, b]) => times[a] && times[b]).map(([a, b, what, goal, met]) => {
    const r = ratioOf(times, a, b);
    const spread = `**${r.median.toFixed(2)}x** (${r.min.toFixed(2)} to ${r.max.toFixed(2)})`;
    return `| ${what} | ${spread} | ${goal} |${met ? ` ${met(r.median) ? 'met' : 'missed'}` : ''} |`;
  });
  return [
    ...mdTable(['reader', 'CPU per document', 'per delta', '× the deltas alone'], rows),
    '',
    '| ratio (per round) | median (range) | target | |',
    '|---|---:|---:|---|',
    ...targets,
    '',
    `A ${kb(m.bytes)} tool call (the corpus document) in ${count(m.deltas)} deltas, the value read after every ` +
      `delta, to the final value (checked against JSON.parse). The SSE rows read an OpenAI Chat Completions body ` +
      `of ${kb(m.bodyBytes)} in ${count(m.chunk)}-byte pieces, \`ai\` the same pieces through @ai-sdk/openai's Chat ` +
      `Completions model and a mocked \`fetch\`, then streamText and readUIMessageStream (parsePartialJson of the ` +
      `arguments so far after every delta, as useChat shows them). CPU time, every reader in one process, interleaved ` +
      `over ${m.times.partial?.length ?? '–'} rounds (in each, 10 slices of about 20 ms per reader, taken in turn; ` +
      `\`ai\` once), medians; ratios per round. ${signed(env, options)}`,
  ].join('\n');
}

function modelSentence(m) {
  const median = (id) => ms(upperMedian(m.times[id]));
  return (
    `The same ${kb(m.bytes)} as a tool call's ${count(m.deltas)} deltas in an OpenAI SSE body: readModelStream ` +
    `${median('model')}, eventsource-parser + jsonriver ${median('jsonriver')}, \`ai\`'s streamText ` +
    `${median('ai')} (${Math.round(ratioOf(m.times, 'ai', 'model').median)}×); a zod schema checked as the ` +
    `value streams: ${ratioOf(m.times, 'schema', 'partial').median.toFixed(2)}× the unchecked partial parser.`
  );
}

/** A run of the model case alone: its sentence replaces the one at the end of the README block's legend. */
export function renderModelSentence(file, name, m) {
  const block = readFileSync(file, 'utf8').match(new RegExp(`<!-- ${name}:start -->\n([^]*?)\n<!-- ${name}:end -->`));
  const legend = block?.[1].replace(/ The same [^\n]* deltas in an OpenAI SSE body: .*$/, '');
  return legend !== undefined && renderBlock(file, name, `${legend} ${modelSentence(m)}`);
}
