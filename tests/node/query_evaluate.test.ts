// The RFC 9535 evaluator over JS values (js/query/evaluate.ts): the RFC's own examples of descendants, slices and
// comparisons, normalized paths with the escapes of §2.7, strings ordered by scalar values, length() counting
// code points. The compliance suite (query_cts.test.ts) and the differential test (query_differential.test.ts)
// cover the rest.
import { describe, expect, test } from 'vitest';
// @ts-expect-error @internal: stripped from the shipped .d.ts, tested all the same.
import { evaluate, sliceIndices } from '../../dist/query/evaluate.js';
// @ts-expect-error @internal
import { parseQuery } from '../../dist/query/parser.js';

interface Node {
  value: unknown;
  path: string;
}

const query = (text: string, doc: unknown): Node[] => evaluate(parseQuery(text), doc);
const values = (text: string, doc: unknown) => query(text, doc).map((n) => n.value);
const paths = (text: string, doc: unknown) => query(text, doc).map((n) => n.path);

describe('descendants (RFC 9535 §2.5.2.3)', () => {
  const doc = { o: { j: 1, k: 2 }, a: [5, 3, [{ j: 4 }, { k: 6 }]] };

  test('a node before its descendants, arrays in order', () => {
    expect(query('$..j', doc)).toEqual([
      { value: 1, path: "$['o']['j']" },
      { value: 4, path: "$['a'][2][0]['j']" },
    ]);
    expect(values('$..[0]', doc)).toEqual([5, { j: 4 }]);
    expect(values('$.o..[*, *]', doc)).toEqual([1, 2, 1, 2]);
    expect(values('$.a..[0, 1]', doc)).toEqual([5, 3, { j: 4 }, { k: 6 }]);
  });

  test('$..* lists every node but the root, each once, a parent before its children', () => {
    const list = paths('$..*', doc);
    expect(list.length).toBe(new Set(list).size);
    expect(list.length).toBe(11);
    for (const [i, p] of list.entries()) {
      const parent = p.slice(0, p.lastIndexOf('['));
      if (parent !== '$') expect(list.indexOf(parent)).toBeLessThan(i);
    }
  });
});

describe('slices (RFC 9535 §2.3.4.3)', () => {
  const doc = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  test.each([
    ['$[1:3]', ['b', 'c']],
    ['$[5:]', ['f', 'g']],
    ['$[1:5:2]', ['b', 'd']],
    ['$[5:1:-2]', ['f', 'd']],
    ['$[::-1]', ['g', 'f', 'e', 'd', 'c', 'b', 'a']],
    ['$[-2:]', ['f', 'g']],
    ['$[:-5:-1]', ['g', 'f', 'e', 'd']],
    ['$[::0]', []],
    ['$[-100:100:3]', ['a', 'd', 'g']],
    ['$[100:-100:-3]', ['g', 'd', 'a']],
    ['$[9007199254740991:0:-9007199254740991]', ['g']],
  ])('%s', (text, expected) => {
    expect(values(text, doc)).toEqual(expected);
  });

  test('every step, every bound: the indices of a reversed slice, reversed, are those of the reversed array', () => {
    // For step -k from the end, the elements are those of step k from the start of the reversed array.
    for (let length = 0; length <= 6; length++) {
      for (let k = 1; k <= 7; k++) {
        const forward = sliceIndices({ start: null, end: null, step: k }, length);
        const backward = sliceIndices({ start: null, end: null, step: -k }, length);
        expect(backward).toEqual(forward.map((i: number) => length - 1 - i));
        for (const i of [...forward, ...backward]) expect(i >= 0 && i < length).toBe(true);
      }
    }
  });
});

describe('comparisons (RFC 9535 §2.3.5.3), each in $[?...] over a two-member object', () => {
  const doc = { obj: { x: 'y' }, arr: [2, 3] };
  test.each([
    ['$.absent1 == $.absent2', true],
    ['$.absent1 <= $.absent2', true],
    ["$.absent == 'g'", false],
    ['$.absent1 != $.absent2', false],
    ["$.absent != 'g'", true],
    ['1 <= 2', true],
    ['1 > 2', false],
    ["13 == '13'", false],
    ["'a' <= 'b'", true],
    ["'a' > 'b'", false],
    ['$.obj == $.arr', false],
    ['$.obj != $.arr', true],
    ['$.obj == $.obj', true],
    ['$.obj != $.obj', false],
    ['$.arr == $.arr', true],
    ['$.arr != $.arr', false],
    ['$.obj == 17', false],
    ['$.obj != 17', true],
    ['$.obj <= $.arr', false],
    ['$.obj < $.arr', false],
    ['$.obj <= $.obj', true],
    ['$.arr <= $.arr', true],
    ['1 <= $.arr', false],
    ['1 >= $.arr', false],
    ['1 > $.arr', false],
    ['1 < $.arr', false],
    ['true <= true', true],
    ['true > true', false],
    ['1 == 1.0', true],
    ['10 > 9', true],
    ["'10' > '9'", false],
  ])('%s is %s', (expression, expected) => {
    expect(values(`$[?${expression}]`, doc).length).toBe(expected ? 2 : 0);
  });

  test('arrays and objects are equal member by member, whatever the member order', () => {
    const d = { a: { p: [1, { q: null }], r: 'x' }, b: { r: 'x', p: [1, { q: null }] }, c: { r: 'x', p: [1, {}] } };
    expect(paths('$[?@ == $.a]', d)).toEqual(["$['a']", "$['b']"]);
    expect(paths('$[?@ != $.a]', d)).toEqual(["$['c']"]);
  });

  test('strings are ordered by Unicode scalar values, not UTF-16 units', () => {
    // U+FFFF < U+10000, though its unit 0xFFFF is above the surrogate 0xD800.
    const d = ['\uffff', '\u{10000}'];
    expect(values("$[?@ < '\u{10000}']", d)).toEqual(['\uffff']);
    expect(values("$[?@ > '\uffff']", d)).toEqual(['\u{10000}']);
  });
});

describe('functions', () => {
  test('length() counts code points, members and elements; Nothing for the rest', () => {
    const d = ['\u{1F600}\u{1F600}', 'ab', [1, 2], { a: 1, b: 2 }, 2, true, null];
    expect(values('$[?length(@) == 2]', d)).toEqual(d.slice(0, 4));
  });

  test('count() and value()', () => {
    const d = [{ a: [1, 2] }, { a: [3] }, { b: 1 }];
    expect(values('$[?count(@.a[*]) == 1]', d)).toEqual([{ a: [3] }]);
    expect(values('$[?value(@..a) == 1]', [{ a: 1 }, { x: { a: 1 }, a: 2 }, { a: [1] }])).toEqual([{ a: 1 }]);
  });

  test('match() and search() with a non-string or an invalid pattern select nothing', () => {
    expect(values("$[?match(@, 'a+')]", ['aa', 'ab', 1, null])).toEqual(['aa']);
    expect(values("$[?search(@, 'b')]", ['aa', 'ab', ['b']])).toEqual(['ab']);
    expect(values("$[?match(@, '[')]", ['[', 'a'])).toEqual([]);
    expect(
      values('$[?match(@.s, @.p)]', [
        { s: 'ab', p: 'a.' },
        { s: 'ab', p: 'b' },
      ]),
    ).toEqual([{ s: 'ab', p: 'a.' }]);
  });
});

describe('normalized paths (RFC 9535 §2.7)', () => {
  test('names are single-quoted with only the escapes of §2.7', () => {
    const names = ["'", '\\', '\b', '\f', '\n', '\r', '\t', '\u0000', '\u000b', '\u001f', '"', '/', '\u007f', 'é'];
    const doc = Object.fromEntries(names.map((n, i) => [n, i]));
    const expected = [
      "$['\\'']",
      "$['\\\\']",
      "$['\\b']",
      "$['\\f']",
      "$['\\n']",
      "$['\\r']",
      "$['\\t']",
      "$['\\u0000']",
      "$['\\u000b']",
      "$['\\u001f']",
      `$['"']`,
      "$['/']",
      "$['\u007f']",
      "$['é']",
    ];
    expect(paths('$.*', doc)).toEqual(expected);
  });

  test('an index is an index, a member named like one is a name', () => {
    // $..* is * applied to each node in turn: the root's children first, then those of $['0'].
    expect(paths('$..*', { '0': [7], a: 1 })).toEqual(["$['0']", "$['a']", "$['0'][0]"]);
    expect(paths('$[-1]', [1, 2, 3])).toEqual(['$[2]']);
    expect(paths('$', 5)).toEqual(['$']);
  });
});
