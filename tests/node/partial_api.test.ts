// The contract of createPartialParser and partialJson case by case (issue 20): what a snapshot shows and when,
// `pending`, numbers: 'partial', end(), option and chunk validation, and partialJson over every source kind:
// one snapshot per chunk that changed the value, the source cancelled when the loop stops, errors after the
// snapshots before them.
import { describe, expect, test } from 'vitest';
import { createPartialParser, JsonSyntaxError, partialJson } from '../../dist/index.js';
import { asyncIterableOf, collect, countingSource } from '../support/sources.js';

/** The snapshot after each chunk. */
function snapshots(chunks: readonly string[], options?: Parameters<typeof createPartialParser>[0]): unknown[] {
  const parser = createPartialParser(options);
  return chunks.map((chunk) => parser.push(chunk));
}

describe('what a snapshot shows', () => {
  test("the issue's example: a string shows as it grows", () => {
    expect(snapshots(['{"title":"Hel', 'lo"'])).toEqual([{ title: 'Hel' }, { title: 'Hello' }]);
  });

  test('undefined until the root type is known; a root scalar once complete (strings as they grow)', () => {
    expect(snapshots([' ', '\n', '[', ']'])).toEqual([undefined, undefined, [], []]);
    expect(snapshots(['"a', 'b', '"'])).toEqual(['a', 'ab', 'ab']);
    expect(snapshots(['t', 'ru', 'e'])).toEqual([undefined, undefined, true]);
    const parser = createPartialParser();
    expect(parser.push('12')).toBeUndefined();
    expect(parser.push('3')).toBeUndefined();
    expect(parser.end()).toBe(123);
  });

  test('never half an escape, half a surrogate pair or half a UTF-8 sequence', () => {
    expect(snapshots(['["a\\', 'u00', 'e9', 'b\\', 'n"]'])).toEqual([['a'], ['a'], ['aé'], ['aéb'], ['aéb\n']]);
    expect(snapshots(['["\\ud83d', '\\ude00', '"]'])).toEqual([[''], ['😀'], ['😀']]);
    expect(snapshots(['["\ud83d', '\ude00"]'])).toEqual([[''], ['😀']]);
    // A lone high-surrogate escape shows once the next character says no low half follows.
    expect(snapshots(['["\\ud83d', '\\', 'n"]'])).toEqual([[''], [''], ['\ud83d\n']]);
    const parser = createPartialParser();
    const euro = new TextEncoder().encode('["€"]');
    expect([parser.push(euro.subarray(0, 3)), parser.push(euro.subarray(3, 4)), parser.push(euro.subarray(4))]).toEqual(
      [[''], [''], ['€']],
    );
  });

  test('numbers once complete; true, false and null once whole; no placeholders, no invented keys', () => {
    expect(snapshots(['{"n":87', '9.6', '8,"b":tr', 'ue,"c":n', 'ull}'])).toEqual([
      {},
      {},
      { n: 879.68 },
      { n: 879.68, b: true },
      { n: 879.68, b: true, c: null },
    ]);
    expect(snapshots(['{"a', '":', ' ', '"', 'x'])).toEqual([{}, {}, {}, { a: '' }, { a: 'x' }]);
    expect(snapshots(['[1', ',', '2', ']'])).toEqual([[], [1], [1], [1, 2]]);
    expect(snapshots(['{"a":{', '"b":[', '{'])).toEqual([{ a: {} }, { a: { b: [] } }, { a: { b: [{}] } }]);
  });

  test("numbers: 'partial' shows the longest prefix that is a number, and keeps it a number", () => {
    const options = { numbers: 'partial' } as const;
    expect(snapshots(['[-', '1', '.', '5', 'e', '-', '3', ']'], options)).toEqual([
      [],
      [-1],
      [-1],
      [-1.5],
      [-1.5],
      [-1.5],
      [-0.0015],
      [-0.0015],
    ]);
    expect(snapshots(['{"n":87', '9.6', '8}'], options)).toEqual([{ n: 87 }, { n: 879.6 }, { n: 879.68 }]);
    const parser = createPartialParser(options);
    parser.push('4');
    expect(parser.value).toBe(4);
    expect(parser.end()).toBe(4);
  });

  test('duplicate keys: the last value wins, in the place of the first, as in JSON.parse', () => {
    const parser = createPartialParser();
    parser.push('{"a":1,"b":2,"a":"x');
    expect(Object.entries(parser.value as object)).toEqual([
      ['a', 'x'],
      ['b', 2],
    ]);
    expect(parser.push('"}')).toEqual(JSON.parse('{"a":1,"b":2,"a":"x"}'));
  });

  test('__proto__ is an own key, as in JSON.parse', () => {
    const parser = createPartialParser();
    const value = parser.push('{"__proto__":{"polluted":true},"x":"') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('pending: the path of the innermost value still being written', () => {
    const parser = createPartialParser();
    const paths: unknown[] = [parser.pending];
    for (const chunk of ['{"a"', ':', '[1,', '{"b":"x', '"}', ']', ',"c":4', '2', '}']) {
      parser.push(chunk);
      paths.push(parser.pending);
    }
    expect(paths).toEqual([null, [], [], ['a'], ['a', 1, 'b'], ['a'], [], ['c'], ['c'], null]);
    parser.end();
    expect(parser.pending).toBeNull();
  });
});

describe('end(), misuse and options', () => {
  test('end() returns the final value; after it, push() and end() throw', () => {
    const parser = createPartialParser();
    parser.push('{"a":[1,2]}');
    expect(parser.end()).toEqual({ a: [1, 2] });
    expect(() => parser.push('1')).toThrow(new TypeError('parser.push(): the parser was closed by end()'));
    expect(() => parser.end()).toThrow(new TypeError('parser.end(): the parser was closed by end()'));
  });

  test('chunks: strings, Uint8Array, ArrayBuffer; anything else is a TypeError', () => {
    const parser = createPartialParser();
    parser.push('[1,');
    parser.push(new TextEncoder().encode('2,'));
    parser.push(new TextEncoder().encode('3]').buffer as ArrayBuffer);
    expect(parser.end()).toEqual([1, 2, 3]);
    expect(() => createPartialParser().push(42 as unknown as string)).toThrow(TypeError);
  });

  test('options are validated at once, with the messages of the other parsers', () => {
    expect(() => createPartialParser({ maxDepth: 0 })).toThrow(
      'options.maxDepth must be an integer from 1 to 1000000, got 0',
    );
    expect(() => createPartialParser({ maxElementBytes: 1.5 })).toThrow(TypeError);
    expect(() => createPartialParser({ numbers: 'some' as 'partial' })).toThrow(
      "options.numbers must be 'complete' or 'partial', got \"some\"",
    );
    expect(() => createPartialParser(null as unknown as object)).toThrow('options must be an object, got null');
    expect(() => partialJson('[]', { maxDepth: -1 })).toThrow(TypeError);
  });
});

describe('partialJson', () => {
  const text = '{"title":"Hello","items":[1,2,3],"done":true}';
  const chunks = ['{"title":"He', 'llo",', '"items":[1,', '2,3]', ',"done":tr', 'ue}'];

  test.each([
    ['a string', () => text],
    ['a Uint8Array', () => new TextEncoder().encode(text)],
    ['an AsyncIterable of strings', () => asyncIterableOf(chunks)],
    ['an AsyncIterable of bytes', () => asyncIterableOf(chunks.map((c) => new TextEncoder().encode(c)))],
    ['a ReadableStream', () => countingSource(chunks).stream],
    ['a Response', () => new Response(text)],
  ])('from %s: the last snapshot is the final value', async (_, source) => {
    const { values, error } = await collect(partialJson(source()));
    expect(error).toBeUndefined();
    expect(values.at(-1)).toEqual(JSON.parse(text));
  });

  test('one snapshot per chunk that changed the value', async () => {
    const source = asyncIterableOf(['{"a"', ':', '"x', '"', ' ', ',"n":1', '2}']);
    const { values } = await collect(partialJson(source));
    expect(values).toEqual([{}, { a: 'x' }, { a: 'x', n: 12 }]);
  });

  test('breaking out of the loop cancels the source', async () => {
    const source = countingSource(chunks);
    for await (const snapshot of partialJson(source.stream)) {
      if ((snapshot as { title?: string }).title === 'Hello') break;
    }
    expect(source.cancelled).toBe(true);
    expect(source.pulls).toBe(2);
  });

  test('an error comes after the snapshots before it, the last one of the text just before the error', async () => {
    const { values, error } = await collect(partialJson(asyncIterableOf(['[1,', '2', ' x'])));
    expect(values).toEqual([[1], [1, 2]]);
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect(error).toMatchObject({ code: 'EXPECTED_COMMA_OR_BRACKET', offset: 5 });
    const truncated = await collect(partialJson(null));
    expect(truncated.error).toMatchObject({ code: 'UNEXPECTED_END', offset: 0 });
  });

  test('a source of another type, or a locked stream, is a TypeError at the call', () => {
    expect(() => partialJson(42 as unknown as string)).toThrow(/^partialJson\(\): source must be /);
    const stream = countingSource(chunks).stream;
    stream.getReader();
    expect(() => partialJson(stream)).toThrow(TypeError);
  });
});
