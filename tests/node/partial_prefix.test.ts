// Every snapshot is prefix-consistent: after each push, createPartialParser's value equals what the rules show of
// the text pushed so far, as tests/support/partial_oracle.mjs derives it independently (the prefix cut back and
// closed, then JSON.parse). Every split point of varied documents, as text and as bytes, one character or byte at a
// time and in random deltas (split escapes, numbers, literals, surrogate pairs and UTF-8 sequences), both number
// modes; the final value equals JSON.parse.
import { describe, expect, test } from 'vitest';
import { createPartialParser, type PartialJsonOptions } from '../../dist/index.js';
import { treeTuning } from '../../dist/partial/tree.js';
import { firstDifference } from '../support/deep_equal.mjs';
import { randomTextPieces, type Chunk } from '../support/feed.js';
import { HAND_WRITTEN, longArrays, randomDocuments } from '../support/partial_documents.js';
import { expectedSnapshot, textOfBytes } from '../support/partial_oracle.mjs';
import { createRng } from '../support/random_json.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 20);
const encoder = new TextEncoder();
const RANDOM = randomDocuments(120, SEED);
const MODES: NonNullable<PartialJsonOptions['numbers']>[] = ['complete', 'partial'];

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * Pushes the chunks; after each one the snapshot must equal the oracle's for everything pushed so far. Returns
 * the first mismatch, described, or null.
 */
function checkChunks(text: string, chunks: Iterable<Chunk>, options: PartialJsonOptions): string | null {
  const parser = createPartialParser(options);
  // The prefix as text: string chunks as they are (a trailing high surrogate is the oracle's to drop), byte chunks
  // through the UTF-8 of everything so far (a cut sequence is the oracle's to drop).
  let textSoFar = '';
  let bytesSoFar: Uint8Array = new Uint8Array(0);
  let usesBytes = false;
  for (const chunk of chunks) {
    const snapshot = parser.push(chunk);
    if (typeof chunk === 'string') {
      textSoFar += chunk;
      if (usesBytes) bytesSoFar = concatBytes(bytesSoFar, encoder.encode(chunk));
    } else {
      if (!usesBytes) bytesSoFar = encoder.encode(textSoFar);
      usesBytes = true;
      bytesSoFar = concatBytes(bytesSoFar, chunk);
    }
    const prefix = usesBytes ? textOfBytes(bytesSoFar) : textSoFar;
    const expected = expectedSnapshot(prefix, options);
    const difference = firstDifference(snapshot, expected);
    if (difference !== null) return `after ${JSON.stringify(prefix.slice(-40))}: ${difference}`;
    if (parser.value !== snapshot) return 'value is not the snapshot push returned';
  }
  const final = firstDifference(parser.end(), JSON.parse(text.replace(/^\ufeff/, '')));
  return final === null ? null : `end(): ${final}`;
}

function* characters(text: string): Generator<string> {
  for (let i = 0; i < text.length; i++) yield text[i]!;
}

function* bytesOf(text: string): Generator<Uint8Array> {
  const bytes = encoder.encode(text);
  for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
}

describe.each(MODES)('numbers: %s', (numbers) => {
  const options = { numbers };

  test.each(HAND_WRITTEN.map((text, i) => [i, text] as const))(
    'hand-written %i, one character at a time',
    (_, text) => {
      expect(checkChunks(text, characters(text), options)).toBeNull();
    },
  );

  test.each(HAND_WRITTEN.map((text, i) => [i, text] as const))('hand-written %i, one byte at a time', (_, text) => {
    expect(checkChunks(text, bytesOf(text), options)).toBeNull();
  });

  test('hand-written, every two-chunk split (text and bytes)', () => {
    for (const text of HAND_WRITTEN) {
      const bytes = encoder.encode(text);
      for (let at = 0; at <= text.length; at++) {
        expect(checkChunks(text, [text.slice(0, at), text.slice(at)], options), `${text} at ${at}`).toBeNull();
      }
      for (let at = 0; at <= bytes.length; at++) {
        expect(
          checkChunks(text, [bytes.subarray(0, at), bytes.subarray(at)], options),
          `${text} at byte ${at}`,
        ).toBeNull();
      }
    }
  });

  test(`${RANDOM.length} random documents, one character at a time and one byte at a time`, () => {
    for (const text of RANDOM) {
      expect(checkChunks(text, characters(text), options), text).toBeNull();
      expect(checkChunks(text, bytesOf(text), options), text).toBeNull();
    }
  });

  test('random documents in random deltas: text with split surrogate pairs, and text mixed with bytes', () => {
    const rng = createRng(SEED + 1);
    for (const text of RANDOM) {
      for (let round = 0; round < 3; round++) {
        const split = randomTextPieces(text, rng, 12, 0, true);
        expect(checkChunks(text, split, options), text).toBeNull();
        const mixed = randomTextPieces(text, rng, 12, 0.5);
        expect(checkChunks(text, mixed, options), text).toBeNull();
      }
    }
  });
});

test('long arrays (published as views) stay prefix-consistent, in deltas of 1 to 6 characters', () => {
  const text = longArrays(150);
  const rng = createRng(SEED + 2);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; ) {
    const end = at + rng.range(1, 6);
    pieces.push(text.slice(at, end));
    at = end;
  }
  expect(checkChunks(text, pieces, {})).toBeNull();
});

test('arrays crossing the length from which they are views: every two-chunk split, text and bytes', () => {
  // Split anywhere, the first push publishes the arrays at every length around treeTuning.viewMinLength.
  const text = longArrays(treeTuning.viewMinLength + 1);
  const bytes = encoder.encode(text);
  expect(bytes.length).toBe(text.length);
  for (let at = 0; at <= text.length; at++) {
    expect(checkChunks(text, [text.slice(0, at), text.slice(at)], {}), `at ${at}`).toBeNull();
    expect(checkChunks(text, [bytes.subarray(0, at), bytes.subarray(at)], {}), `at byte ${at}`).toBeNull();
  }
});
