// bench:partial's corpus (issue 20): a report object as a model writes it (nested arrays, long strings with escapes
// and non-ASCII text, numbers of every shape), and its tokens of 3 to 6 UTF-16 units cut anywhere.
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
  const items = [];
  for (let i = rng.range(3, 6); i > 0; i--) {
    items.push(
      `{"name":"${sentence(rng, rng.range(1, 3))}","price":${number(rng)},"qty":${rng.range(1, 20)},` +
        `"available":${rng.pick(['true', 'false'])},"note":${rng.chance(0.5) ? 'null' : `"${sentence(rng, 4)}"`}}`,
    );
  }
  const points = [];
  for (let i = rng.range(2, 5); i > 0; i--) points.push(`[${number(rng)},${number(rng)}]`);
  const tags = [];
  for (let i = rng.range(1, 4); i > 0; i--) tags.push(`"${rng.pick(WORDS)}"`);
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
  const encoder = new TextEncoder();
  let size = encoder.encode(head + tail).length;
  const sections = [];
  do {
    const text = section(rng, sections.length);
    sections.push(text);
    size += encoder.encode(text).length + 1;
  } while (size < bytes);
  const document = head + sections.join(',') + tail;
  JSON.parse(document); // the generator writes text directly: prove it is JSON
  return document;
}

/** Tokens of 3 to 6 UTF-16 units, cut anywhere (also between the halves of a surrogate pair). */
export function tokenize(text, seed = 7) {
  const rng = createRng(seed);
  const tokens = [];
  for (let at = 0; at < text.length; ) {
    const size = rng.range(3, 6);
    tokens.push(text.slice(at, at + size));
    at += size;
  }
  return tokens;
}
