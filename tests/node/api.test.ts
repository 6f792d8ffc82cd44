// The public API option by option, source by source, and its errors: what README.md promises, asserted exactly.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import {
  createParser,
  JsonArrayStream,
  JsonLimitError,
  JsonSyntaxError,
  lazyParse,
  openJson,
  parseJsonArray,
} from '../../dist/index.js';
// @ts-expect-error errorFromStatus is @internal: stripped from the shipped .d.ts, tested here all the same.
import { errorFromStatus } from '../../dist/errors.js';
import { firstDifference } from '../support/deep_equal.mjs';
import {
  lineAndColumn,
  parseChunks,
  splitAt,
  type Chunk,
  type ErrorInfo,
  type ParserOptions,
} from '../support/feed.js';
import { asyncIterableOf, collect, collectStream } from '../support/sources.js';

const encoder = new TextEncoder();
const values = (input: Chunk | Chunk[], options?: ParserOptions) => {
  const outcome = parseChunks(Array.isArray(input) ? input : [input], options);
  if (outcome.error) throw new Error(`unexpected ${outcome.error.code} at ${outcome.error.offset}`);
  return outcome.values;
};
const errorOf = (input: Chunk | Chunk[], options?: ParserOptions): ErrorInfo => {
  const outcome = parseChunks(Array.isArray(input) ? input : [input], options);
  if (outcome.error === null) throw new Error(`accepted: ${JSON.stringify(outcome.values)}`);
  return outcome.error;
};

describe('path', () => {
  const doc = '{"name":[1,{"b":2}],"other":{"b":3,"c":[4,5]},"a\\"b":[6],"it\'s":7,"":[8]}';

  test.each([
    ['$', [JSON.parse(doc)]],
    ['$.name', [[1, { b: 2 }]]],
    ['$.name[*]', [1, { b: 2 }]],
    ["$['name'][*]", [1, { b: 2 }]],
    ['$["name"][*]', [1, { b: 2 }]],
    ['$["a\\"b"][*]', [6]],
    ["$['it\\'s']", [7]],
    ['$[""][*]', [8]],
    ['$.*', [[1, { b: 2 }], { b: 3, c: [4, 5] }, [6], 7, [8]]],
    ['$[*]', [[1, { b: 2 }], { b: 3, c: [4, 5] }, [6], 7, [8]]],
    ['$.other.*', [3, [4, 5]]],
    ['$.*[*]', [1, { b: 2 }, 3, [4, 5], 6, 8]],
    ['$.name[1].b', [2]],
    ['$.other.c[1]', [5]],
    ['$.name[2]', []],
    ['$.missing[*]', []],
    ['$.*.b', [3]],
  ])('%s', (path, expected) => {
    expect(firstDifference(values(doc, { path }), expected)).toBeNull();
  });

  test('[*] and .* select array elements and object members alike', () => {
    expect(values('[[1,2],{"a":3,"b":4}]', { path: '$[*].*' })).toEqual([1, 2, 3, 4]);
    expect(values('[[1,2],{"a":3,"b":4}]', { path: '$.*[*]' })).toEqual([1, 2, 3, 4]);
  });

  test('member names compare after unescaping, on both sides', () => {
    expect(values('{"\\u0061":[1],"\\ud83d\\ude00":[2],"é":[3]}', { path: '$.a[*]' })).toEqual([1]);
    expect(values('{"\\u0061":[1],"\\ud83d\\ude00":[2],"é":[3]}', { path: '$["\\ud83d\\ude00"][*]' })).toEqual([2]);
    expect(values('{"\\u0061":[1],"\\ud83d\\ude00":[2],"\\u00e9":[3]}', { path: '$.é[*]' })).toEqual([3]);
  });

  test('[N] selects by position, over any chunking', () => {
    const text = '[' + Array.from({ length: 300 }, (_, i) => `{"i":${i}}`).join(',') + ']';
    for (const at of [0, 1, 100, 1000, text.length - 1]) {
      expect(values(splitAt(encoder.encode(text), at), { path: '$[257].i' })).toEqual([257]);
    }
  });

  test('a path that matches nothing gives no elements, and still validates everything', () => {
    expect(values('{"a":[1]}', { path: '$.b[*]' })).toEqual([]);
    expect(errorOf('{"a":[1,]}', { path: '$.b[*]' }).code).toBe('EXPECTED_VALUE');
  });

  test.each([
    '',
    'a',
    '$.',
    '$[',
    '$[*',
    '$..a',
    '$..[?(@.a)]',
    '$[1:2',
    "$['a','b'][1,0]",
    '$[-1, 0].a',
    '$[a]',
    '$["unterminated]',
    '$.a b',
    '$.a.',
    '[*]',
    '$$',
  ])('invalid path %j is rejected when the parser is created', (path) => {
    expect(() => createParser({ path })).toThrow(TypeError);
    expect(() => createParser({ paths: ['$[*]', path] })).toThrow(TypeError);
  });
});

describe('paths and withPath', () => {
  test('paths emits { path, key, value } naming the selector that matched, in document order', () => {
    const doc = '{"a":[1,2],"b":"x","c":{"d":[3]}}';
    const out = values(doc, { paths: ['$.c.d[*]', '$.a[*]', '$.b'] });
    expect(out).toEqual([
      { path: '$.a[*]', key: 0, value: 1 },
      { path: '$.a[*]', key: 1, value: 2 },
      { path: '$.b', key: 'b', value: 'x' },
      { path: '$.c.d[*]', key: 0, value: 3 },
    ]);
  });

  test('keys: array index, member name with escapes decoded, null for the root', () => {
    const doc = '{"a\\"b":1,"\\u00e9\\n":2,"\\ud83d\\ude00":3,"__proto__":4,"\\ud800":5}';
    expect(values(doc, { path: '$.*', withPath: true }).map((item) => (item as { key: unknown }).key)).toEqual([
      'a"b',
      'é\n',
      '😀',
      '__proto__',
      '\ud800',
    ]);
    expect(values('[7,8]', { path: '$[*]', withPath: true })).toEqual([
      { path: '$[*]', key: 0, value: 7 },
      { path: '$[*]', key: 1, value: 8 },
    ]);
    expect(values('[7,8]', { path: '$', withPath: true })).toEqual([{ path: '$', key: null, value: [7, 8] }]);
    expect(values('{"a":[5,6]}', { path: '$.a[1]', withPath: true })).toEqual([{ path: '$.a[1]', key: 1, value: 6 }]);
  });

  test('the default path is reported as $[*] ($ with ndjson)', () => {
    expect(values('[1]', { withPath: true })).toEqual([{ path: '$[*]', key: 0, value: 1 }]);
    expect(values('1 2', { ndjson: true, withPath: true })).toEqual([
      { path: '$', key: 0, value: 1 },
      { path: '$', key: 1, value: 2 },
    ]);
  });

  test('withPath carries the chosen output form', () => {
    expect(values('[[1, 2]]', { withPath: true, output: 'text' })).toEqual([{ path: '$[*]', key: 0, value: '[1, 2]' }]);
    const [item] = values('[[1, 2]]', { withPath: true, output: 'bytes' }) as { value: Uint8Array }[];
    expect(item.value).toEqual(encoder.encode('[1, 2]'));
  });
});

describe('output', () => {
  const doc = '[ {"a" : "\\u0041\\n"} ,\t-0 , "é😀", 1E+2 ]';
  const sources = ['{"a" : "\\u0041\\n"}', '-0', '"é😀"', '1E+2'];

  test('value is what JSON.parse gives for each element', () => {
    expect(
      firstDifference(
        values(doc),
        sources.map((text) => JSON.parse(text)),
      ),
    ).toBeNull();
  });

  test('text is the exact source text of each element', () => {
    expect(values(doc, { output: 'text' })).toEqual(sources);
  });

  test('bytes are the exact source bytes of each element, as Uint8Array copies', () => {
    const parser = createParser({ output: 'bytes' });
    const first = parser.push(encoder.encode(doc.slice(0, 24))) as Uint8Array[];
    expect(first).toEqual([encoder.encode(sources[0])]);
    // Later input (which overwrites the input window and grows memory) must not change what was handed out.
    const big = ',"' + 'x'.repeat(1 << 20) + '"]';
    const rest = parser.push(encoder.encode(doc.slice(24, -1) + big)) as Uint8Array[];
    parser.end();
    expect(first[0]).toEqual(encoder.encode(sources[0]));
    expect(first[0]).toBeInstanceOf(Uint8Array);
    expect(rest.slice(0, 3)).toEqual(sources.slice(1).map((text) => encoder.encode(text)));
    expect(rest[3].length).toBe((1 << 20) + 2);
  });

  // A string chunk is read as its UTF-8, as TextEncoder writes it: a raw lone surrogate has no UTF-8 form and
  // becomes U+FFFD (JSON.parse keeps it; checking every string chunk for one would cost a second pass over it).
  // An escaped one (`\ud800`) is kept, and a pair split across chunks is joined.
  test('a raw lone surrogate in a string chunk is read as U+FFFD; escaped, or a split pair, it is kept', async () => {
    expect(values('["a\ud800b","\udc00"]')).toEqual(['a\ufffdb', '\ufffd']);
    expect(values(['["a\ud83d', '\ude00b"]'])).toEqual(['a\ud83d\ude00b']);
    expect(values('["a\\ud800b"]')).toEqual(['a\ud800b']);
    expect((lazyParse('["a\ud800b"]') as string[])[0]).toBe('a\ufffdb');
    expect(await openJson('{"s":"a\ud800b"}').get('$.s')).toBe('a\ufffdb');
  });
});

describe('reviver', () => {
  test('each element equals JSON.parse of its text with the same reviver, with the same calls', () => {
    const doc = '[{"a":1,"b":[2,3],"drop":4},5,"s",{"nested":{"x":6}}]';
    const texts = values(doc, { output: 'text' }) as string[];
    const calls: unknown[][] = [];
    const reviver = function (this: unknown, key: string, value: unknown) {
      calls.push([key, JSON.stringify(value), JSON.stringify(this)]);
      if (key === 'drop') return undefined;
      return typeof value === 'number' ? value * 10 : value;
    };
    const got = values(doc, { reviver });
    const gotCalls = calls.splice(0);
    const expected = texts.map((text) => JSON.parse(text, reviver));
    expect(firstDifference(got, expected)).toBeNull();
    expect(gotCalls).toEqual(calls);
  });

  test('is rejected with bytes and text output', () => {
    expect(() => createParser({ output: 'bytes', reviver: (_k: string, v: unknown) => v } as ParserOptions)).toThrow(
      TypeError,
    );
    expect(() => createParser({ output: 'text', reviver: (_k: string, v: unknown) => v } as ParserOptions)).toThrow(
      TypeError,
    );
  });
});

describe('ndjson', () => {
  test.each([
    ['newline-delimited', '{"a":1}\n{"b":2}\n[3]\n', [{ a: 1 }, { b: 2 }, [3]]],
    ['without a final newline', '{"a":1}\n2', [{ a: 1 }, 2]],
    ['concatenated', '{}{}[]"s"[1]', [{}, {}, [], 's', [1]]],
    ['blank lines', '\n\n{}\n\n\n[]\n\n', [{}, []]],
    ['CRLF', '{"a":1}\r\n{"b":2}\r\n\r\n', [{ a: 1 }, { b: 2 }]],
    ['scalars separated by whitespace', '1 2\t3\n-4 "x" true null', [1, 2, 3, -4, 'x', true, null]],
    ['empty input', '', []],
    ['whitespace only', ' \n\r\n\t', []],
  ])('%s', (_, text, expected) => {
    expect(values(text, { ndjson: true })).toEqual(expected);
    // Chunking cannot change where one value ends and the next begins.
    for (let at = 0; at <= text.length; at++) {
      expect(values(splitAt(encoder.encode(text), at), { ndjson: true })).toEqual(expected);
    }
  });

  test('a path selects inside each value', () => {
    expect(values('{"a":[1,2]}\n{"b":0}\n{"a":[3]}', { ndjson: true, path: '$.a[*]' })).toEqual([1, 2, 3]);
  });

  test('a bad line fails after the good ones are delivered', () => {
    expect(parseChunks(['{"a":1}\n{]\n'], { ndjson: true })).toEqual({
      values: [{ a: 1 }],
      error: { name: 'JsonSyntaxError', code: 'EXPECTED_KEY', offset: 9, line: 2, column: 2 },
    });
  });

  test('without ndjson, a second value is trailing data', () => {
    expect(errorOf('{}\n{}', { path: '$' })).toMatchObject({ code: 'TRAILING_DATA', offset: 3 });
  });
});

describe('byte order mark', () => {
  test('is skipped at the very start, as bytes, as a string, or split across chunks', () => {
    expect(values(Uint8Array.of(0xef, 0xbb, 0xbf, 0x5b, 0x31, 0x5d))).toEqual([1]);
    expect(values('\ufeff[1]')).toEqual([1]);
    expect(values([Uint8Array.of(0xef), Uint8Array.of(0xbb), Uint8Array.of(0xbf, 0x5b, 0x31, 0x5d)])).toEqual([1]);
    expect(values('\ufeff{"a":1}\n{"b":2}', { ndjson: true })).toEqual([{ a: 1 }, { b: 2 }]);
  });

  test('still counts in error offsets', () => {
    expect(errorOf('\ufeff[1,]')).toMatchObject({ code: 'EXPECTED_VALUE', offset: 6, line: 1, column: 7 });
  });

  test.each([
    ['after whitespace', ' \ufeff[1]'],
    ['inside an array', '[\ufeff1]'],
    ['twice', '\ufeff\ufeff[1]'],
    ['before a later NDJSON value', '{}\n\ufeff{}'],
  ])('is rejected %s', (_, text) => {
    expect(errorOf(text, { ndjson: text.includes('\n') }).name).toBe('JsonSyntaxError');
  });
});

describe('limits', () => {
  const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

  test('maxDepth allows exactly that many nested containers', () => {
    expect(values(nested(3), { path: '$', maxDepth: 3 })).toEqual([[[[]]]]);
    expect(errorOf(nested(4), { path: '$', maxDepth: 3 })).toEqual({
      name: 'JsonLimitError',
      code: 'DEPTH_LIMIT',
      offset: 3,
      line: 1,
      column: 4,
    });
    expect(errorOf('{"a":{"b":[]}}', { path: '$', maxDepth: 2 })).toMatchObject({ code: 'DEPTH_LIMIT', offset: 10 });
  });

  test('the default maxDepth is 1024', () => {
    expect(parseChunks([nested(1024)], { path: '$' }).error).toBeNull();
    expect(errorOf(nested(1025), { path: '$' })).toMatchObject({
      name: 'JsonLimitError',
      code: 'DEPTH_LIMIT',
      offset: 1024,
    });
  });

  test('a depth error is a JsonLimitError (a RangeError) with the message naming the limit', () => {
    const parser = createParser({ maxDepth: 2 });
    expect(() => parser.push('[[[')).toThrow(JsonLimitError);
    expect(() => createParser({ maxDepth: 1 }).push('[[')).toThrow(RangeError);
    expect(() => createParser({ maxDepth: 1 }).push('[[')).toThrow(/maxDepth/);
  });

  test('maxElementBytes: an element of exactly the limit passes, one byte more fails after the earlier ones', () => {
    expect(values('[1,"abcdefgh",2]', { maxElementBytes: 10 })).toEqual([1, 'abcdefgh', 2]);
    const outcome = parseChunks(['[1,"abcdefghi",2]'], { maxElementBytes: 10 });
    expect(outcome.values).toEqual([1]);
    expect(outcome.error).toMatchObject({ name: 'JsonLimitError', code: 'ELEMENT_TOO_LARGE' });
    // Reported inside the element: somewhere from its first byte to the byte that broke the limit.
    expect(outcome.error!.offset).toBeGreaterThanOrEqual(3);
    expect(outcome.error!.offset).toBeLessThanOrEqual(14);
  });

  test('an element that would complete after a limit error is not delivered, whatever the chunking', () => {
    // `[4]` (selected by $[1]) passes the 1-byte limit at its second byte, offset 4; `4` (selected by $[*][*])
    // would complete only at the `]` after that.
    const bytes = encoder.encode('[0,[4]]');
    const options = { paths: ['$[*][*]', '$[1]'], maxElementBytes: 1 };
    const expected = {
      values: [],
      error: { name: 'JsonLimitError', code: 'ELEMENT_TOO_LARGE', offset: 4, line: 1, column: 5 },
    };
    for (let at = 0; at <= bytes.length; at++)
      expect(parseChunks(splitAt(bytes, at), options), `split at ${at}`).toEqual(expected);
    expect(parseChunks([bytes], options)).toEqual(expected);
  });

  test('maxElementBytes holds whatever the chunking, and for an element spanning many chunks', () => {
    const text = '[' + '"' + 'x'.repeat(5000) + '"' + ']';
    const chunks = Array.from({ length: Math.ceil(text.length / 7) }, (_, i) => text.slice(i * 7, i * 7 + 7));
    expect(parseChunks(chunks, { maxElementBytes: 5001 }).error).toMatchObject({ code: 'ELEMENT_TOO_LARGE' });
    expect(parseChunks(chunks, { maxElementBytes: 5002 }).error).toBeNull();
  });
});

describe('TypeError (every message: tests/node/misuse.test.ts)', () => {
  test('not for a Node Buffer, which is a Uint8Array', () => {
    expect(values(Buffer.from('[1,2]'))).toEqual([1, 2]);
  });
});

// Exact code and position for each kind of error. Positions are absolute and count bytes: the offset of the
// offending byte (the input's length when it ended too early), its 1-based line, its 1-based column in bytes.
const ERRORS: [string, string, number, ParserOptions?][] = [
  ['[1,]', 'EXPECTED_VALUE', 3],
  [']', 'EXPECTED_VALUE', 0],
  ['{"a":}', 'EXPECTED_VALUE', 5],
  ['[1 2]', 'EXPECTED_COMMA_OR_BRACKET', 3],
  ['[1}', 'EXPECTED_COMMA_OR_BRACKET', 2],
  ['{"a":1 "b":2}', 'EXPECTED_COMMA_OR_BRACE', 7],
  ['{"a":1]', 'EXPECTED_COMMA_OR_BRACE', 6],
  ['{,}', 'EXPECTED_KEY', 1],
  ['{"a":1,}', 'EXPECTED_KEY', 7],
  ['{1:2}', 'EXPECTED_KEY', 1],
  ['{"a" 1}', 'EXPECTED_COLON', 5],
  ['{"a",1}', 'EXPECTED_COLON', 4],
  ['[] []', 'TRAILING_DATA', 3, { path: '$' }],
  ['{}x', 'TRAILING_DATA', 2, { path: '$' }],
  ['[01]', 'INVALID_NUMBER', 2],
  ['[1.]', 'INVALID_NUMBER', 3],
  ['[-]', 'INVALID_NUMBER', 2],
  ['[1e]', 'INVALID_NUMBER', 3],
  ['[1.5x]', 'INVALID_NUMBER', 4],
  ['[tru]', 'INVALID_LITERAL', 4],
  ['[nulll]', 'INVALID_LITERAL', 5],
  ['["a\tb"]', 'CONTROL_CHARACTER', 3],
  ['["a\nb"]', 'CONTROL_CHARACTER', 3],
  ['["\\x"]', 'INVALID_ESCAPE', 3],
  ['["\\u12G4"]', 'INVALID_UNICODE_ESCAPE', 6],
  ['["\\u12"]', 'INVALID_UNICODE_ESCAPE', 6],
  ['[1,2', 'UNEXPECTED_END', 4],
  ['', 'UNEXPECTED_END', 0, { path: '$' }],
  ['  \n ', 'UNEXPECTED_END', 4, { path: '$' }],
  ['["abc', 'UNEXPECTED_END', 5],
  ['{"a":1', 'UNEXPECTED_END', 6],
  ['[\n  1,\n  2\n  3]', 'EXPECTED_COMMA_OR_BRACKET', 13],
  ['[\r\n1 2]', 'EXPECTED_COMMA_OR_BRACKET', 5],
  ['{\n"a":\n[1,\n2,\n]}', 'EXPECTED_VALUE', 14],
];

describe('errors: code, offset, line and column', () => {
  test.each(ERRORS)('%j: %s at %i', (text, code, offset, options) => {
    const bytes = encoder.encode(text);
    const expected = { name: 'JsonSyntaxError', code, offset, ...lineAndColumn(bytes, offset) };
    expect(errorOf(bytes, options)).toEqual(expected);
    // The same position whatever the chunking: positions are absolute, never relative to a chunk.
    for (let at = 0; at <= bytes.length; at++) expect(errorOf(splitAt(bytes, at), options)).toEqual(expected);
  });

  // The offset is that of the first byte that cannot continue valid UTF-8: a lead byte that is never valid, or
  // the continuation byte that breaks a sequence (ED A0 would start a surrogate, F4 90 exceed U+10FFFF).
  test.each([
    ['an overlong lead byte', [0x5b, 0x22, 0xc0, 0xaf, 0x22, 0x5d], 2],
    ['an encoded surrogate', [0x5b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d], 3],
    ['a code point above U+10FFFF', [0x5b, 0x22, 0xf4, 0x90, 0x80, 0x80, 0x22, 0x5d], 3],
    ['a lone continuation byte', [0x5b, 0x22, 0x80, 0x22, 0x5d], 2],
    ['FF', [0x5b, 0x22, 0x61, 0xff, 0x22, 0x5d], 3],
    ['a sequence cut short by the closing quote', [0x5b, 0x22, 0xe2, 0x82, 0x22, 0x5d], 4],
  ] as [string, number[], number][])('invalid UTF-8: %s', (_, bytes, offset) => {
    const input = Uint8Array.from(bytes);
    const expected = { name: 'JsonSyntaxError', code: 'INVALID_UTF8', offset, ...lineAndColumn(input, offset) };
    expect(errorOf(input)).toEqual(expected);
    for (let at = 0; at <= input.length; at++) expect(errorOf(splitAt(input, at))).toEqual(expected);
  });

  // Text dense in non-ASCII characters is checked a 64-byte block at a time (SIMD128 build): a never-valid lead
  // in a block's last byte has nothing after it in the block to betray it. It once slipped through before a
  // closing quote; here it sits at every position around the first block edges, before a quote and before text.
  test.each([0xc0, 0xc1, 0xf5, 0xff])('invalid UTF-8: a never-valid lead (byte %i) ending a dense block', (lead) => {
    const dense = (n: number) => Array.from({ length: n }, (_, i) => [0xe4, 0xb8, 0xad][i % 3]!);
    for (let at = 56; at <= 132; at++) {
      for (const after of [
        [0x22, 0x5d],
        [0xe4, 0xb8, 0xad, 0x22, 0x5d],
      ]) {
        // `[` `"` then `at - 2` bytes of text (whole characters first, then ASCII to reach the position).
        const text = dense(Math.floor((at - 2) / 3) * 3);
        const pad = new Array<number>(at - 2 - text.length).fill(0x61);
        const input = Uint8Array.from([0x5b, 0x22, ...text, ...pad, lead, ...after]);
        expect(errorOf(input)).toMatchObject({ name: 'JsonSyntaxError', code: 'INVALID_UTF8', offset: at });
      }
    }
  });

  test('invalid UTF-8: a sequence cut short by the end of input', () => {
    expect(errorOf(Uint8Array.of(0x5b, 0x22, 0xe2, 0x82)).name).toBe('JsonSyntaxError');
  });

  test('deep in the third chunk, the offset, line and column are absolute', () => {
    const line = '{"id":1,"tags":["a","b"]},\n';
    const text = '[\n' + line.repeat(200) + '{"id":2,"tags":["a" "b"]}]';
    const offset = text.indexOf('"a" "b"') + 4;
    const bytes = encoder.encode(text);
    const third = Math.floor(bytes.length / 3);
    const outcome = parseChunks([
      bytes.subarray(0, third),
      bytes.subarray(third, 2 * third),
      bytes.subarray(2 * third),
    ]);
    expect(outcome.values.length).toBe(200);
    expect(outcome.error).toEqual({
      name: 'JsonSyntaxError',
      code: 'EXPECTED_COMMA_OR_BRACKET',
      offset,
      line: 202,
      column: 21,
    });
  });

  test('the message names what, where, and the found byte', () => {
    const parser = createParser();
    // `2` ends at the `}` (a number ends at its delimiter), so it is complete before the error.
    expect(parser.push('[1,\n2}')).toEqual([1, 2]);
    expect(() => parser.end()).toThrow(
      'Cannot parse JSON: expected "," or "]" but found "}" at byte 5 (line 2, column 2)',
    );
    expect(() => createParser().end()).toThrow(/unexpected end of input at byte 0 \(line 1, column 1\)/);
  });

  test('the classes: JsonSyntaxError is a SyntaxError, JsonLimitError a RangeError', () => {
    const parser = createParser();
    let caught: unknown;
    try {
      parser.push('[,]');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JsonSyntaxError);
    expect(caught).toBeInstanceOf(SyntaxError);
    expect((caught as JsonSyntaxError).name).toBe('JsonSyntaxError');
  });
});

describe('elements completed before an error are delivered first', () => {
  const text = '[1,{"a":2},"three",[4],]';
  const expected = [1, { a: 2 }, 'three', [4]];

  test('createParser: push returns them, the next call throws', () => {
    const parser = createParser();
    expect(parser.push(text)).toEqual(expected);
    expect(() => parser.end()).toThrow(JsonSyntaxError);

    const again = createParser();
    expect(again.push(text)).toEqual(expected);
    expect(() => again.push('1')).toThrow(JsonSyntaxError);
  });

  test('createParser: an error with nothing before it throws at once, and again on every later call', () => {
    const parser = createParser();
    expect(() => parser.push('[,')).toThrow(JsonSyntaxError);
    expect(() => parser.push('1')).toThrow(JsonSyntaxError);
    expect(() => parser.end()).toThrow(JsonSyntaxError);
  });

  test('parseJsonArray', async () => {
    const { values: got, error } = await collect(parseJsonArray(asyncIterableOf([text.slice(0, 10), text.slice(10)])));
    expect(got).toEqual(expected);
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect((error as JsonSyntaxError).offset).toBe(text.length - 1);
  });

  test('JsonArrayStream', async () => {
    const { values: got, error } = await collectStream(new Response(text).body!.pipeThrough(new JsonArrayStream()));
    expect(got).toEqual(expected);
    expect(error).toBeInstanceOf(JsonSyntaxError);
  });
});

describe('createParser: push and end', () => {
  test('push returns the elements each chunk completes; end those completed by the end of input', () => {
    const parser = createParser();
    expect(parser.push('[1')).toEqual([]);
    expect(parser.push('2,3')).toEqual([12]);
    expect(parser.push('4,')).toEqual([34]);
    expect(parser.push('')).toEqual([]);
    expect(parser.push(new Uint8Array(0))).toEqual([]);
    expect(parser.push('5]')).toEqual([5]);
    expect(parser.end()).toEqual([]);
  });

  test('a root number completes only at the end of input', () => {
    const parser = createParser({ path: '$' });
    expect(parser.push('12')).toEqual([]);
    expect(parser.push('3')).toEqual([]);
    expect(parser.end()).toEqual([123]);
  });

  test('end reports truncated input', () => {
    const parser = createParser();
    expect(parser.push('[1,2')).toEqual([1]);
    expect(() => parser.end()).toThrow(expect.objectContaining({ code: 'UNEXPECTED_END', offset: 4 }));
  });

  test('the parser cannot be used after end or close; close is idempotent', () => {
    const ended = createParser();
    ended.push('[]');
    ended.end();
    expect(() => ended.push('[]')).toThrow(TypeError);
    expect(() => ended.end()).toThrow(TypeError);
    ended.close();

    const closed = createParser();
    closed.push('[1,');
    closed.close();
    closed.close();
    expect(() => closed.push('2]')).toThrow(TypeError);
  });

  test('string and byte chunks mix, and a character may be split between byte chunks', () => {
    const bytes = encoder.encode('"😀é"]');
    const parser = createParser();
    const out = [
      ...parser.push('['),
      ...parser.push(bytes.subarray(0, 2)),
      ...parser.push(bytes.subarray(2, 4)),
      ...parser.push(bytes.subarray(4)),
      ...parser.end(),
    ];
    expect(out).toEqual(['😀é']);
  });
});

describe('sources', () => {
  const text = '{"data":[{"id":1},{"id":"é😀"},{"id":[3]}]}';
  const expected = [{ id: 1 }, { id: 'é😀' }, { id: [3] }];
  const bytes = encoder.encode(text);
  const pieces = [bytes.subarray(0, 13), bytes.subarray(13, 27), bytes.subarray(27)];
  const options = { path: '$.data[*]' };

  test.each([
    ['a string', () => text],
    ['a Uint8Array', () => bytes],
    ['a ReadableStream of Uint8Array', () => new Blob([bytes]).stream()],
    ['a Response', () => new Response(text)],
    ['an async iterable of strings', () => asyncIterableOf([text.slice(0, 20), text.slice(20)])],
    ['an async iterable of Uint8Array split inside a character', () => asyncIterableOf(pieces)],
    ['an async iterable mixing both', () => asyncIterableOf<Chunk>([text.slice(0, 13), pieces[1], pieces[2]])],
    ['a Node Readable', () => Readable.from(pieces.map((piece) => Buffer.from(piece)))],
  ])('parseJsonArray from %s', async (_, source) => {
    const { values: got, error } = await collect(
      parseJsonArray(source() as Parameters<typeof parseJsonArray>[0], options),
    );
    expect(error).toBeUndefined();
    expect(got).toEqual(expected);
  });

  test('JsonArrayStream from a fetch-like body, in every output', async () => {
    const got = await collectStream(new Response(text).body!.pipeThrough(new JsonArrayStream(options)));
    expect(got).toEqual({ values: expected, error: undefined });
    const texts = await collectStream(
      new Response(text).body!.pipeThrough(new JsonArrayStream({ ...options, output: 'text' })),
    );
    expect(texts.values).toEqual(['{"id":1}', '{"id":"é😀"}', '{"id":[3]}']);
    const raw = await collectStream(
      new Response(text).body!.pipeThrough(new JsonArrayStream({ ...options, output: 'bytes' })),
    );
    expect(raw.values).toEqual(texts.values.map((item) => encoder.encode(item as string)));
  });

  test('JsonArrayStream takes string chunks', async () => {
    const stream = new JsonArrayStream(options);
    const writer = stream.writable.getWriter();
    const done = collectStream(stream.readable);
    await Promise.all([writer.write(text.slice(0, 9)), writer.write(text.slice(9)), writer.close()]);
    expect((await done).values).toEqual(expected);
  });

  test('an empty source is truncated input', async () => {
    const { error } = await collect(parseJsonArray(new Response('')));
    expect(error).toMatchObject({ code: 'UNEXPECTED_END', offset: 0 });
  });
});

describe('native status codes', () => {
  // Every error_code of src/sluice/error.h (the binding contract) maps to its JS class and code: a status the JS
  // side did not know (OUT_OF_MEMORY once was) would surface as a plain "unknown native status" Error.
  const header = readFileSync(new URL('../../src/sluice/error.h', import.meta.url), 'utf8');
  const native = [...header.matchAll(/^\s+([a-z0-9_]+) = (\d+),/gm)].map((m) => ({
    name: m[1]!,
    status: Number(m[2]),
  }));
  const limitCodes = new Set(['DEPTH_LIMIT', 'ELEMENT_TOO_LARGE', 'OUT_OF_MEMORY']);

  test('the header lists 17 codes, numbered in order', () => {
    expect(native.map((c) => c.status)).toEqual([...Array(17).keys()]);
  });

  test.each(native.filter((c) => c.status !== 0))('status $status ($name)', ({ name, status }) => {
    const error = errorFromStatus(status, 0x41, { offset: 7, line: 2, column: 3 }, { maxDepth: 4, maxElementBytes: 9 });
    const code = name.toUpperCase();
    expect(error).toBeInstanceOf(limitCodes.has(code) ? JsonLimitError : JsonSyntaxError);
    expect(error).toMatchObject({ code, offset: 7, line: 2, column: 3 });
    expect(error.message).toContain('at byte 7 (line 2, column 3)');
  });
});
