// Value mode's batch text (src/stream/ascii_json.h): the core rewrites each element as ASCII, copying 16 bytes at a
// time and escaping every non-ASCII character, in the SIMD build with wasm vector instructions and in the scalar
// build with 64-bit words. A non-ASCII character at any offset of those 16 bytes, next to ASCII runs of any length,
// must come out of JSON.parse exactly as it went in.
import { describe, expect, test } from 'vitest';
import { createParser } from '../../dist/index.js';

const encoder = new TextEncoder();
// 2-, 3- and 4-byte UTF-8, the smallest and largest of each length, a lone character in a key.
const CHARACTERS = ['é', '中', '😀', '\u0080', '\u07ff', '\u0800', '\uffff', '\u{10000}', '\u{10ffff}'];
const AFTER = [0, 1, 7, 15, 16, 17, 33];

function parseValues(text: string, path = '$[*]'): unknown[] {
  const parser = createParser({ path });
  const values = parser.push(encoder.encode(text));
  for (const value of parser.end()) values.push(value);
  return values;
}

describe('value mode: non-ASCII characters at every offset of the ASCII copy', () => {
  test.each(CHARACTERS)('%s', (character) => {
    const elements: unknown[] = [];
    for (let before = 0; before <= 40; before++) {
      for (const after of AFTER) {
        const text = `${'x'.repeat(before)}${character}${'y'.repeat(after)}`;
        elements.push(text, { [text]: [text, before] }, [text, character.repeat(after % 5)]);
      }
    }
    const document = JSON.stringify(elements);
    expect(parseValues(document)).toEqual(elements);
  });

  test('text dense in non-ASCII characters, and escapes next to them', () => {
    const dense = CHARACTERS.join('').repeat(12);
    const elements = [dense, `\\"${dense}\n\t"\u0001`, { a: dense.slice(0, 7), é: ['中😀', 'a\\u00e9'] }];
    expect(parseValues(JSON.stringify(elements))).toEqual(elements);
  });
});
