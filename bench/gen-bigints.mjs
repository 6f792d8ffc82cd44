#!/usr/bin/env node
// Deterministic generator of the `bigints` dataset of bench:parse: a top-level array of COUNT integers of 17 to
// 20 digits, a third of them negative (all past Number.MAX_SAFE_INTEGER, like 64-bit ids), about 20 bytes each.
// Usage: node gen-bigints.mjs bigints COUNT OUTFILE   (same COUNT, same bytes on every machine)
import { writeFileSync } from 'node:fs';

const [kind, countText, outFile] = process.argv.slice(2);
const count = Number(countText);
if (kind !== 'bigints' || !Number.isInteger(count) || count < 0 || !outFile) {
  process.stderr.write('usage: gen-bigints.mjs bigints COUNT OUTFILE\n');
  process.exit(2);
}

// xorshift32, as gen-dataset.mjs.
let state = 42;
function rand() {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 4294967296;
}

const parts = [];
for (let i = 0; i < count; i++) {
  let digits = String(1 + Math.floor(rand() * 9));
  for (let n = 16 + Math.floor(rand() * 4); n > 0; n--) digits += Math.floor(rand() * 10);
  parts.push(rand() < 1 / 3 ? `-${digits}` : digits);
}
writeFileSync(outFile, `[${parts.join(',')}]`);
