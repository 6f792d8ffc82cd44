// Stream semantics: backpressure, cancellation, errors from the source, and native memory released on every path
// out (end, break, error, cancel).
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createParser, JsonArrayStream, JsonSyntaxError, parseJsonArray } from '../../dist/index.js';
import { nativeModule } from '../../dist/internal.js';
import { RESIDENT_LIMIT } from '../../dist/native/parser_pool.js';
import { collect, collectStream, countingSource } from '../support/sources.js';

const heapInUse = () => nativeModule().heapInUse();
/** Lets every pending promise job and stream pull run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** `[`, then one chunk per element (`{"i":N},`), then `]`. */
function oneElementPerChunk(count: number): string[] {
  return ['[', ...Array.from({ length: count }, (_, i) => `{"i":${i}}${i + 1 < count ? ',' : ''}`), ']'];
}

describe('backpressure', () => {
  test('parseJsonArray reads the source no further than the consumer needs', async () => {
    const source = countingSource(oneElementPerChunk(50));
    const iterator = parseJsonArray(source.stream)[Symbol.asyncIterator]();
    await settle();
    expect(source.pulls).toBe(0);
    for (let i = 0; i < 50; i++) {
      expect(await iterator.next()).toEqual({ done: false, value: { i } });
      await settle();
      // `[` plus the chunks of elements 0..i: each element's `}` is in its own chunk, so it completes there.
      expect(source.pulls).toBe(i + 2);
    }
    expect((await iterator.next()).done).toBe(true);
  });

  test('elements already parsed from one chunk are served without reading more', async () => {
    const many = '[' + Array.from({ length: 100 }, (_, i) => i).join(',') + ',';
    const source = countingSource([many, '100]']);
    const iterator = parseJsonArray(source.stream)[Symbol.asyncIterator]();
    for (let i = 0; i < 100; i++) expect((await iterator.next()).value).toBe(i);
    await settle();
    expect(source.pulls).toBe(1);
    expect((await iterator.next()).value).toBe(100);
    expect(source.pulls).toBeGreaterThanOrEqual(2);
  });

  test('JsonArrayStream stops pulling once its readable queue is full', async () => {
    const source = countingSource(oneElementPerChunk(1000));
    const readable = source.stream.pipeThrough(
      new JsonArrayStream(undefined, { highWaterMark: 1 }, { highWaterMark: 4 }),
    );
    await settle();
    // Four queued elements, plus at most the writable's one queued chunk, the one being transformed and the one
    // the pipe has read: nowhere near the 1002 chunks.
    expect(source.pulls).toBeGreaterThanOrEqual(5);
    expect(source.pulls).toBeLessThanOrEqual(8);
    const before = source.pulls;
    await settle();
    expect(source.pulls).toBe(before);

    const { values, error } = await collectStream(readable);
    expect(error).toBeUndefined();
    expect(values).toEqual(Array.from({ length: 1000 }, (_, i) => ({ i })));
  });
});

describe('cancellation', () => {
  test('break out of parseJsonArray cancels a ReadableStream source', async () => {
    const source = countingSource(oneElementPerChunk(100));
    for await (const value of parseJsonArray(source.stream)) {
      expect(value).toEqual({ i: 0 });
      break;
    }
    expect(source.cancelled).toBe(true);
    expect(source.pulls).toBeLessThan(5);
  });

  test('break out of parseJsonArray returns an async iterable source', async () => {
    let finished = false;
    let produced = 0;
    async function* chunks() {
      try {
        for (const chunk of oneElementPerChunk(100)) {
          produced++;
          yield chunk;
        }
      } finally {
        finished = true;
      }
    }
    for await (const value of parseJsonArray(chunks())) {
      expect(value).toEqual({ i: 0 });
      break;
    }
    expect(finished).toBe(true);
    expect(produced).toBeLessThan(5);
  });

  test('a Node stream source is destroyed by return(), before a read, during the first, after one', async () => {
    // Its iterator is an async generator: return() before the first next() skips the destroy() in its finally.
    const destroyed: boolean[] = [];
    for (const reads of [0, 0.5, 1]) {
      let pulled = 0;
      const node = new Readable({
        read() {
          this.push(oneElementPerChunk(100)[pulled++] ?? null);
        },
      });
      const iterator = parseJsonArray(node)[Symbol.asyncIterator]();
      const pending = reads > 0 ? iterator.next() : null;
      if (reads === 1) expect((await pending)?.value).toEqual({ i: 0 });
      await iterator.return!();
      await pending?.catch(() => {});
      await settle();
      destroyed.push(node.destroyed);
    }
    expect(destroyed).toEqual([true, true, true]);
  });

  test('cancelling the readable of JsonArrayStream cancels the source with the same reason', async () => {
    const source = countingSource(oneElementPerChunk(100));
    const readable = source.stream.pipeThrough(new JsonArrayStream());
    const reader = readable.getReader();
    expect((await reader.read()).value).toEqual({ i: 0 });
    const reason = new Error('consumer gave up');
    await reader.cancel(reason);
    await settle();
    expect(source.cancelled).toBe(true);
    expect(source.cancelReason).toBe(reason);
  });
});

describe('errors thrown by the source reach the consumer', () => {
  const failure = new Error('connection reset');

  test('parseJsonArray from a ReadableStream, after the elements that arrived', async () => {
    const source = countingSource(oneElementPerChunk(3).slice(0, 3), { fail: failure });
    const { values, error } = await collect(parseJsonArray(source.stream));
    expect(values).toEqual([{ i: 0 }, { i: 1 }]);
    expect(error).toBe(failure);
  });

  test('parseJsonArray from an async iterable', async () => {
    async function* chunks() {
      yield '[1,2,';
      throw failure;
    }
    const { values, error } = await collect(parseJsonArray(chunks()));
    expect(values).toEqual([1, 2]);
    expect(error).toBe(failure);
  });

  test('JsonArrayStream', async () => {
    const source = countingSource(['[1,', '2,'], { fail: failure });
    const { values, error } = await collectStream(source.stream.pipeThrough(new JsonArrayStream()));
    expect(values).toEqual([1, 2]);
    expect(error).toBe(failure);
  });
});

describe('native memory returns to its baseline', () => {
  const ROUNDS = 10_000;
  const text = '[{"a":[1,2,3],"b":"' + 'x'.repeat(100) + '"},2,3]';

  test('heapInUse measures live parsers (so the checks below can fail)', () => {
    // Parsers that earlier tests dropped stay resident until others need their place: make them leave first.
    const others = Array.from({ length: RESIDENT_LIMIT }, () => createParser());
    for (const parser of others) parser.push('[');
    for (const parser of others) parser.close();
    const baseline = heapInUse();
    const parsers = Array.from({ length: 100 }, () => createParser());
    for (const parser of parsers) parser.push('[1,{"a":');
    expect(heapInUse()).toBeGreaterThan(baseline);
    for (const parser of parsers) parser.close();
    expect(heapInUse()).toBe(baseline);
  });

  test(`after ${ROUNDS} parsers created, fed and ended (or closed)`, () => {
    const baseline = heapInUse();
    for (let i = 0; i < ROUNDS; i++) {
      const parser = createParser({ output: i % 3 === 0 ? 'bytes' : 'value', withPath: i % 2 === 0 });
      parser.push(text.slice(0, 30));
      if (i % 5 === 0) {
        parser.close();
        continue;
      }
      parser.push(text.slice(30));
      expect(parser.end()).toEqual([]);
    }
    expect(heapInUse()).toBe(baseline);
  });

  test(`after ${ROUNDS} loops broken off`, async () => {
    const baseline = heapInUse();
    for (let i = 0; i < ROUNDS; i++) {
      const source = i % 2 === 0 ? text : countingSource([text.slice(0, 25), text.slice(25)]).stream;
      for await (const value of parseJsonArray(source)) {
        expect(value).toBeTypeOf('object');
        break;
      }
    }
    expect(heapInUse()).toBe(baseline);
  });

  test(`after ${ROUNDS} errors`, async () => {
    const baseline = heapInUse();
    for (let i = 0; i < ROUNDS; i++) {
      const bad = text.slice(0, 40 + (i % 20)) + '}}';
      switch (i % 4) {
        case 0: {
          const parser = createParser();
          expect(() => {
            parser.push(bad);
            parser.end();
          }).toThrow(JsonSyntaxError);
          break;
        }
        case 1: {
          const parser = createParser();
          parser.push('[1,');
          // An error on end(), with nothing pushed after it.
          expect(() => parser.end()).toThrow(JsonSyntaxError);
          break;
        }
        case 2:
          expect((await collect(parseJsonArray(bad))).error).toBeInstanceOf(JsonSyntaxError);
          break;
        default:
          expect(
            (await collectStream(new Response(bad).body!.pipeThrough(new JsonArrayStream()))).error,
          ).toBeInstanceOf(JsonSyntaxError);
      }
    }
    expect(heapInUse()).toBe(baseline);
  });

  test('after JsonArrayStreams cancelled mid-element', async () => {
    const baseline = heapInUse();
    for (let i = 0; i < 1000; i++) {
      const stream = new JsonArrayStream();
      const writer = stream.writable.getWriter();
      writer.write('[{"a":1},{"b":').catch(() => {});
      const reader = stream.readable.getReader();
      expect((await reader.read()).value).toEqual({ a: 1 });
      await reader.cancel(new Error('stop'));
    }
    expect(heapInUse()).toBe(baseline);
  });
});
