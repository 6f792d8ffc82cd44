// Differential testing of the encoder against JSON.stringify: seeded random structures, written with and without
// sources mixed in at random places, in random chunk sizes and with every form of `space` and `replacer`, must
// give exactly the bytes of JSON.stringify of the same structure with the sources materialised (raw JSON verbatim
// where it stands). A failure names the seed and the value's number; SLUICE_TEST_SEED explores other values.
import { describe, expect, test } from 'vitest';
import { stringifyStream } from '../../dist/encode/index.js';
import { createRng, expectedText, randomCorpusValue, testReplacer, type Rng } from '../support/stringify_corpus.js';
import { readAll } from '../support/stringify_read.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x5e7d);
const VALUES = 1000;
const encoder = new TextEncoder();

// Each form JSON.stringify accepts: numbers are truncated and clamped to 10, strings cut to 10 characters,
// boxed ones unwrapped.
const SPACES: unknown[] = [undefined, null, 0, 1, 2, 2.9, 10, 11, -3, NaN, Infinity, '', '\t', '--', ' \u00e9 ',
  'abcdefghijklmnop', new Number(3), new String('..')];
const REPLACER_ARRAYS: unknown[][] = [['a', 'b', '0', 'long', 10, 'a', new String('c'), new Number(1), {}, null],
  ['', '__proto__', 'é', 'key', 'nested', 'hidden']];
const CHUNK_BYTES = [16, 17, 31, 64, 1000, 16384];

function randomOptions(rng: Rng) {
  const space = rng.chance(0.5) ? undefined : rng.pick(SPACES);
  const r = rng.int(4);
  const replacer = r === 0 ? testReplacer : r === 1 ? rng.pick(REPLACER_ARRAYS) : undefined;
  return { space, replacer, chunkBytes: rng.pick(CHUNK_BYTES) } as const;
}

function describeOptions(options: ReturnType<typeof randomOptions>): string {
  const space = options.space instanceof Object ? `${options.space.constructor.name}(${String(options.space)})`
    : JSON.stringify(options.space);
  const replacer = typeof options.replacer === 'function' ? 'function' : JSON.stringify(options.replacer);
  return `space ${space}, replacer ${replacer}, chunkBytes ${options.chunkBytes}`;
}

async function check(value: unknown, expected: string, options: ReturnType<typeof randomOptions>, name: string) {
  const output = await readAll(stringifyStream(value, options as never));
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
      const expected = expectedText(value, options.replacer, options.space);
      // The plain view holds raw markers as strings: JSON.stringify's own text of it.
      const plainExpected = JSON.stringify(value.plain, options.replacer as never, options.space as never);
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
      const expected = expectedText(value, options.replacer, options.space);
      if (expected === undefined) continue;
      await check(value.withSources(rng), expected, options, `value ${n} (${describeOptions(options)})`);
    }
  });

  test('dense sources: every array a source, every value maybe a promise', async () => {
    const rng = createRng(SEED + 2);
    for (let n = 0; n < VALUES / 4; n++) {
      const value = randomCorpusValue(rng, rng.range(2, 6), 1);
      const options = randomOptions(rng);
      const expected = expectedText(value, options.replacer, options.space);
      if (expected === undefined) continue;
      await check(value.withSources(rng), expected, options, `value ${n} (${describeOptions(options)})`);
    }
  });
});
