// bench:partial's child: one library reading the corpus token by token (CPU time, after warm-up), its wrong snapshots.
import { expectedSnapshot } from '../../tests/support/partial_oracle.mjs';
import { corpusDocument, tokenize } from './corpus.mjs';
import { KEPT_BYTES, PEERS, THREW } from '../competitors/partial.mjs';
import { answerParent } from '../harness/runtime.mjs';
import { cpuMs, upperMedian as median } from '../harness/stats.mjs';

/** Equal as values an app would show: ===, then own enumerable keys (array indices too) in any order. */
function sameValue(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const same = (key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]);
  return keys.length === Object.keys(b).length && keys.every(same);
}

const WARMUP_MS = 1500;
const MIN_TIMED_MS = 200;

async function measure({ peer: id, size, runs, check, fullMax, sample }) {
  const spec = PEERS.find((p) => p.id === id);
  const text = corpusDocument(size);
  const tokens = tokenize(text);
  const ends = [];
  for (let i = 0, at = 0; i < tokens.length; i++) ends.push((at += tokens[i].length));
  const peer = await spec.load();
  const bytes = new TextEncoder().encode(text).length;
  const result = { peer: id, label: spec.label, size, bytes, tokens: tokens.length, sampled: 0 };

  let sink = 0;
  let last;
  const read = (_i, value) => {
    if (value !== undefined) sink++;
    last = value;
  };
  const kept = new Array(spec.keepsValues ? Math.max(1, Math.floor(KEPT_BYTES / bytes)) : 0);
  let keptCount = 0;
  let once;
  if (spec.reparses && bytes > fullMax) {
    const indices = Array.from({ length: sample }, (_, k) => Math.floor(((k + 0.5) * tokens.length) / sample));
    const prefixes = indices.map((i) => text.slice(0, ends[i]));
    result.sampled = indices.length;
    once = async () => {
      let total = 0;
      for (let k = 0; k < prefixes.length; k++) {
        const start = process.cpuUsage();
        read(indices[k], await peer.parse(prefixes[k]));
        total += cpuMs(start);
      }
      return (total / prefixes.length) * tokens.length;
    };
  } else {
    once = async () => {
      const start = process.cpuUsage();
      await peer.feed(tokens, text, ends, read);
      if (kept.length) kept[keptCount++ % kept.length] = last;
      return cpuMs(start);
    };
  }
  let spent = 0;
  let warmups = 0;
  while (warmups < 1 || (spent < WARMUP_MS && warmups < 10_000)) {
    spent += await once();
    warmups++;
  }
  const repeats = Math.max(1, Math.ceil(MIN_TIMED_MS / (spent / warmups)));
  const times = [];
  for (let run = 0; run < runs; run++) {
    let total = 0;
    for (let r = 0; r < repeats; r++) total += await once();
    times.push(total / repeats);
  }
  const totalMs = median(times);
  Object.assign(result, { totalMs, usPerToken: (totalMs * 1000) / tokens.length, runs: times, sink });

  if (check) {
    let wrong = 0;
    let threw = 0;
    let first = null;
    await peer.feed(tokens, text, ends, (i, value) => {
      const expected = expectedSnapshot(text.slice(0, ends[i]));
      if (value === THREW) threw++;
      if (value === THREW || !sameValue(value, expected)) {
        wrong++;
        first ??= { token: i, prefix: text.slice(Math.max(0, ends[i] - 40), ends[i]) };
      }
    });
    Object.assign(result, { wrong, threw, firstWrong: first });
  }
  return result;
}

await answerParent(measure);
