// I-Regexp (RFC 9485) as match() and search() read it (js/query/iregexp.ts): the grammar checked (what is not an
// I-Regexp matches nothing, never throws), the translation to a JS RegExp where the two languages differ (`.`, `^`,
// `$`, escapes, classes, categories), anchoring, and non-string arguments.
import { describe, expect, test } from 'vitest';
// @ts-expect-error @internal: stripped from the shipped .d.ts, tested all the same.
import { iregexpMatch, iregexpSearch, translate } from '../../dist/query/iregexp.js';

describe('the I-Regexp grammar', () => {
  const valid = [
    '',
    'a',
    'a|b',
    '|',
    '()',
    '(a|)b*',
    'a{2}',
    'a{2,}',
    'a{2,3}',
    '[a-z]',
    '[^a-z]',
    '[-a]',
    '[a-]',
    '[-]',
    '[^-]',
    '[a-z-]',
    '[\\n-\\r]',
    '[\\p{L}\\P{Nd}_]',
    '[.^$]',
    '\\p{L}',
    '\\p{Lu}',
    '\\P{Cn}',
    '\\.\\^\\-\\[\\]\\{\\}\\(\\)\\|\\*\\+\\?\\\\\\n\\r\\t',
    '^$',
    '\u{1F600}+',
    ',/-@#',
  ];
  test.each(valid)('%j is an I-Regexp', (pattern) => {
    const text = translate(pattern);
    expect(text).not.toBeNull();
    expect(() => new RegExp(text!, 'u')).not.toThrow();
  });

  const invalid = [
    '(',
    ')',
    'a)',
    '[',
    '[]',
    '[^]',
    ']',
    '{',
    '}',
    'a{,2}',
    'a{2',
    'a{3,2}',
    '*',
    'a**',
    'a{2}{3}',
    '+a',
    '?',
    '\\d',
    '\\w',
    '\\s',
    '\\b',
    '\\1',
    '\\u0041',
    '\\x41',
    '\\p{Cs}',
    '\\p{Lx}',
    '\\p{L',
    '\\p{IsBasicLatin}',
    '[a--]',
    '[--a]',
    '[a-b-c]',
    '[z-a]',
    '[\\p{L}-z]',
    '[a\\]',
    '(?:a)',
    '(?=a)',
    'a\ud800',
    '\\',
  ];
  test.each(invalid)('%j is not, and matches nothing', (pattern) => {
    expect(translate(pattern)).toBeNull();
    expect(iregexpMatch('a', pattern)).toBe(false);
    expect(iregexpSearch('a', pattern)).toBe(false);
  });
});

describe('match and search', () => {
  test('match is anchored to the whole string, search is not', () => {
    expect(iregexpMatch('abc', 'b')).toBe(false);
    expect(iregexpSearch('abc', 'b')).toBe(true);
    expect(iregexpMatch('abc', 'a.c')).toBe(true);
    // An alternation inside the anchors as a whole, not "^a" or "c$".
    expect(iregexpMatch('ab', 'a|b')).toBe(false);
    expect(iregexpSearch('xbx', 'a|b')).toBe(true);
    expect(iregexpMatch('', '')).toBe(true);
    expect(iregexpSearch('anything', '')).toBe(true);
  });

  test('"." is any character but \\n and \\r, a whole code point', () => {
    expect(iregexpMatch('\n', '.')).toBe(false);
    expect(iregexpMatch('\r', '.')).toBe(false);
    // JS's "." refuses these, I-Regexp's does not.
    expect(iregexpMatch('\u2028', '.')).toBe(true);
    expect(iregexpMatch('\u2029', '.')).toBe(true);
    expect(iregexpMatch('\u{1F600}', '.')).toBe(true);
    expect(iregexpMatch('\u{1F600}', '..')).toBe(false);
  });

  test('^ and $ are anchors outside classes (RFC 9485 §5 mappings, the CTS), characters inside', () => {
    expect(iregexpMatch('abc', '^ab.*')).toBe(true);
    expect(iregexpMatch('abc', '.*bc$')).toBe(true);
    expect(iregexpSearch('ab', '^a')).toBe(true);
    expect(iregexpSearch('ba', '^a')).toBe(false);
    expect(iregexpSearch('ab', 'a$')).toBe(false);
    expect(iregexpMatch('a^b', 'a^b')).toBe(false);
    expect(iregexpMatch('$', '[$]')).toBe(true);
    expect(iregexpMatch('^', '[x^]')).toBe(true);
  });

  test('escapes, classes and categories', () => {
    expect(iregexpMatch('a.b', 'a\\.b')).toBe(true);
    expect(iregexpMatch('axb', 'a\\.b')).toBe(false);
    expect(iregexpMatch('-', '\\-')).toBe(true);
    expect(iregexpMatch('\t', '\\t')).toBe(true);
    expect(iregexpMatch('-', '[a-]')).toBe(true);
    expect(iregexpMatch('.', '[.]')).toBe(true);
    expect(iregexpMatch('x', '[.]')).toBe(false);
    expect(iregexpMatch('\n', '[^a]')).toBe(true);
    expect(iregexpMatch('É', '\\p{Lu}')).toBe(true);
    expect(iregexpMatch('é', '\\p{Lu}')).toBe(false);
    expect(iregexpMatch('é', '\\P{Lu}')).toBe(true);
    expect(iregexpMatch('٣', '\\p{Nd}')).toBe(true);
    expect(iregexpMatch('aaa', 'a{2,3}')).toBe(true);
    expect(iregexpMatch('aaaa', 'a{2,3}')).toBe(false);
    expect(iregexpMatch('\u{1F600}\u{1F600}', '[\u{1F600}]{2}')).toBe(true);
  });

  test('arguments that are not strings give false', () => {
    for (const value of [1, null, true, ['a'], { a: 'a' }, undefined]) {
      expect(iregexpMatch(value, 'a')).toBe(false);
      expect(iregexpSearch(value, '.*')).toBe(false);
      expect(iregexpMatch('a', value)).toBe(false);
      expect(iregexpSearch('a', value)).toBe(false);
    }
  });
});
