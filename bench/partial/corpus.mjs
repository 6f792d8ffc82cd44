// bench:partial's corpus (issue 20): a model's report (nested arrays, escaped and non-ASCII strings, every number).
import { createRng } from '../../tests/support/random_json.mjs';

const WORDS = (
  'stream value model token parser render latency buffer snapshot growing the of and a to in is with ' +
  'for on café naïve résumé Zürich Ångström 東京 数据 данные λόγος 😀 🚀 𝄞 ünïcödé'
).split(' ');
const ESCAPES = ['\\n', '\\"', '\\\\', '\\t', '\\u00e9', '\\u4e2d', '\\ud83d\\ude00', '\\/', '\\r\\n'];

function sentence(rng, words) {
  const out = [];
  for (let i = 0; i < words; i++) {
    out.push(rng.pick(WORDS));
    if (rng.chance(0.08)) out.push(rng.pick(ESCAPES));
  }
  return out.join(' ');
}

const NUMBERS = [
  (rng) => String(rng.range(0, 100000)),
  (rng) => String(-rng.range(1, 1000)),
  (rng) => (rng.range(0, 99999) / 100).toFixed(2),
  (rng) => `-0.${String(rng.range(1, 99999)).padStart(5, '0')}`,
  (rng) => `${rng.range(1, 9)}.${rng.range(0, 999)}e+${rng.range(1, 30)}`,
  (rng) => `${rng.range(1, 9)}.${rng.range(0, 99)}E-${rng.range(1, 9)}`,
  (rng) => rng.pick(['0', '-0.0', '0.5', '1e3']),
  (rng) => String(rng.range(100, 999999) / 1000),
];
const number = (rng) => NUMBERS[rng.int(8)](rng);

function section(rng, index) {
  const items = Array.from(
    { length: rng.range(3, 6) },
    () =>
      `{"name":"${sentence(rng, rng.range(1, 3))}","price":${number(rng)},"qty":${rng.range(1, 20)},` +
      `"available":${rng.pick(['true', 'false'])},"note":${rng.chance(0.5) ? 'null' : `"${sentence(rng, 4)}"`}}`,
  );
  const points = Array.from({ length: rng.range(2, 5) }, () => `[${number(rng)},${number(rng)}]`);
  const tags = Array.from({ length: rng.range(1, 4) }, () => `"${rng.pick(WORDS)}"`);
  return (
    `{"index":${index},"heading":"${sentence(rng, rng.range(3, 7))}","body":"${sentence(rng, rng.range(60, 140))}",` +
    `"tags":[${tags.join(',')}],"stats":{"count":${number(rng)},"ratio":${number(rng)},"delta":${number(rng)},` +
    `"big":${number(rng)},"small":${number(rng)}},"items":[${items.join(',')}],"points":[${points.join(',')}]}`
  );
}

/** A document of about `bytes` bytes of UTF-8, deterministic for a seed. */
export function corpusDocument(bytes, seed = 20) {
  const rng = createRng(seed);
  const head =
    `{"id":"call_${rng.next().toString(16)}","title":"${sentence(rng, 8)}","summary":"${sentence(rng, 40)}",` +
    '"sections":[';
  const tail = `],"meta":{"model":"sluice-bench","tokens":${rng.range(1000, 99999)},"finished":true,"score":${number(rng)}}}`;
  const sections = [];
  for (let size = Buffer.byteLength(head + tail); size < bytes; size += Buffer.byteLength(sections.at(-1)) + 1)
    sections.push(section(rng, sections.length));
  const document = head + sections.join(',') + tail;
  JSON.parse(document); // the generator writes text directly: prove it is JSON
  return document;
}

/** Tokens of 3 to 6 UTF-16 units, cut anywhere (also between the halves of a surrogate pair). */
export function tokenize(text, seed = 7) {
  const rng = createRng(seed);
  const tokens = [];
  for (let at = 0; at < text.length; at += tokens.at(-1).length) tokens.push(text.slice(at, at + rng.range(3, 6)));
  return tokens;
}
