// Raw JSON through the encoder: rawJson(text | bytes | stream) is validated by the WebAssembly parser before any
// of its bytes is written (a stream: each chunk before it is written, truncation an error), written verbatim
// otherwise; parseJsonArray(..., { output: 'bytes' }) elements pass through byte for byte.
import { describe, expect, test } from 'vitest';
import { JsonSyntaxError, parseJsonArray } from '../../dist/index.js';
import { rawJson, stringifyStream } from '../../dist/encode/index.js';
import { concat, readAll, textOf } from '../support/stringify_read.js';
import { countedStream, probe } from '../support/stringify_sources.js';

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);

/** A pull stream of the given chunks. */
function chunksStream(chunks: readonly Uint8Array[], onCancel?: (reason: unknown) => void): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (i < chunks.length) controller.enqueue(chunks[i++]!);
        else controller.close();
      },
      cancel: onCancel,
    },
    { highWaterMark: 0 },
  );
}

describe('rawJson', () => {
  test('text and bytes are written verbatim wherever they are', async () => {
    const pretty = '{\n  "a": [1, 2.50, "\\u00e9"]\n}';
    const value = { a: rawJson(pretty), b: [rawJson(bytes(' true ')), rawJson('-0')], c: { d: rawJson('"é😀"') } };
    expect(await textOf(stringifyStream(value))).toBe(`{"a":${pretty},"b":[ true ,-0],"c":{"d":"é😀"}}`);
    expect(await textOf(stringifyStream(rawJson('[1,2]'), { space: 2 }))).toBe('[1,2]');
  });

  test('a leading byte order mark is dropped (the parser skips it), in text, bytes and streams', async () => {
    expect(await textOf(stringifyStream([rawJson('\ufeff{"a":1}')]))).toBe('[{"a":1}]');
    expect(await textOf(stringifyStream([rawJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x31]))]))).toBe('[1]');
    const split = [new Uint8Array([0xef]), new Uint8Array([0xbb]), new Uint8Array([0xbf, 0x5b]), bytes('2]')];
    expect(await textOf(stringifyStream([rawJson(chunksStream(split))]))).toBe('[[2]]');
  });

  test('invalid text is an error before any byte of it is written', async () => {
    // The raw value's valid prefix is longer than many chunks: written early, it would show in what arrived.
    const invalid = [`[${'1,'.repeat(5000)}tru]`, '{"a":1,}', '[1] [2]', '', ' ', '"\\x"', '01', '\ufeff'];
    for (const text of invalid) {
      const output = await readAll(stringifyStream({ head: 'h', raw: rawJson(text), tail: 't' }, { chunkBytes: 16 }));
      expect(output.error, JSON.stringify(text)).toBeInstanceOf(JsonSyntaxError);
      expect(output.text.includes('1,1'), JSON.stringify(text)).toBe(false);
      expect('{"head":"h","raw":'.startsWith(output.text), output.text).toBe(true);
    }
  });

  test('invalid UTF-8 in bytes is an error', async () => {
    const output = await readAll(stringifyStream([rawJson(new Uint8Array([0x22, 0xc0, 0xaf, 0x22]))]));
    expect((output.error as JsonSyntaxError).code).toBe('INVALID_UTF8');
  });

  test('a stream is written chunk by chunk, each chunk only after it validated', async () => {
    const chunks = ['[{"a":', '1},', ' {"b":[2', ',3]}]'].map(bytes);
    expect(await textOf(stringifyStream({ x: rawJson(chunksStream(chunks)) }))).toBe('{"x":[{"a":1}, {"b":[2,3]}]}');

    const bad = ['[' + '1,'.repeat(100), '2,', '3]]', '4'].map(bytes);
    const output = await readAll(stringifyStream({ x: rawJson(chunksStream(bad)) }, { chunkBytes: 16 }));
    expect(output.error).toBeInstanceOf(JsonSyntaxError);
    // Everything before the bad chunk may have gone out; nothing of the bad chunk did.
    expect(output.text.includes(']')).toBe(false);
    expect(output.text.includes('3')).toBe(false);
  });

  test('a truncated stream errors the output', async () => {
    const output = await readAll(stringifyStream([rawJson(chunksStream(['{"a":[1,', '2'].map(bytes)))]));
    expect((output.error as JsonSyntaxError).code).toBe('UNEXPECTED_END');
  });

  test('a raw stream is cancelled with the output', async () => {
    let reason: unknown;
    const endless = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          controller.enqueue(bytes('['));
        },
        pull(controller) {
          controller.enqueue(bytes('1,'));
        },
        cancel(why) {
          reason = why;
        },
      },
      { highWaterMark: 0 },
    );
    const reader = stringifyStream({ raw: rawJson(endless) }, { chunkBytes: 64 }).getReader();
    await reader.read();
    await reader.read();
    const why = new Error('gone');
    await reader.cancel(why);
    expect(reason).toBe(why);
  });

  test('chunks of a raw stream must be bytes', async () => {
    const strings = new ReadableStream<unknown>({
      start(c) {
        c.enqueue('[1]');
        c.close();
      },
    });
    const output = await readAll(stringifyStream([rawJson(strings as ReadableStream<Uint8Array>)]));
    expect(output.error).toBeInstanceOf(TypeError);
  });

  test('rawJson takes a string, bytes or a stream', () => {
    for (const bad of [1, null, undefined, {}, [1], new ArrayBuffer(1)]) {
      expect(() => rawJson(bad as never), String(bad)).toThrow(TypeError);
    }
  });

  test('a replacer sees the raw value and may replace it', async () => {
    const seen: unknown[] = [];
    const raw = rawJson('[1]');
    const replacer = (key: string, value: unknown) => {
      if (key === 'r') seen.push(value);
      return key === 'gone' ? undefined : value;
    };
    expect(await textOf(stringifyStream({ r: raw, gone: rawJson('nope') }, { replacer }))).toBe('{"r":[1]}');
    expect(seen).toEqual([raw]);
  });
});

describe('pass-through of parseJsonArray bytes', () => {
  // Elements with their own whitespace and escapes: a re-encoding would normalise them.
  const upstream = '{"data": [ {"id" : 1, "t":"\\u00e9\\n"} ,[1, 2.50 ,-0],"x\\/y", 1E3 , null,\n{}\t] , "n": 3}';
  const elements = ['{"id" : 1, "t":"\\u00e9\\n"}', '[1, 2.50 ,-0]', '"x\\/y"', '1E3', 'null', '{}'];

  test('elements are written byte for byte, not as Uint8Array objects', async () => {
    const source = parseJsonArray(upstream, { path: '$.data[*]', output: 'bytes' });
    const text = await textOf(stringifyStream({ items: source, count: 6 }));
    expect(text).toBe(`{"items":[${elements.join(',')}],"count":6}`);
  });

  test('byte-identical over a large upstream in small chunks, with indentation around it', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `{ "i": ${i}, "s": "${'é😀\\"'.repeat(i % 7)}" }`);
    const body = bytes(`[${rows.join(' ,\n')}]`);
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < body.length; at += 777) pieces.push(body.subarray(at, at + 777));
    const source = parseJsonArray(chunksStream(pieces), { output: 'bytes' });
    const output = await readAll(stringifyStream({ rows: source }, { space: 1, chunkBytes: 1000 }));
    expect(output.error).toBeUndefined();
    const expected = `{\n "rows": [\n  ${rows.join(',\n  ')}\n ]\n}`;
    expect(Buffer.from(output.bytes).equals(Buffer.from(bytes(expected)))).toBe(true);
  });

  test('cancelling the output cancels the upstream', async () => {
    const p = probe();
    const upstreamRows = countedStream(p, 100_000, (i) => bytes(`${i === 0 ? '[' : ','}{"i":${i}}`));
    const reader = stringifyStream(parseJsonArray(upstreamRows, { output: 'bytes' }), { chunkBytes: 64 }).getReader();
    await reader.read();
    await reader.cancel();
    expect(p.closed).toBe(true);
    expect(p.steps).toBeLessThan(100);
  });

  test('any async iterable marked with Symbol.for("sluice.rawElements") is written raw, unvalidated', async () => {
    const marked = {
      [Symbol.for('sluice.rawElements')]: true,
      async *[Symbol.asyncIterator]() {
        yield bytes('{"a" : 1}');
        yield bytes('[ ]');
      },
    };
    expect(await textOf(stringifyStream([marked, 1]))).toBe('[[{"a" : 1},[ ]],1]');
    const wrong = {
      [Symbol.for('sluice.rawElements')]: true,
      async *[Symbol.asyncIterator]() {
        yield 'text';
      },
    };
    expect((await readAll(stringifyStream([wrong]))).error).toBeInstanceOf(TypeError);
  });

  test('elements parsed as values are re-encoded (no mark): the same JSON, normalised', async () => {
    const source = parseJsonArray(upstream, { path: '$.data[*]' });
    const text = await textOf(stringifyStream(source));
    expect(text).toBe(JSON.stringify(elements.map((e) => JSON.parse(e))));
    expect(concat([bytes(text)]).length).toBeGreaterThan(0);
  });
});
