// Instruction counts, which load does not change: the corpus of SIZE bytes read token by token RUNS times by
// createPartialParser (snapshots frozen or not) or by jsonriver as bench:partial drives it (bench/competitors/partial.mjs). Run twice
// under callgrind and subtract, so that start-up and compilation cancel out:
//   valgrind --tool=callgrind --smc-check=all-non-file node --single-threaded bench/tools/partial_instructions.mjs freeze 20000 5
//   valgrind --tool=callgrind --smc-check=all-non-file node --single-threaded bench/tools/partial_instructions.mjs freeze 20000 25
// then (Collected(25) - Collected(5)) / (20 * tokens) is the count per token (4,064 tokens at 20000); `finished`
// (only finished containers frozen), `nofreeze` and `jsonriver` for the others. bench/tools/partial_instructions.sh runs
// both and prints the count per token. PARTIAL_TUNING (JSON) sets other fields of treeTuning (js/partial/tree.ts).
import { corpusDocument, tokenize } from '../partial/corpus.mjs';

const DIST = new URL('../../dist/', import.meta.url);
const MODES = ['freeze', 'finished', 'nofreeze', 'jsonriver'];
const [mode, size, runs] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
if (!MODES.includes(mode) || !(size > 0) || !(runs > 0)) {
  console.error(`usage: node bench/tools/partial_instructions.mjs ${MODES.join('|')} SIZE RUNS`);
  process.exit(2);
}
const tokens = tokenize(corpusDocument(size));
let sink = 0;
if (mode === 'jsonriver') {
  const { PEERS } = await import('../competitors/partial.mjs');
  const peer = await PEERS.find((p) => p.id === 'jsonriver').load();
  for (let run = 0; run < runs; run++) {
    await peer.feed(tokens, '', [], (_i, value) => {
      if (value !== undefined) sink++;
    });
  }
} else {
  const { createPartialParser } = await import(new URL('index.js', DIST).href);
  const { treeTuning } = await import(new URL('partial/tree.js', DIST).href);
  treeTuning.freeze = mode !== 'nofreeze';
  treeTuning.freezeOpen = mode === 'freeze';
  // PARTIAL_TUNING='{"viewMinLength":32}': other switches of treeTuning, to count what each costs.
  if (process.env.PARTIAL_TUNING) Object.assign(treeTuning, JSON.parse(process.env.PARTIAL_TUNING));
  for (let run = 0; run < runs; run++) {
    const parser = createPartialParser();
    for (let i = 0; i < tokens.length; i++) if (parser.push(tokens[i]) !== undefined) sink++;
    parser.end();
  }
}
console.log(`${runs} runs of ${tokens.length} tokens (${sink} snapshots)`);
