// Instruction counts behind docs/partial.md's freezing paragraph, which load does not change: the corpus of SIZE
// bytes read token by token RUNS times, snapshots frozen or not. Run twice under callgrind and subtract, so that
// start-up and compilation cancel out:
//   valgrind --tool=callgrind --smc-check=all-non-file node --single-threaded bench/partial/instructions.mjs freeze 20000 5
//   valgrind --tool=callgrind --smc-check=all-non-file node --single-threaded bench/partial/instructions.mjs freeze 20000 25
// then (Collected(25) - Collected(5)) / (20 * tokens) is the count per token (4,064 tokens at 20000); `nofreeze`
// for the other variant.
import { corpusDocument, tokenize } from './corpus.mjs';

const DIST = new URL('../../dist/', import.meta.url);
const [mode, size, runs] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
if (!['freeze', 'nofreeze'].includes(mode) || !(size > 0) || !(runs > 0)) {
  console.error('usage: node bench/partial/instructions.mjs freeze|nofreeze SIZE RUNS');
  process.exit(2);
}
const { createPartialParser } = await import(new URL('index.js', DIST).href);
const { treeTuning } = await import(new URL('partial/tree.js', DIST).href);
treeTuning.freeze = mode === 'freeze';
const tokens = tokenize(corpusDocument(size));
for (let run = 0; run < runs; run++) {
  const parser = createPartialParser();
  for (let i = 0; i < tokens.length; i++) parser.push(tokens[i]);
  parser.end();
}
console.log(`${runs} runs of ${tokens.length} tokens`);
