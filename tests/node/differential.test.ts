// Differential testing against JSON.parse: seeded random documents through random chunkings must give exactly
// what JSON.parse gives, and one-byte mutations of them must be rejected exactly when JSON.parse rejects them.
// A failure names the seed and document number; SLUICE_TEST_SEED explores other documents.
import { describe, expect, test } from 'vitest';
import { firstDifference } from '../support/deep_equal.mjs';
import { parseChunks, randomPieces, randomTextPieces, type Chunk } from '../support/feed.js';
import { createRng, mutate, randomDocument, randomWhitespace } from '../support/random_json.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x51c3);
const DOCUMENTS = 2000;
const MUTANTS = 3000;

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8', { fatal: true });
const textOf = (item: unknown) => (item instanceof Uint8Array ? utf8.decode(item) : (item as string));

/**
 * A chunking of `text`: all strings, all bytes, or both mixed; pieces of 1 byte (or one UTF-16 unit, halves of
 * surrogate pairs included) up to a few KiB.
 */
function randomChunks(text: string, rng: ReturnType<typeof createRng>): Chunk[] {
  const maxPiece = rng.pick([1, 2, 7, 64, 1000, 5000]);
  switch (rng.int(3)) {
    case 0:
      return randomPieces(encoder.encode(text), rng, maxPiece);
    case 1:
      return randomTextPieces(text, rng, maxPiece, 0, rng.chance(0.5));
    default:
      return randomTextPieces(text, rng, maxPiece, 0.5);
  }
}

function documentOptions(rng: ReturnType<typeof createRng>, n: number) {
  // Every 50th document nests 900 deep (under the default maxDepth of 1024); some are large, most are small.
  if (n % 50 === 0) return { deep: 900 };
  if (n % 10 === 0) return { maxDepth: 8, maxItems: 12, budget: 2000 };
  return { maxDepth: rng.range(1, 6), maxItems: rng.range(1, 8), budget: rng.range(1, 80) };
}

describe(`random documents (seed ${SEED})`, () => {
  test.each(['value', 'text', 'bytes'] as const)('through random chunkings, output %s equals JSON.parse', (output) => {
    const rng = createRng(SEED ^ output.length);
    for (let n = 0; n < DOCUMENTS; n++) {
      const text = randomDocument(rng, documentOptions(rng, n));
      const expected = JSON.parse(text) as unknown[];
      const where = `seed ${SEED}, ${output}, document ${n}: ${text.slice(0, 200)}`;

      const elements = parseChunks(randomChunks(text, rng), { path: '$[*]', output });
      expect(elements.error, where).toBeNull();
      const values = output === 'value' ? elements.values : elements.values.map((item) => JSON.parse(textOf(item)));
      expect(firstDifference(values, expected), where).toBeNull();

      const root = parseChunks(randomChunks(text, rng), { path: '$', output });
      expect(root.error, where).toBeNull();
      expect(root.values.length, where).toBe(1);
      if (output !== 'value') {
        // The root's exact bytes are the document without its surrounding whitespace.
        expect(textOf(root.values[0]), where).toBe(text.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, ''));
      }
      const rootValue = output === 'value' ? root.values[0] : JSON.parse(textOf(root.values[0]));
      expect(firstDifference(rootValue, expected), where).toBeNull();
    }
  });

  test('as NDJSON (newline-separated and concatenated), each value equals JSON.parse', () => {
    const rng = createRng(SEED + 1);
    for (let n = 0; n < DOCUMENTS / 4; n++) {
      const documents = Array.from({ length: rng.range(1, 8) }, () => randomDocument(rng, documentOptions(rng, n)));
      // Documents start with `[` (after optional whitespace) and end with `]`, so any separator is unambiguous,
      // including none at all.
      const text =
        documents.map((document) => document + rng.pick(['\n', '\r\n', '', ' ', '\n\n'])).join('') +
        randomWhitespace(rng);
      const outcome = parseChunks(randomChunks(text, rng), { ndjson: true });
      const where = `seed ${SEED}, ndjson ${n}: ${text.slice(0, 200)}`;
      expect(outcome.error, where).toBeNull();
      expect(
        firstDifference(
          outcome.values,
          documents.map((document) => JSON.parse(document)),
        ),
        where,
      ).toBeNull();
    }
  });

  test('__proto__ becomes an own property, as with JSON.parse', () => {
    const text = '[{"__proto__":{"polluted":1}},{"\\u005f_proto__":[]}]';
    const [first, second] = parseChunks([text]).values as Record<string, unknown>[];
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
    expect(Object.hasOwn(first, '__proto__')).toBe(true);
    expect((first as { polluted?: number }).polluted).toBeUndefined();
    expect(Object.hasOwn(second, '__proto__')).toBe(true);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });
});

describe(`limits and overlapping selectors (seed ${SEED})`, () => {
  // Small maxElementBytes and maxDepth make most documents fail somewhere; where and after which elements must not
  // depend on how the bytes were chunked.
  test('the outcome, elements and error alike, does not depend on the chunking', () => {
    const rng = createRng(SEED + 3);
    const PATH_SETS = [['$[*]'], ['$[*][*]', '$[1]'], ['$.*', '$[*]'], ['$[*].*', '$[0]', '$[*].a'], ['$']];
    for (let n = 0; n < DOCUMENTS / 2; n++) {
      const bytes = encoder.encode(randomDocument(rng, documentOptions(rng, n)));
      const options = {
        paths: rng.pick(PATH_SETS),
        output: rng.pick(['value', 'text', 'bytes'] as const),
        maxElementBytes: rng.range(1, 64),
        maxDepth: rng.range(1, 8),
      };
      const whole = parseChunks([bytes], options);
      const chunked = parseChunks(randomPieces(bytes, rng, rng.pick([1, 3, 64])), options);
      const where = `seed ${SEED}, document ${n}, ${JSON.stringify(options)}: ${new TextDecoder().decode(bytes).slice(0, 200)}`;
      expect(chunked.error, where).toEqual(whole.error);
      expect(firstDifference(chunked.values, whole.values), where).toBeNull();
    }
  });
});

describe(`mutated documents (seed ${SEED})`, () => {
  test('are rejected exactly when JSON.parse rejects them, and always when not UTF-8', () => {
    const rng = createRng(SEED + 2);
    let rejected = 0;
    let notUtf8 = 0;
    for (let n = 0; n < MUTANTS; n++) {
      const original = encoder.encode(randomDocument(rng, documentOptions(rng, n)));
      const bytes = mutate(rng, original);
      let expected: { accepted: boolean; value?: unknown };
      try {
        // JSON.parse reads UTF-16 and accepts raw lone surrogates, so it only judges texts that are valid UTF-8
        // (a fatal decoder refuses the rest, encoded surrogates included); those must be rejected anyway.
        const text = utf8.decode(bytes);
        try {
          expected = { accepted: true, value: JSON.parse(text) };
        } catch {
          expected = { accepted: false };
        }
      } catch {
        expected = { accepted: false };
        notUtf8++;
      }
      if (!expected.accepted) rejected++;

      // Validation must not depend on the selected path, nor on the chunking.
      const path = rng.pick(['$', '$[*]', '$.*', '$[0]']);
      const outcome = parseChunks(randomPieces(bytes, rng, rng.pick([1, 3, 64, 4096])), { path });
      const where = `seed ${SEED}, mutant ${n}, path ${path}: ${JSON.stringify(new TextDecoder().decode(bytes).slice(0, 200))}`;
      expect(outcome.error === null, where).toBe(expected.accepted);
      if (path === '$' && expected.accepted)
        expect(firstDifference(outcome.values, [expected.value]), where).toBeNull();
      if (!expected.accepted && outcome.error !== null) {
        expect(outcome.error.offset, where).toBeLessThanOrEqual(bytes.length);
      }
    }
    // The mutator must actually produce a mix, or this test proves little.
    expect(rejected).toBeGreaterThan(MUTANTS / 4);
    expect(rejected).toBeLessThan(MUTANTS);
    expect(notUtf8).toBeGreaterThan(MUTANTS / 20);
  });
});
