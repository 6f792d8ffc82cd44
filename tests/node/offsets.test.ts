// withOffset: each element's `offset` and `length` point back into the input. Seeded random documents through
// random chunkings (bytes, strings, both), in every output form, bare and with paths (several selectors, nested),
// NDJSON, elements larger than the 64 KiB window, and an offset past 2^32: the input's bytes at
// [offset, offset + length) are exactly the element, and the records hold what the same parse without withOffset
// gives. A failure names the seed and document number; SLUICE_TEST_SEED explores other documents.
import { describe, expect, inject, test } from 'vitest';
import { createParser, JsonArrayStream, parseJsonArray, stringifyStream } from '../../dist/index.js';
import { firstDifference } from '../support/deep_equal.mjs';
import { parseChunks, randomPieces, randomTextPieces, type Chunk, type ParserOptions } from '../support/feed.js';
import { createRng, randomDocument, randomString, randomWhitespace } from '../support/random_json.mjs';
import { asyncIterableOf, collect, collectStream } from '../support/sources.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x0ff5e7);
const DOCUMENTS = 400;

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
type Rng = ReturnType<typeof createRng>;
type Output = 'value' | 'bytes' | 'text';
interface Located {
  value: unknown;
  offset: number;
  length: number;
}

/** A chunking of `text`: all bytes, all strings (surrogate pairs split too), or both mixed. */
function randomChunks(text: string, rng: Rng, maxPiece = rng.pick([1, 3, 64, 1000, 70_000])): Chunk[] {
  switch (rng.int(3)) {
    case 0:
      return randomPieces(encoder.encode(text), rng, maxPiece);
    case 1:
      return randomTextPieces(text, rng, maxPiece, 0, rng.chance(0.5));
    default:
      return randomTextPieces(text, rng, maxPiece, 0.5);
  }
}

function parse(chunks: Chunk[], options: ParserOptions): unknown[] {
  const outcome = parseChunks(chunks, options);
  if (outcome.error !== null) throw new Error(`unexpected ${outcome.error.code} at ${outcome.error.offset}`);
  return outcome.values;
}

const isWhitespace = (byte: number | undefined) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * `located` (parsed with withOffset) against `plain` (the same options without it, another chunking): the same
 * records plus offset and length, each pointing at exactly the element's bytes in `input`, in the order the
 * elements end.
 */
function expectLocated(input: Uint8Array, located: unknown[], plain: unknown[], output: Output, where: string): void {
  expect(located.length, where).toBe(plain.length);
  let lastEnd = -1;
  for (let i = 0; i < located.length; i++) {
    const { offset, length, ...rest } = located[i] as Located;
    const at = `${where}, element ${i} at ${offset}+${length}`;
    expect(Number.isInteger(offset) && offset >= 0 && length > 0 && offset + length <= input.length, at).toBe(true);
    expect(offset + length, at).toBeGreaterThan(lastEnd);
    lastEnd = offset + length;
    const bytes = input.subarray(offset, offset + length);
    expect(isWhitespace(bytes[0]) || isWhitespace(bytes[length - 1]), at).toBe(false);
    const value = rest.value;
    if (output === 'bytes') expect(firstDifference(value, bytes), at).toBeNull();
    else if (output === 'text') expect(value, at).toBe(utf8.decode(bytes));
    else expect(firstDifference(value, JSON.parse(utf8.decode(bytes))), at).toBeNull();
    // Without offset and length, the record is the one a parse without withOffset gives.
    const bare = 'path' in rest ? rest : rest.value;
    expect(firstDifference(bare, plain[i]), at).toBeNull();
  }
}

/** `{"a":[...],"b":{"c":[...],"d":[...]}}` with random whitespace, maybe after a byte order mark. */
function nestedDocument(rng: Rng): string {
  const part = () => randomDocument(rng, { maxDepth: rng.range(1, 5), maxItems: rng.range(0, 8), budget: 60 });
  const ws = () => randomWhitespace(rng);
  const bom = rng.chance(0.3) ? '\ufeff' : '';
  return `${bom}${ws()}{${ws()}"a":${part()},"b"${ws()}:${ws()}{"c":${part()},${ws()}"d":${part()}}${ws()}}${ws()}`;
}

const PATH_CHOICES: ParserOptions[] = [
  { path: '$.a[*]' },
  { path: '$.b.*', withPath: true },
  { paths: ['$.a[*]', '$.b.c[*]', '$.b.*', '$.b'] },
  { paths: ['$.b.d[*]', '$.a'] },
  { path: '$' },
];

describe(`withOffset (seed ${SEED})`, () => {
  test.each(['value', 'text', 'bytes', 'reviver'] as const)(
    'random documents in random chunkings, output %s: each element is input[offset, offset + length)',
    (kind) => {
      const rng = createRng(SEED ^ (kind.length * 7919));
      const output: Output = kind === 'reviver' ? 'value' : kind;
      // The reviver parses each element on its own (valueElements), not in batches.
      const reviver = kind === 'reviver' ? { reviver: (_key: string, value: unknown) => value } : {};
      for (let n = 0; n < DOCUMENTS; n++) {
        const text = nestedDocument(rng);
        const selection = rng.pick(PATH_CHOICES);
        const options = { ...selection, ...reviver, output } as ParserOptions;
        const where = `seed ${SEED}, ${kind}, document ${n}, ${JSON.stringify(selection)}: ${text.slice(0, 200)}`;
        const located = parse(randomChunks(text, rng), { ...options, withOffset: true } as ParserOptions);
        const plain = parse(randomChunks(text, rng), options);
        expectLocated(encoder.encode(text), located, plain, output, where);
      }
    },
  );

  test('NDJSON: offsets of each line value, with the line number as key', () => {
    const rng = createRng(SEED + 1);
    for (let n = 0; n < DOCUMENTS / 4; n++) {
      const lines = Array.from({ length: rng.range(1, 8) }, () =>
        rng.chance(0.3) ? randomString(rng) : randomDocument(rng, { maxDepth: 3, maxItems: 5, budget: 30 }),
      );
      // Strings end in `"`, documents in `]`: any separator is unambiguous.
      const text = lines.map((line) => line + rng.pick(['\n', '\r\n', ' ', '\n\n'])).join('') + randomWhitespace(rng);
      const output = rng.pick(['value', 'text', 'bytes'] as const);
      const options: ParserOptions = { ndjson: true, output, withPath: rng.chance(0.5) };
      const where = `seed ${SEED}, ndjson ${n}, ${output}: ${text.slice(0, 200)}`;
      const located = parse(randomChunks(text, rng), { ...options, withOffset: true });
      expect(located.length, where).toBe(lines.length);
      expectLocated(encoder.encode(text), located, parse(randomChunks(text, rng), options), output, where);
    }
  });

  test('elements larger than the window, spanning many chunks', () => {
    const rng = createRng(SEED + 2);
    // 200 KB of text with 2-, 3- and 4-byte characters, 12,000 numbers, an object of long keys and values.
    const long = JSON.stringify('é€😀 plain '.repeat(16_000));
    const numbers = `[${Array.from({ length: 12_000 }, (_, i) => i * 37).join(', ')}]`;
    const members = Array.from({ length: 300 }, (_, i) => `"key ${'k'.repeat(i)}": "${'v'.repeat(300)}"`);
    const text = `\ufeff {"small":[1,${long},2, ${numbers} ,{${members.join(',')}}], "after": ${long} }`;
    const input = encoder.encode(text);
    expect(input.length).toBeGreaterThan(4 * 65536);
    const selections: ParserOptions[] = [{ path: '$.small[*]' }, { paths: ['$.small[*]', '$.after', '$.small[4].*'] }];
    for (const output of ['value', 'text', 'bytes'] as const) {
      for (const selection of selections) {
        const options = { ...selection, output };
        const plain = parse([input], options);
        for (const maxPiece of [1000, 5000, 70_000, 1 << 20]) {
          for (let round = 0; round < 2; round++) {
            const chunks = randomChunks(text, rng, maxPiece);
            const where = `${output}, ${JSON.stringify(selection)}, pieces up to ${maxPiece}, round ${round}`;
            expectLocated(input, parse(chunks, { ...options, withOffset: true }), plain, output, where);
          }
        }
      }
    }
  });

  // 4 GiB scanned: about 1 s in the SIMD build, 12 s in the scalar one, whose offsets are the same code.
  test.runIf(inject('sluiceBuild') === 'simd')(
    'an offset past 2^32: 4 GiB of spaces, then an element across it',
    () => {
      const parser = createParser({ path: '$.k[*]', withPath: true, withOffset: true, output: 'text' });
      const spaces = new Uint8Array(1 << 20).fill(0x20);
      const head = '{"k":[1,';
      const found: unknown[] = [...parser.push(head)];
      let fed = head.length;
      const target = 2 ** 32 - 4;
      while (fed < target) {
        const n = Math.min(spaces.length, target - fed);
        found.push(...parser.push(n === spaces.length ? spaces : spaces.subarray(0, n)));
        fed += n;
      }
      // A string starting 4 bytes before 2^32, fed a byte at a time: it ends in a later window than it began.
      for (const char of '"abcdefgh"') found.push(...parser.push(char));
      found.push(...parser.push(', 22]}'), ...parser.end());
      expect(found).toEqual([
        { path: '$.k[*]', key: 0, value: '1', offset: 6, length: 1 },
        { path: '$.k[*]', key: 1, value: '"abcdefgh"', offset: 2 ** 32 - 4, length: 10 },
        { path: '$.k[*]', key: 2, value: '22', offset: 2 ** 32 + 8, length: 2 },
      ]);
    },
  );

  test('parseJsonArray and JsonArrayStream give the records createParser gives', async () => {
    const text = '\ufeff[1, {"a": "é"}, [2,\n3], "x"]';
    const chunks = [text.slice(0, 5), encoder.encode(text.slice(5, 12)), text.slice(12)];
    for (const options of [
      { withOffset: true },
      { withOffset: true, withPath: true, output: 'bytes' },
      { paths: ['$[*]', '$[2][*]'], withOffset: true, output: 'text' },
    ] satisfies ParserOptions[] as ParserOptions[]) {
      const expected = parse(chunks, options);
      expectLocated(
        encoder.encode(text),
        expected,
        parse([text], { ...options, withOffset: false }),
        options.output ?? 'value',
        JSON.stringify(options),
      );
      expect(await collect(parseJsonArray(asyncIterableOf(chunks), options))).toEqual({
        values: expected,
        error: undefined,
      });
      const stream = new ReadableStream<Chunk>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }).pipeThrough(new JsonArrayStream(options));
      expect(await collectStream(stream)).toEqual({ values: expected, error: undefined });
    }
    // The byte order mark counts: the first element is the 5th byte.
    expect(parse([text], { withOffset: true })[0]).toEqual({ value: 1, offset: 4, length: 1 });
  });

  test('bytes elements with offsets are records to the encoder, not raw JSON', async () => {
    // Bare bytes elements are written byte for byte; records are values like any other (a Uint8Array as
    // JSON.stringify writes it).
    const text = '[1, "é", {"a": [2]}]';
    const records = parse([text], { output: 'bytes', withOffset: true });
    const written = await new Response(
      stringifyStream({ all: parseJsonArray(text, { output: 'bytes', withOffset: true }) }),
    ).text();
    expect(written).toBe(JSON.stringify({ all: records }));
  });
});
