// Differential testing of the encoder against JSON.stringify: seeded random structures, written with and without
// sources mixed in at random places, in random chunk sizes and with every form of `space` and `replacer`, must
// give exactly the bytes of JSON.stringify of the same structure with the sources materialised (raw JSON verbatim
// where it stands). toJSON sits at every level (on objects and arrays, depending on its key, returning what must
// not be called again), arrays are longer than the encoder's batches, and every kind of `space` is used (numbers
// 0 to 10 and beyond, strings with newlines and tabs, strings cut to 10 characters). A failure names the seed and
// the value's number; SLUICE_TEST_SEED explores other values.
import { describe, expect, test } from 'vitest';
import { stringifyStream } from '../../dist/encode/index.js';
import {
  createRng,
  expectedText,
  randomCorpusValue,
  randomLongArray,
  testReplacer,
  type CorpusValue,
  type Rng,
} from '../support/stringify_corpus.js';
import { readAll } from '../support/stringify_read.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x5e7d);
const VALUES = 1000;
const encoder = new TextEncoder();

// Each form JSON.stringify accepts: numbers are truncated and clamped to 10, strings cut to 10 characters,
// boxed ones unwrapped.
const SPACES: unknown[] = [
  undefined,
  null,
  0,
  1,
  2,
  2.9,
  3,
  4,
  5,
  6,
  7,
  8,
  9,
  10,
  11,
  100,
  -3,
  NaN,
  Infinity,
  '',
  '\t',
  '--',
  ' \u00e9 ',
  'abcdefghijklmnop',
  '\n',
  '\r\n',
  '\n\t',
  ' \n ',
  '\n\n',
  'ab\ncd',
  '\t\t\t',
  '\u2028',
  '123456789\n12',
  '\n234567890',
  new Number(3),
  new String('..'),
  new String('\n\t'),
];
const REPLACER_ARRAYS: unknown[][] = [
  ['a', 'b', '0', 'long', 10, 'a', new String('c'), new Number(1), {}, null],
  ['', '__proto__', 'é', 'key', 'nested', 'hidden'],
];
const CHUNK_BYTES = [16, 17, 31, 64, 1000, 16384];

function randomOptions(rng: Rng) {
  const space = rng.chance(0.5) ? undefined : rng.pick(SPACES);
  const r = rng.int(4);
  const replacer = r === 0 ? testReplacer : r === 1 ? rng.pick(REPLACER_ARRAYS) : undefined;
  return { space, replacer, chunkBytes: rng.pick(CHUNK_BYTES) } as const;
}

/** The sourced view: toJSON may return a promise unless a replacer function would see it. */
function withSources(value: CorpusValue, rng: Rng, options: ReturnType<typeof randomOptions>): unknown {
  return value.withSources(rng, { promisedToJSON: typeof options.replacer !== 'function' });
}

function describeOptions(options: ReturnType<typeof randomOptions>): string {
  const space =
    options.space instanceof Object
      ? `${options.space.constructor.name}(${String(options.space)})`
      : JSON.stringify(options.space);
  const replacer = typeof options.replacer === 'function' ? 'function' : JSON.stringify(options.replacer);
  return `space ${space}, replacer ${replacer}, chunkBytes ${options.chunkBytes}`;
}

/**
 * What JSON.stringify gives: its text, the error it throws (a `__proto__` in an array replacer can make it call
 * Date.prototype.toJSON on Date.prototype), or undefined for no text.
 */
function oracle(compute: () => string | undefined): string | Error | undefined {
  try {
    return compute();
  } catch (error) {
    return error as Error;
  }
}

async function check(
  value: unknown,
  expected: string | Error,
  options: ReturnType<typeof randomOptions>,
  name: string,
) {
  const output = await readAll(stringifyStream(value, options as never));
  if (expected instanceof Error) {
    expect(output.error, name).toBeInstanceOf(expected.constructor);
    expect((output.error as Error).message, name).toBe(expected.message);
    return;
  }
  if (output.error !== undefined) throw new Error(`${name}: ${String(output.error)}`, { cause: output.error });
  // Compare bytes, not decoded text: a lone surrogate written raw would decode to U+FFFD on both sides.
  const same = Buffer.compare(Buffer.from(output.bytes), Buffer.from(encoder.encode(expected))) === 0;
  if (!same) expect(output.text, name).toBe(expected);
  for (let i = 0; i < output.chunks.length; i++) {
    const length = output.chunks[i]!.length;
    expect(length > 0 && length <= options.chunkBytes, `${name}: chunk ${i} has ${length} bytes`).toBe(true);
  }
}

describe(`random values (seed ${SEED})`, () => {
  test('without sources: byte-identical to JSON.stringify', async () => {
    const rng = createRng(SEED);
    for (let n = 0; n < VALUES; n++) {
      const value = randomCorpusValue(rng, rng.range(1, 6));
      const options = randomOptions(rng);
      const expected = oracle(() => expectedText(value, options.replacer, options.space));
      // The plain view holds raw markers as strings: JSON.stringify's own text of it.
      const plainExpected = oracle(() =>
        JSON.stringify(value.plain, options.replacer as never, options.space as never),
      );
      const name = `value ${n} (${describeOptions(options)})`;
      if (plainExpected === undefined) {
        const output = await readAll(stringifyStream(value.plain, options as never));
        expect(output.error, name).toBeInstanceOf(TypeError);
        expect(output.bytes.length, name).toBe(0);
        continue;
      }
      expect(expected).toBeDefined();
      await check(value.plain, plainExpected, options, name);
    }
  });

  test('with sources at random places: JSON.stringify of the materialised structure', async () => {
    const rng = createRng(SEED + 1);
    for (let n = 0; n < VALUES; n++) {
      const value = randomCorpusValue(rng, rng.range(1, 6));
      const options = randomOptions(rng);
      const expected = oracle(() => expectedText(value, options.replacer, options.space));
      if (expected === undefined) continue;
      await check(withSources(value, rng, options), expected, options, `value ${n} (${describeOptions(options)})`);
    }
  });

  test('dense sources: every array a source, every value maybe a promise', async () => {
    const rng = createRng(SEED + 2);
    for (let n = 0; n < VALUES / 4; n++) {
      const value = randomCorpusValue(rng, rng.range(2, 6), 1);
      const options = randomOptions(rng);
      const expected = oracle(() => expectedText(value, options.replacer, options.space));
      if (expected === undefined) continue;
      await check(withSources(value, rng, options), expected, options, `value ${n} (${describeOptions(options)})`);
    }
  });
});

describe(`toJSON, keys and every space (seed ${SEED})`, () => {
  const REPLACERS: unknown[] = [undefined, testReplacer, ...REPLACER_ARRAYS];

  test('every space with every replacer, with and without sources', async () => {
    const rng = createRng(SEED + 3);
    let n = 0;
    for (const space of SPACES) {
      for (const replacer of REPLACERS) {
        for (let k = 0; k < 6; k++, n++) {
          const value = randomCorpusValue(rng, rng.range(2, 6));
          const options = { space, replacer, chunkBytes: rng.pick(CHUNK_BYTES) } as ReturnType<typeof randomOptions>;
          const expected = oracle(() => expectedText(value, replacer, space));
          if (expected === undefined) continue;
          const name = `value ${n} (${describeOptions(options)})`;
          const plain = oracle(() => JSON.stringify(value.plain, replacer as never, space as never))!;
          await check(value.plain, plain, options, `${name}, plain`);
          await check(withSources(value, rng, options), expected, options, `${name}, with sources`);
        }
      }
    }
  });

  test('arrays longer than a batch: toJSON gets the index in the whole array, in batches and in sources', async () => {
    const rng = createRng(SEED + 4);
    for (let n = 0; n < 30; n++) {
      const value = randomLongArray(rng);
      const options = randomOptions(rng);
      const expected = oracle(() => expectedText(value, options.replacer, options.space))!;
      const plain = oracle(() => JSON.stringify(value.plain, options.replacer as never, options.space as never))!;
      const name = `array ${n} (${describeOptions(options)})`;
      await check(value.plain, plain, options, `${name}, plain`);
      await check(withSources(value, rng, options), expected, options, `${name}, with sources`);
    }
  });
});
