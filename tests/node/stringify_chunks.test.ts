// The encoder's chunking of long text and bytes, counted rather than timed: the UTF-16 units given to
// TextEncoder.encodeInto grow linearly with the string at every chunk size (giving it the rest of the string for
// every chunk was quadratic: 0.6, 2.0 and 6.7 s for 0.5, 1 and 2 MB at chunkBytes 16), one long string or raw value
// goes out a chunk per read rather than queued whole (Node's ReadableStream dequeues in O(queue length)), and
// characters of every UTF-8 width land whole and exact across every chunk boundary.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { JsonArrayStringifyStream, rawJson, stringifyStream } from '../../dist/encode/index.js';
import { readAll } from '../support/stringify_read.js';

const encoder = new TextEncoder();
const encodeInto = TextEncoder.prototype.encodeInto;
// What the encoder's encodeInto calls were given and what they consumed, in UTF-16 units.
let given = 0;
let consumed = 0;

beforeEach(() => {
  given = 0;
  consumed = 0;
  TextEncoder.prototype.encodeInto = function countingEncodeInto(this: TextEncoder, text: string, into: Uint8Array) {
    const result = encodeInto.call(this, text, into);
    given += text.length;
    consumed += result.read!;
    return result;
  };
});

afterEach(() => {
  TextEncoder.prototype.encodeInto = encodeInto;
});

// One unit per character width: 1 (ASCII), 2 (é), 3 (中) and 4 (😀, a surrogate pair) UTF-8 bytes.
const WIDTHS = [
  ['ASCII', 'x'],
  ['2-byte', 'é'],
  ['3-byte', '中'],
  ['astral', '😀'],
] as const;
const CHUNK_BYTES = [16, 17, 18, 19, 64, 1000, 16384];

describe('a long string is encoded in linear work', () => {
  test.each(CHUNK_BYTES)(
    'chunkBytes %i: units given to encodeInto stay within 4 per unit, doubling with the size',
    async (chunkBytes) => {
      for (const [name, unit] of WIDTHS) {
        const counts: number[] = [];
        for (const units of [50_000, 100_000]) {
          const text = unit.repeat(units / unit.length);
          given = 0;
          const output = await readAll(stringifyStream(text, { chunkBytes }));
          expect(output.error).toBeUndefined();
          expect(Buffer.compare(Buffer.from(output.bytes), Buffer.from(encoder.encode(JSON.stringify(text))))).toBe(0);
          // A multi-byte character that does not fit is given again with the next piece: at most 4 units per
          // unit of text for 3-byte characters in 16-byte chunks (16 given, 5 read). Quadratic would be
          // units^2 / (2 chunkBytes): 78,125,000 for 50,000 units in 16-byte chunks.
          expect(given, `${name}, ${units} units`).toBeLessThanOrEqual(4 * units + 64);
          counts.push(given);
        }
        // 2 and a little with few chunks (the last one is partial); quadratic would give 4.
        expect(counts[1]! / counts[0]!, name).toBeLessThan(2.5);
      }
    },
  );
});

describe('backpressure inside one long value', () => {
  /** Reads `readable` chunk by chunk, checking after each read that at most `ahead` more were enqueued. */
  async function readCounting(readable: ReadableStream<Uint8Array>, enqueued: () => number, ahead: number) {
    const reader = readable.getReader();
    let reads = 0;
    let bytes = 0;
    let most = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      bytes += value.length;
      await new Promise((resolve) => setTimeout(resolve, 0));
      most = Math.max(most, enqueued() - reads);
    }
    expect(most).toBeLessThanOrEqual(ahead);
    return { reads, bytes };
  }

  test.each([16, 1000])(
    'chunkBytes %i: a long string and long raw values are enqueued a chunk per read',
    async (chunkBytes) => {
      // Each value some 200 chunks long.
      const text = 'é'.repeat(100 * chunkBytes);
      const raw = encoder.encode(JSON.stringify({ rows: 'x'.repeat(200 * chunkBytes) }));
      const rawText = JSON.stringify('中'.repeat(70 * chunkBytes));
      let enqueued = 0;
      const stream = new JsonArrayStringifyStream({ chunkBytes }, undefined, {
        highWaterMark: 1,
        size: () => {
          enqueued++;
          return 1;
        },
      });
      const writing = (async () => {
        const writer = stream.writable.getWriter();
        for (const value of [text, rawJson(raw), rawJson(rawText)]) await writer.write(value);
        await writer.close();
      })();
      const { bytes } = await readCounting(stream.readable, () => enqueued, 2);
      await writing;
      const expected = `[${JSON.stringify(text)},${new TextDecoder().decode(raw)},${rawText}]`;
      expect(bytes).toBe(encoder.encode(expected).length);
    },
  );

  test('stringifyStream: the string is encoded no further than a chunk or two past what was read', async () => {
    const chunkBytes = 64;
    const reader = stringifyStream({ text: 'a'.repeat(200_000) }, { chunkBytes }).getReader();
    let bytesRead = 0;
    for (let k = 0; k < 50; k++) {
      bytesRead += (await reader.read()).value!.length;
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(consumed).toBeLessThanOrEqual(bytesRead + 2 * chunkBytes);
    }
    await reader.cancel();
  });
});

describe('characters land whole across chunk boundaries', () => {
  test('every width at every offset from a boundary, chunkBytes 16 to 19', async () => {
    for (const chunkBytes of [16, 17, 18, 19]) {
      for (let offset = 0; offset < 24; offset++) {
        const text = 'x'.repeat(offset) + '😀é中\ud800x😀😀'.repeat(40) + '\udc00';
        const output = await readAll(stringifyStream([text, { [text]: text }], { chunkBytes }));
        const expected = encoder.encode(JSON.stringify([text, { [text]: text }]));
        expect(Buffer.compare(Buffer.from(output.bytes), Buffer.from(expected)), `${chunkBytes}/${offset}`).toBe(0);
        // Only a character that did not fit leaves a chunk short: by 3 bytes at most.
        for (const chunk of output.chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThan(chunkBytes - 4);
      }
    }
  });
});
