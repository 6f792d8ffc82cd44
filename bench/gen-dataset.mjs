#!/usr/bin/env node
// The dataset generator's command line (datasets.mjs; byte-identical to the team's tools/gen-dataset.mjs).
import { KINDS, writeDataset } from './datasets.mjs';

const args = process.argv.slice(2);
const seedAt = args.indexOf('--seed');
const seed = seedAt < 0 ? 42 : Number(args.splice(seedAt, 2)[1]);
const [kind, countText, outFile] = args;
const count = Number(countText);
if (!KINDS[kind] || !Number.isInteger(count) || count < 0 || !Number.isInteger(seed)) {
  const help = args.includes('--help') || args.includes('-h');
  const kinds = Object.entries(KINDS).map(([name, { what }]) => `  ${name.padEnd(9)} ${what}`);
  console[help ? 'log' : 'error'](`usage: gen-dataset.mjs KIND COUNT [OUTFILE] [--seed N]\n${kinds.join('\n')}`);
  process.exit(help ? 0 : 2);
}
const fail = (error) => {
  process.stderr.write(`gen-dataset: ${error.message}\n`);
  process.exit(1);
};
process.stdout.on('error', fail);
await writeDataset(kind, count, outFile, seed).catch(fail);
