// Errors of createPartialParser: the native parser's code, offset, line and column for the same input (JSONTestSuite
// and one-byte mutations of random documents, with and without small limits, as bytes and as text with lone
// surrogates), thrown by the push that holds the offending byte (UNEXPECTED_END by end()), with the snapshot of
// the text before it still readable.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { createPartialParser, JsonLimitError, JsonSyntaxError, type PartialJsonOptions } from '../../dist/index.js';
import { firstDifference } from '../support/deep_equal.mjs';
import { errorInfo, parseChunks, randomPieces, type Chunk, type ErrorInfo } from '../support/feed.js';
import { expectedSnapshot, textOfBytes } from '../support/partial_oracle.mjs';
import { createRng, mutate, randomDocument } from '../support/random_json.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 22);
const SUITE = fileURLToPath(new URL('../corpus/JSONTestSuite/', import.meta.url));
const files = readdirSync(SUITE)
  .filter((name) => /^[yni]_.*\.json$/.test(name))
  .sort();
const read = (name: string) => new Uint8Array(readFileSync(join(SUITE, name)));
const encoder = new TextEncoder();

interface Outcome {
  value?: unknown;
  error: ErrorInfo | null;
  /** Which call threw: the index of the push, or -1 for end(). */
  thrownBy?: number;
  /** The snapshot after the error. */
  after?: unknown;
}

function partialOutcome(chunks: readonly Chunk[], options?: PartialJsonOptions): Outcome {
  const parser = createPartialParser(options);
  let call = 0;
  try {
    for (; call < chunks.length; call++) parser.push(chunks[call]!);
    call = -1;
    return { value: parser.end(), error: null };
  } catch (error) {
    const outcome = { error: errorInfo(error), thrownBy: call, after: parser.value };
    // The error is sticky, and the snapshot stays.
    expect(() => parser.push('1')).toThrow(error as Error);
    expect(() => parser.end()).toThrow(error as Error);
    expect(parser.value).toBe(outcome.after);
    return outcome;
  }
}

/** createParser's outcome with path '$': the root as the one element. */
function nativeOutcome(chunks: readonly Chunk[], options?: PartialJsonOptions): Outcome {
  const { values, error } = parseChunks(chunks, {
    path: '$',
    maxDepth: options?.maxDepth,
    maxElementBytes: options?.maxElementBytes,
  });
  return error === null ? { value: values[0], error } : { error };
}

function expectSameOutcome(actual: Outcome, expected: Outcome, how: string): void {
  expect(actual.error, how).toEqual(expected.error);
  if (expected.error === null) expect(firstDifference(actual.value, expected.value), how).toBeNull();
}

function oneByteChunks(bytes: Uint8Array): Uint8Array[] {
  return Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
}

/**
 * Fed one byte at a time, the error comes from the push of the byte at its offset (or from end() at the end of
 * input), and the snapshot after it is the one of the text before that byte.
 */
function expectPromptError(bytes: Uint8Array, outcome: Outcome, name: string): void {
  const error = outcome.error!;
  if (error.code === 'UNEXPECTED_END') expect(outcome.thrownBy, name).toBe(-1);
  else if (error.offset === 0 && bytes[0] === 0xef)
    expect(outcome.thrownBy, name).toBeLessThanOrEqual(2); // a BOM?
  else expect(outcome.thrownBy, name).toBe(error.offset);
  let expected: unknown;
  try {
    const ended = error.code === 'UNEXPECTED_END';
    expected = expectedSnapshot(textOfBytes(bytes.subarray(0, error.offset)), { ended });
  } catch {
    return; // the text before the error is not decodable as the oracle reads it (UTF-16 files, a BOM alone)
  }
  expect(firstDifference(outcome.after, expected), name).toBeNull();
}

describe('JSONTestSuite: the native outcome', () => {
  test.each(files)('%s', (name) => {
    const bytes = read(name);
    const expected = nativeOutcome([bytes]);
    if (name.startsWith('y_')) expect(expected.error).toBeNull();
    if (name.startsWith('n_')) expect(expected.error).not.toBeNull();
    expectSameOutcome(partialOutcome([bytes]), expected, 'one chunk');
    if (bytes.length > 20_000) return; // two big n_ files fail near their start; one chunk covers them
    const bytewise = partialOutcome(oneByteChunks(bytes));
    expectSameOutcome(bytewise, expected, 'one byte at a time');
    if (expected.error !== null) expectPromptError(bytes, bytewise, name);
  });
});

describe('mutated random documents: the native outcome, as bytes and as text', () => {
  test('one-byte mutations, whole and in random chunks', () => {
    const rng = createRng(SEED);
    let rejected = 0;
    for (let i = 0; i < 1500; i++) {
      const text = randomDocument(rng, { budget: 30 });
      let bytes = encoder.encode(text);
      for (let edits = rng.range(1, 3); edits > 0; edits--) bytes = mutate(rng, bytes);
      const expected = nativeOutcome([bytes]);
      if (expected.error !== null) rejected++;
      const how = JSON.stringify(new TextDecoder().decode(bytes));
      expectSameOutcome(partialOutcome([bytes]), expected, how);
      const pieces = randomPieces(bytes, rng, 16);
      expectSameOutcome(partialOutcome(pieces), nativeOutcome(pieces), `${how} in pieces`);
      const bytewise = partialOutcome(oneByteChunks(bytes));
      expectSameOutcome(bytewise, expected, `${how} one byte at a time`);
      if (expected.error !== null) expectPromptError(bytes, bytewise, how);
    }
    // Most mutations make the text invalid; the accepted rest check values.
    expect(rejected).toBeGreaterThan(900);
  });

  test('with small maxDepth and maxElementBytes', () => {
    const rng = createRng(SEED + 1);
    const codes = new Set<string>();
    for (let i = 0; i < 1500; i++) {
      let bytes = encoder.encode(randomDocument(rng, { budget: 30, deep: rng.chance(0.2) ? 8 : 0 }));
      if (rng.chance(0.5)) bytes = mutate(rng, bytes);
      const options = { maxDepth: rng.range(1, 6), maxElementBytes: rng.range(1, bytes.length + 4) };
      const expected = nativeOutcome([bytes], options);
      if (expected.error !== null) codes.add(expected.error.code);
      const how = `${JSON.stringify(new TextDecoder().decode(bytes))} ${JSON.stringify(options)}`;
      expectSameOutcome(partialOutcome([bytes], options), expected, how);
      expectSameOutcome(partialOutcome(oneByteChunks(bytes), options), expected, `${how} one byte at a time`);
      const text = new TextDecoder().decode(bytes);
      if (encoder.encode(text).length === bytes.length) {
        const chars = [...text];
        expectSameOutcome(partialOutcome(chars, options), nativeOutcome(chars, options), `${how} as characters`);
      }
    }
    expect(codes).toContain('DEPTH_LIMIT');
    expect(codes).toContain('ELEMENT_TOO_LARGE');
  });

  test('text chunks with lone and split surrogates (U+FFFD in strings, an error elsewhere)', () => {
    const rng = createRng(SEED + 2);
    const surrogates = ['\ud800', '\udfff', '\ud83d', '\ude00', '\ud83d\ude00'];
    for (let i = 0; i < 800; i++) {
      const text = randomDocument(rng, { budget: 20 });
      const at = rng.int(text.length + 1);
      const mutated = text.slice(0, at) + rng.pick(surrogates) + text.slice(at);
      const chunks: string[] = [];
      for (let from = 0; from < mutated.length; ) {
        const end = from + rng.range(1, 6);
        chunks.push(mutated.slice(from, end));
        from = end;
      }
      expectSameOutcome(partialOutcome(chunks), nativeOutcome(chunks), JSON.stringify(chunks));
    }
  });
});

describe('errors in detail', () => {
  test('an error names what and where, and the snapshot before it stays', () => {
    const parser = createPartialParser();
    parser.push('{"items":[1,2');
    let caught: unknown;
    try {
      parser.push(',\n  3 x]}');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JsonSyntaxError);
    expect(caught).toMatchObject({ code: 'EXPECTED_COMMA_OR_BRACKET', offset: 19, line: 2, column: 5 });
    expect((caught as Error).message).toBe(
      'Cannot parse JSON: expected "," or "]" but found "x" at byte 19 (line 2, column 5)',
    );
    expect(parser.value).toEqual({ items: [1, 2, 3] });
  });

  test('truncated input: end() throws UNEXPECTED_END at the end', () => {
    for (const [text, offset] of [
      ['{"a":"b', 7],
      ['[1,', 3],
      ['-', 1],
      ['1.', 2],
      ['tru', 3],
      ['', 0],
      [' ', 1],
      ['{"a"', 4],
      ['"\\u12', 5],
    ] as const) {
      const parser = createPartialParser();
      parser.push(text);
      expect(() => parser.end(), text).toThrow(expect.objectContaining({ code: 'UNEXPECTED_END', offset }));
    }
  });

  test('limits: JsonLimitError with the limit in the message', () => {
    const deep = createPartialParser({ maxDepth: 2 });
    expect(() => deep.push('[[[')).toThrow(JsonLimitError);
    expect(() => deep.end()).toThrow('nesting deeper than maxDepth (2) at byte 2 (line 1, column 3)');
    const large = createPartialParser({ maxElementBytes: 8 });
    large.push('  ["abc",');
    expect(() => large.push('"def"]')).toThrow('element larger than maxElementBytes (8) at byte 10');
    expect(large.value).toEqual(['abc', '']);
  });

  test('invalid UTF-8 is found at its byte, also across chunks', () => {
    const parser = createPartialParser();
    parser.push(Uint8Array.of(0x5b, 0x22, 0x61, 0xe2));
    parser.push(Uint8Array.of(0x82));
    expect(() => parser.push(Uint8Array.of(0x41))).toThrow(
      expect.objectContaining({ code: 'INVALID_UTF8', offset: 5 }),
    );
    expect(parser.value).toEqual(['a']);
    const outside = createPartialParser();
    expect(() => outside.push(Uint8Array.of(0x5b, 0xe2))).toThrow(
      expect.objectContaining({ code: 'EXPECTED_VALUE', offset: 1 }),
    );
  });
});

test('the outcome does not depend on the chunking (random pieces of bytes, JSONTestSuite)', () => {
  const rng = createRng(SEED + 3);
  for (const name of files) {
    const bytes = read(name);
    if (bytes.length > 20_000) continue;
    const whole = partialOutcome([bytes]);
    for (let round = 0; round < 3; round++) {
      const outcome = partialOutcome(randomPieces(bytes, rng, 8));
      expect(outcome.error, name).toEqual(whole.error);
      if (whole.error === null) expect(firstDifference(outcome.value, whole.value), name).toBeNull();
    }
  }
});
