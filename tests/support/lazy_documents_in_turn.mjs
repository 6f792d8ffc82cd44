// Child process of lazy_parse.test.ts ("optimised code survives documents"): reads a few leaves of one document
// after another, each collected (gc) before the next, as a server does. Run with --expose-gc --trace-deopt; the
// test looks for V8's "weak objects" deoptimisations in the output. Usage: node ... lazy_documents_in_turn.mjs simd|scalar
import { readFileSync } from 'node:fs';

const build = process.argv[2];
const dist = new URL('../../dist/', import.meta.url);
const { init, lazyParse } = await import(new URL('index.js', dist).href);
await init(readFileSync(new URL(`sluice.${build}.wasm`, dist)));

// Rings of points under objects (canada.json's shape, smaller), and records with nested objects (twitter.json's).
const rings = Array.from({ length: 40 }, (_, r) =>
  Array.from({ length: 30 + r * 7 }, (_, i) => [-65.5 + i / 1000 + r, 43.25 - i / 997]),
);
const records = Array.from({ length: 60 }, (_, i) => ({
  id: i,
  text: `record ${i} `.repeat(30),
  user: { name: `user ${i}`, bio: 'b'.repeat(1100), n: i },
  tags: [i, 'x'],
}));
const text = JSON.stringify({ features: [{ type: 'Feature', geometry: { coordinates: rings } }], records });
const bytes = new TextEncoder().encode(text);

// In a function of its own, so that nothing of a document outlives its read (the module's suspended top-level code
// would keep the last one).
function readOne(n) {
  const doc = lazyParse(bytes);
  let sum = 0;
  const coordinates = doc.features[0].geometry.coordinates;
  for (let r = 0; r < rings.length; r += 1)
    for (let i = n % 7; i < rings[r].length; i += 23) sum += coordinates[r][i][1];
  for (let i = n % 3; i < records.length; i += 5) sum += doc.records[i].user.n + doc.records[i].text.length;
  return sum;
}

let sum = 0;
for (let n = 0; n < 40; n++) {
  sum += readOne(n);
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 5));
}
console.log(`sum ${sum}`);
