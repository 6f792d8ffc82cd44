// createPartialParser's design measurements (docs/partial.md): each choice and its alternative interleaved, CPU time.
import v8 from 'node:v8';
import vm from 'node:vm';
import { corpusDocument, tokenize } from './corpus.mjs';
import { DIST, loadSluice } from '../harness/environment.mjs';
import { answerParent } from '../harness/runtime.mjs';
import { chunksOf, cpuMs, interleaveCpu, pieces, upperMedian as median } from '../harness/stats.mjs';

const per = (ms, times, over) => Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, (v * times) / over]));
const medians = (times) => Object.fromEntries(Object.entries(times).map(([k, list]) => [k, median(list)]));

/** Tokens without a lone high surrogate at their end (moved to the next), so that each has a UTF-8 form of its own. */
function wholeCharacterTokens(tokens) {
  const joined = tokens.join('\0').replace(/([\ud800-\udbff])\0/g, '\0$1');
  return joined.split('\0');
}

async function design({ rounds, bigBytes }) {
  const { createPartialParser, createParser, partialJson, parseJsonArray } = await loadSluice({ init: true });
  const { treeTuning } = await import(new URL('partial/tree.js', DIST).href);
  const results = {};
  const interleaved = async (variants) => medians(await interleaveCpu(variants, { rounds, slices: 5, warmupMs: 300 }));

  const text20 = corpusDocument(20e3);
  const tokens = wholeCharacterTokens(tokenize(text20));
  const encoder = new TextEncoder();
  const byteTokens = tokens.map((token) => encoder.encode(token));
  // A run: every token pushed into a new parser, then its end() (the final value, for the heap measurement).
  const feedAll = (newParser) => (input) => () => {
    const parser = newParser();
    for (let i = 0; i < input.length; i++) parser.push(input[i]);
    return parser.end();
  };
  const partialRun = feedAll(() => createPartialParser());
  const floorRun = feedAll(() => createParser({ path: '$.__selects_nothing__[*]' }));
  const tinyRuns = { jsText: partialRun(tokens), jsBytes: partialRun(byteTokens) };
  Object.assign(tinyRuns, { wasmFloorText: floorRun(tokens), wasmFloorBytes: floorRun(byteTokens) });
  const usPerToken = per(await interleaved(tinyRuns), 1000, tokens.length);
  results.tiny = { tokens: tokens.length, bytes: Buffer.byteLength(text20), usPerToken };

  const defaults = { ...treeTuning };
  // Per corpus size, µs per token under each tuning (the defaults back after each run).
  const bySize = async (sizes, tunings) => {
    const out = {};
    for (const size of sizes) {
      const input = tokenize(corpusDocument(size));
      const variants = {};
      for (const [name, tuning] of Object.entries(tunings)) {
        const run = partialRun(input);
        variants[name] = () => {
          Object.assign(treeTuning, tuning);
          run();
          Object.assign(treeTuning, defaults);
        };
      }
      out[size] = per(await interleaved(variants), 1000, input.length);
    }
    return out;
  };
  results.freeze = await bySize([20e3, 1e6], {
    all: { freeze: true, freezeOpen: true },
    finished: { freeze: true, freezeOpen: false },
    none: { freeze: false },
  });
  // The corpus's `sections` array: 150 objects at 200 KB, 741 at 1 MB.
  const views = { from32: 32, from64: 64, from128: 128, never: Infinity };
  const viewTunings = Object.fromEntries(Object.entries(views).map(([k, n]) => [k, { viewMinLength: n }]));
  results.views = await bySize([200e3, 1e6], viewTunings);
  results.flatten = await bySize([20e3, 1e6], { flat: { flatten: true }, ropes: { flatten: false } });

  const values = Array.from({ length: 1000 }, (_, i) => i);
  const view = createPartialParser().push(`[${values.join(',')},`);
  const frozen = Object.freeze(values.slice());
  const sum = (array) => () => {
    let total = 0;
    for (let r = 0; r < 100; r++) for (let i = 0; i < array.length; i++) total += array[i];
    return total;
  };
  const reads = await interleaved({ view: sum(view), frozen: sum(frozen) });
  results.read = { nsPerElement: per(reads, 1e6, 1e5) };

  // The heap held: young collections copy every byte of a tree being built twice.
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc');
  const heldBy = (build) => {
    build();
    for (let i = 0; i < 4; i++) collect();
    const base = process.memoryUsage().heapUsed;
    const value = build();
    for (let i = 0; i < 4; i++) collect();
    const held = process.memoryUsage().heapUsed - base;
    return value === null ? 0 : held;
  };
  const heapText = corpusDocument(1e6);
  const partial = heldBy(partialRun(tokenize(heapText)));
  results.heap = { bytes: Buffer.byteLength(heapText), partial, jsonParse: heldBy(() => JSON.parse(heapText)) };

  const big = encoder.encode(corpusDocument(bigBytes));
  const chunks = pieces(big, 65536);
  const source = () => chunksOf(chunks);
  const bigTimes = { partialJson: [], parseJsonArray: [] };
  // Round 0 warms up, uncounted.
  for (let round = 0; round <= rounds; round++) {
    let start = process.cpuUsage();
    for await (const snapshot of partialJson(source())) if (snapshot === undefined) throw new Error('undefined');
    if (round > 0) bigTimes.partialJson.push(cpuMs(start));
    start = process.cpuUsage();
    for await (const root of parseJsonArray(source(), { path: '$' }))
      if (root === undefined) throw new Error('undefined');
    if (round > 0) bigTimes.parseJsonArray.push(cpuMs(start));
  }
  results.big = { bytes: big.length, chunks: chunks.length, ms: medians(bigTimes) };
  return results;
}

await answerParent(design);
