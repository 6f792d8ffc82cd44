// JsonArrayStringifyStream and JsonLinesStringifyStream: values piped in give exactly JSON.stringify of the
// array (or one JSON.stringify per line); what is buffered is flushed when no value follows; cancelling the
// output stops the upstream; a failing value errors both sides.
import { describe, expect, test } from 'vitest';
import { JsonArrayStringifyStream, JsonLinesStringifyStream } from '../../dist/encode/index.js';
import { readAll, settle, textOf } from '../support/stringify_read.js';
import { countedAsyncRows, countedStream, probe } from '../support/stringify_sources.js';

const decoder = new TextDecoder();

function streamOf<T>(values: readonly T[]): ReadableStream<T> {
  let i = 0;
  return new ReadableStream<T>({
    pull(controller) {
      if (i < values.length) controller.enqueue(values[i++]!);
      else controller.close();
    },
  });
}

const VALUES = [1, 'two', { three: [3, { n: null }] }, [], {}, undefined, -0, 'é😀\ud800', new Date(0), [[[]]]];

describe('JsonArrayStringifyStream', () => {
  test('gives JSON.stringify of the array, for every space and replacer', async () => {
    const replacer = (_key: string, value: unknown) => (typeof value === 'number' ? value * 10 : value);
    const cases = [{}, { space: 2 }, { space: '\t', chunkBytes: 16 }, { replacer }, { replacer: ['three'] }];
    for (const options of cases) {
      const text = await textOf(streamOf(VALUES).pipeThrough(new JsonArrayStringifyStream(options as never)));
      const space = (options as { space?: unknown }).space;
      expect(text, JSON.stringify(options)).toBe(
        JSON.stringify(VALUES, (options as { replacer?: never }).replacer, space as never),
      );
    }
    expect(await textOf(streamOf([]).pipeThrough(new JsonArrayStringifyStream({ space: 2 })))).toBe('[]');
  });

  test('values may hold sources', async () => {
    const values = [{ rows: countedAsyncRows(probe(), 3, (i) => i) }, Promise.resolve('p')];
    const text = await textOf(streamOf(values).pipeThrough(new JsonArrayStringifyStream({ space: 1 })));
    expect(text).toBe(JSON.stringify([{ rows: [0, 1, 2] }, 'p'], null, 1));
  });

  test('flushes what is buffered when no value follows, without waiting for close', async () => {
    const stream = new JsonArrayStringifyStream();
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    const first = reader.read();
    await writer.write({ a: 1 });
    expect(decoder.decode((await first).value!)).toBe('[{"a":1}');
    const second = reader.read();
    await writer.write(2);
    expect(decoder.decode((await second).value!)).toBe(',2');
    const third = reader.read();
    await writer.close();
    expect(decoder.decode((await third).value!)).toBe(']');
    expect((await reader.read()).done).toBe(true);
  });

  test('a slow reader holds the upstream back', async () => {
    const p = probe();
    const readable = countedStream(p, 100_000, (i) => ({ i, pad: 'x'.repeat(100) })).pipeThrough(
      new JsonArrayStringifyStream({ chunkBytes: 1024 }),
    );
    const reader = readable.getReader();
    for (let k = 0; k < 5; k++) await reader.read();
    await settle();
    const pulled = p.steps;
    // Five 1 KiB chunks hold about 45 values; the pipe and the writable queue add a few more.
    expect(pulled).toBeLessThan(80);
    await settle();
    expect(p.steps).toBe(pulled);
    const why = new Error('enough');
    await reader.cancel(why);
    await settle();
    expect(p.closed).toBe(true);
    expect(p.reason).toBe(why);
  });

  test('a value that fails errors the output and the writable side', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const stream = new JsonArrayStringifyStream();
    const writer = stream.writable.getWriter();
    const output = readAll(stream.readable);
    await writer.write(1);
    await expect(writer.write(cyclic)).rejects.toThrow(TypeError);
    expect((await output).error).toBeInstanceOf(TypeError);
  });

  test('aborting the writable side errors the output and closes the sources of the value being written', async () => {
    const p = probe();
    const stream = new JsonArrayStringifyStream({ chunkBytes: 16 });
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    const writing = writer.write({ rows: countedAsyncRows(p, 1_000_000, (i) => i) });
    await reader.read();
    const why = new Error('upstream failed');
    const aborted = writer.abort(why);
    await expect(reader.read()).rejects.toBe(why);
    await aborted;
    await writing.catch(() => {});
    expect(p.closed).toBe(true);
  });
});

describe('JsonLinesStringifyStream', () => {
  test('one JSON.stringify per line', async () => {
    const values = VALUES.filter((value) => value !== undefined);
    const text = await textOf(streamOf(values).pipeThrough(new JsonLinesStringifyStream({ chunkBytes: 16 })));
    expect(text).toBe(values.map((value) => `${JSON.stringify(value)}\n`).join(''));
    expect(await textOf(streamOf([]).pipeThrough(new JsonLinesStringifyStream()))).toBe('');
  });

  test('the replacer sees each value as the root (key "")', async () => {
    const keys: string[] = [];
    const replacer = (key: string, value: unknown) => {
      keys.push(key);
      return value;
    };
    await textOf(streamOf([1, [2]]).pipeThrough(new JsonLinesStringifyStream({ replacer })));
    expect(keys).toEqual(['', '', '0']);
  });

  test('a value without JSON text errors the stream; space is refused', async () => {
    const output = await readAll(streamOf([1, undefined]).pipeThrough(new JsonLinesStringifyStream()));
    expect(output.error).toBeInstanceOf(TypeError);
    expect(() => new JsonLinesStringifyStream({ space: 2 } as never)).toThrow(TypeError);
  });
});
