// The options of the public API, each with an input whose answer is known: selectors, keys, outputs, reviver,
// NDJSON, the byte order mark and multi-byte characters split across chunks.
import { createParser, JsonArrayStream, lazyParse, parseJsonArray } from '../../../dist/index.js';
import { parseChunks, splitAt, type Chunk, type ParserOptions } from '../../support/feed.ts';
import { assert, assertEqual, assertThrows, group, test } from '../harness.ts';

const encoder = new TextEncoder();

function values(input: Chunk | Chunk[], options?: ParserOptions): unknown[] {
  const outcome = parseChunks(Array.isArray(input) ? input : [input], options);
  assert(outcome.error === null, `unexpected ${outcome.error?.code} at ${outcome.error?.offset}`);
  return outcome.values;
}

group('path', () => {
  const doc = '{"name":[1,{"b":2}],"other":{"b":3,"c":[4,5]},"a\\"b":[6],"it\'s":7,"":[8]}';
  const table: [string, unknown[]][] = [
    ['$', [JSON.parse(doc)]],
    ['$.name[*]', [1, { b: 2 }]],
    ["$['name'][*]", [1, { b: 2 }]],
    ['$["a\\"b"][*]', [6]],
    ["$['it\\'s']", [7]],
    ['$[""][*]', [8]],
    ['$.*', [[1, { b: 2 }], { b: 3, c: [4, 5] }, [6], 7, [8]]],
    ['$.*[*]', [1, { b: 2 }, 3, [4, 5], 6, 8]],
    ['$.name[1].b', [2]],
    ['$.missing[*]', []],
  ];
  for (const [path, expected] of table) {
    test(path, () => assertEqual(values(doc, { path }), expected, path));
  }

  test('member names compare after unescaping', () => {
    const text = '{"\\u0061":[1],"\\ud83d\\ude00":[2],"\\u00e9":[3]}';
    assertEqual(values(text, { path: '$.a[*]' }), [1]);
    assertEqual(values(text, { path: '$["\\ud83d\\ude00"][*]' }), [2]);
    assertEqual(values(text, { path: '$.é[*]' }), [3]);
  });
});

group('paths and withPath', () => {
  test('paths names the selector that matched, in document order', () => {
    assertEqual(values('{"a":[1,2],"b":"x","c":{"d":[3]}}', { paths: ['$.c.d[*]', '$.a[*]', '$.b'] }), [
      { path: '$.a[*]', key: 0, value: 1 },
      { path: '$.a[*]', key: 1, value: 2 },
      { path: '$.b', key: 'b', value: 'x' },
      { path: '$.c.d[*]', key: 0, value: 3 },
    ]);
  });

  test('keys have their escapes decoded, lone surrogates and __proto__ included', () => {
    const doc = '{"a\\"b":1,"\\u00e9\\n":2,"\\ud83d\\ude00":3,"__proto__":4,"\\ud800":5}';
    const keys = values(doc, { path: '$.*', withPath: true }).map((item) => (item as { key: unknown }).key);
    assertEqual(keys, ['a"b', 'é\n', '😀', '__proto__', '\ud800']);
    assertEqual(values('[7,8]', { path: '$', withPath: true }), [{ path: '$', key: null, value: [7, 8] }]);
  });
});

group('output', () => {
  const doc = '[ {"a" : "\\u0041\\n"} ,\t-0 , "é😀", 1E+2, {"__proto__":{"x":1}} ]';
  const sources = ['{"a" : "\\u0041\\n"}', '-0', '"é😀"', '1E+2', '{"__proto__":{"x":1}}'];

  test('value is what JSON.parse gives: -0, own __proto__ keys', () => {
    const got = values(doc);
    assertEqual(
      got,
      sources.map((text) => JSON.parse(text)),
    );
    assert(Object.is(got[1], -0), 'the second element is -0');
    assert(Object.getPrototypeOf(got[4]) === Object.prototype, '__proto__ stays an own key');
  });

  test('text and bytes are the exact source', () => {
    assertEqual(values(doc, { output: 'text' }), sources);
    assertEqual(
      values(doc, { output: 'bytes' }),
      sources.map((text) => encoder.encode(text)),
    );
  });

  test('bytes handed out stay intact when later input grows the wasm memory', () => {
    const parser = createParser({ output: 'bytes' });
    const first = parser.push('[[1, 2],');
    const rest = parser.push('"' + 'x'.repeat(1 << 21) + '"]');
    parser.end();
    assertEqual(first, [encoder.encode('[1, 2]')]);
    assertEqual((rest[0] as Uint8Array).length, (1 << 21) + 2);
  });
});

group('reviver', () => {
  test('each element equals JSON.parse of its text with the same reviver', () => {
    const doc = '[{"a":1,"b":[2,3],"drop":4},5,"s",{"nested":{"x":6}}]';
    const reviver = (key: string, value: unknown) => {
      if (key === 'drop') return undefined;
      return typeof value === 'number' ? value * 10 : value;
    };
    const texts = values(doc, { output: 'text' }) as string[];
    assertEqual(
      values(doc, { reviver }),
      texts.map((text) => JSON.parse(text, reviver)),
    );
  });

  test('a reviver that throws stops the parser after the elements before it, like a syntax error', () => {
    const boom = new Error('boom');
    const parser = createParser({
      reviver: (key: string, value: unknown) => {
        if (key === '' && value === 2) throw boom;
        return value;
      },
    });
    assertEqual(parser.push('[1,2,3,'), [1]);
    for (const call of [() => parser.push('4]'), () => parser.end()]) {
      let thrown: unknown;
      try {
        call();
      } catch (error) {
        thrown = error;
      }
      assert(thrown === boom, `got ${String(thrown)}`);
    }
  });

  test('a reviver that runs sluice (lazyParse, another parser) leaves the elements unchanged', () => {
    // Both share the module with the parser: lazyParse grows its memory, the other parser writes in the same
    // input window and result tables while the first is between two elements of one call.
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: i, name: `n${i} é`, tags: ['a', i] }));
    const text = JSON.stringify(rows);
    let size = 1 << 14;
    const reviver = (key: string, value: unknown) => {
      if (key === 'name') {
        if (size < 1 << 18) size *= 2;
        const doc = lazyParse(`[${'1,'.repeat(size)}2]`) as number[];
        assertEqual(doc[size], 2, 'the lazy document');
        const other = createParser({ withPath: true });
        assertEqual([...other.push('[{"x":[1,2]},"y"'), ...other.push(']'), ...other.end()].length, 2, 'the other');
      }
      return value;
    };
    for (const chunk of [text.length, 50, 7]) {
      const parser = createParser({ reviver, withPath: true });
      const got: unknown[] = [];
      for (let i = 0; i < text.length; i += chunk) got.push(...parser.push(text.slice(i, i + chunk)));
      got.push(...parser.end());
      assertEqual(
        got,
        rows.map((value, key) => ({ path: '$[*]', key, value })),
        `chunks of ${chunk}`,
      );
      size = 1 << 14;
    }
  });
});

group('Symbol.dispose', () => {
  test('closes the parser', () => {
    const dispose = (Symbol as { dispose?: symbol }).dispose;
    if (dispose === undefined) return; // the engine has no explicit resource management yet
    const parser = createParser();
    assertEqual(parser.push('[1,'), [1]);
    (parser as unknown as Record<symbol, () => void>)[dispose]!();
    assertThrows(() => parser.push('2]'), TypeError, 'push() after disposal');
  });
});

group('ndjson', () => {
  const table: [string, string, unknown[]][] = [
    ['newline-delimited', '{"a":1}\n{"b":2}\n[3]\n', [{ a: 1 }, { b: 2 }, [3]]],
    ['concatenated', '{}{}[]"s"[1]', [{}, {}, [], 's', [1]]],
    ['CRLF and blank lines', '\r\n{"a":1}\r\n\r\n{"b":2}\r\n', [{ a: 1 }, { b: 2 }]],
    ['scalars', '1 2\t3\n-4 "x" true null', [1, 2, 3, -4, 'x', true, null]],
  ];
  for (const [name, text, expected] of table) {
    test(`${name}, split anywhere`, () => {
      for (let at = 0; at <= text.length; at++) {
        assertEqual(values(splitAt(encoder.encode(text), at), { ndjson: true }), expected, `split at ${at}`);
      }
    });
  }
});

group('encoding', () => {
  test('a byte order mark is skipped, as bytes or as a string, split or whole', () => {
    assertEqual(values(Uint8Array.of(0xef, 0xbb, 0xbf, 0x5b, 0x31, 0x5d)), [1]);
    assertEqual(values('\ufeff[1]'), [1]);
    assertEqual(values([Uint8Array.of(0xef), Uint8Array.of(0xbb), Uint8Array.of(0xbf, 0x5b, 0x31, 0x5d)]), [1]);
  });

  test('characters of 2, 3 and 4 bytes split over two and three chunks', () => {
    const text = '["é","中文","😀",{"k😀":"\\u00e9"}]';
    const bytes = encoder.encode(text);
    const expected = JSON.parse(text);
    for (let a = 0; a <= bytes.length; a++) {
      assertEqual(values(splitAt(bytes, a)), expected, `split at ${a}`);
      for (let b = a; b <= Math.min(bytes.length, a + 4); b++) {
        const pieces = [bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)];
        assertEqual(values(pieces), expected, `split at ${a} and ${b}`);
      }
    }
  });

  test('string chunks with surrogate pairs split between chunks', () => {
    assertEqual(values(['["\ud83d', '\ude00"]']), ['😀']);
  });
});

group('option mistakes', () => {
  // One grammar in every engine: "<api>: <subject> must be <expected>, got <actual>", a TypeError at the call.
  const OPTIONS =
    'path, paths, order, output, reviver, integers, withPath, withOffset, withNormalizedPath, ndjson, maxDepth, maxElementBytes, onInvalidLine';
  const table: [unknown, string][] = [
    [{ outptu: 'bytes' }, `options.outptu is not an option; the options are ${OPTIONS}`],
    [{ maxDepth: -1 }, 'options.maxDepth must be an integer from 1 to 1000000, got -1'],
    [[], 'options must be an object, got Array'],
    [{ path: '$[1:2' }, 'options.path "$[1:2" at 5: expected "," or "]", found the end'],
    [
      { path: '$[?$.x]' },
      'options.path "$[?$.x]" at 2: a filter selector with an absolute query ($...) is not supported in a stream: ' +
        'it reads the whole document, which a stream does not hold',
    ],
  ];
  for (const [options, message] of table) {
    test(message, () => {
      const given = options as ParserOptions;
      const calls: [string, () => unknown][] = [
        ['createParser()', () => createParser(given)],
        ['parseJsonArray()', () => parseJsonArray('[]', given)],
        ['new JsonArrayStream()', () => new JsonArrayStream(given)],
      ];
      for (const [api, call] of calls) {
        assertEqual(assertThrows(call, TypeError, api).message, `${api}: ${message}`, api);
      }
    });
  }
});
