// Errors as users catch them: the class chain (JsonSyntaxError is a SyntaxError, JsonLimitError a RangeError),
// the exact code and absolute position whatever the chunking, the message, TypeErrors for wrong input, and the
// elements completed before an error delivered first.
import { createParser, JsonLimitError, JsonSyntaxError, parseJsonArray } from '../../../dist/index.js';
import { lineAndColumn, parseChunks, splitAt, type ParserOptions } from '../../support/feed.ts';
import { asyncIterableOf, collect } from '../../support/sources.ts';
import { assert, assertEqual, assertThrows, group, test } from '../harness.ts';

const encoder = new TextEncoder();

const ERRORS: [string, string, number, ParserOptions?][] = [
  ['[1,]', 'EXPECTED_VALUE', 3],
  ['[1 2]', 'EXPECTED_COMMA_OR_BRACKET', 3],
  ['{"a":1 "b":2}', 'EXPECTED_COMMA_OR_BRACE', 7],
  ['{,}', 'EXPECTED_KEY', 1],
  ['{"a" 1}', 'EXPECTED_COLON', 5],
  ['[] []', 'TRAILING_DATA', 3, { path: '$' }],
  ['[01]', 'INVALID_NUMBER', 2],
  ['[tru]', 'INVALID_LITERAL', 4],
  ['["a\tb"]', 'CONTROL_CHARACTER', 3],
  ['["\\x"]', 'INVALID_ESCAPE', 3],
  ['["\\u12G4"]', 'INVALID_UNICODE_ESCAPE', 6],
  ['[1,2', 'UNEXPECTED_END', 4],
  ['{\n"a":\n[1,\n2,\n]}', 'EXPECTED_VALUE', 14],
];

group('errors', () => {
  for (const [text, code, offset, options] of ERRORS) {
    test(`${JSON.stringify(text)}: ${code} at ${offset}, whatever the chunking`, () => {
      const bytes = encoder.encode(text);
      const expected = { name: 'JsonSyntaxError', code, offset, ...lineAndColumn(bytes, offset) };
      for (let at = 0; at <= bytes.length; at++) {
        assertEqual(parseChunks(splitAt(bytes, at), options).error, expected, `split at ${at}`);
      }
    });
  }

  test('invalid UTF-8 is a JsonSyntaxError at the offending byte', () => {
    const input = Uint8Array.of(0x5b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d);
    assertEqual(parseChunks([input]).error, {
      name: 'JsonSyntaxError',
      code: 'INVALID_UTF8',
      offset: 3,
      line: 1,
      column: 4,
    });
  });

  test('classes and message', () => {
    const error = assertThrows(() => createParser().push('[,]'), JsonSyntaxError);
    assert(error instanceof SyntaxError && error instanceof Error, 'JsonSyntaxError extends SyntaxError');
    assertEqual(error.name, 'JsonSyntaxError');
    const parser = createParser();
    assertEqual(parser.push('[1,\n2}'), [1, 2]);
    const late = assertThrows(() => parser.end(), JsonSyntaxError);
    assertEqual(late.message, 'Cannot parse JSON: expected "," or "]" but found "}" at byte 5 (line 2, column 2)');
    const limit = assertThrows(() => createParser({ maxDepth: 2 }).push('[[['), JsonLimitError);
    assert(limit instanceof RangeError, 'JsonLimitError extends RangeError');
    assertEqual([limit.code, limit.offset], ['DEPTH_LIMIT', 2]);
  });

  test('limits: depth 1024 passes, 1025 fails; maxElementBytes is exact', () => {
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    assert(parseChunks([nested(1024)], { path: '$' }).error === null, '1024 levels are allowed');
    assertEqual(parseChunks([nested(1025)], { path: '$' }).error?.code, 'DEPTH_LIMIT');
    assertEqual(parseChunks(['[1,"abcdefgh",2]'], { maxElementBytes: 10 }).values, [1, 'abcdefgh', 2]);
    const over = parseChunks(['[1,"abcdefghi",2]'], { maxElementBytes: 10 });
    assertEqual([over.values, over.error?.name, over.error?.code], [[1], 'JsonLimitError', 'ELEMENT_TOO_LARGE']);
  });

  test('TypeError for a chunk of the wrong type and for invalid options', () => {
    for (const chunk of [123, null, {}, [1], new Uint16Array(2)]) {
      // Closed here: a TypeError leaves the parser usable, and one left to the FinalizationRegistry would make
      // the heap baseline of a later case depend on when the engine collects it.
      const parser = createParser();
      assertThrows(() => parser.push(chunk as unknown as Uint8Array), TypeError, `push(${String(chunk)})`);
      assertEqual(parser.push('[1]'), [1], 'the parser still works after the TypeError');
      parser.close();
    }
    for (const options of [{ path: 5 }, { output: 'json' }, { maxDepth: 0 }, { path: '$..a' }, { paths: [] }]) {
      assertThrows(() => createParser(options as ParserOptions), TypeError, JSON.stringify(options));
    }
  });

  test('elements completed before an error come first: createParser and parseJsonArray', async () => {
    const text = '[1,{"a":2},"three",[4],]';
    const expected = [1, { a: 2 }, 'three', [4]];
    const parser = createParser();
    assertEqual(parser.push(text), expected);
    assertThrows(() => parser.end(), JsonSyntaxError);
    const { values, error } = await collect(parseJsonArray(asyncIterableOf([text.slice(0, 10), text.slice(10)])));
    assertEqual(values, expected);
    assert(error instanceof JsonSyntaxError, `got ${String(error)}`);
    assertEqual(error.offset, text.length - 1);
  });
});
