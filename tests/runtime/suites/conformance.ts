// The engine's own JSON.parse is the oracle: JSONTestSuite's y_ and n_ files and seeded random documents through
// random chunkings. On a non-V8 engine (Bun's JavaScriptCore) this is what finds a difference in how values are
// materialised (numbers, escapes, lone surrogates, `__proto__` keys, key order).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng, randomDocument } from '../../support/random_json.mjs';
import { oneByteChunks, parseChunks, randomTextPieces, splitAt, lineAndColumn } from '../../support/feed.ts';
import { assert, assertEqual, group, test } from '../harness.ts';

// A path, not a URL: one file name holds a `#`.
const SUITE = fileURLToPath(new URL('../../corpus/JSONTestSuite/', import.meta.url));
const files = readdirSync(SUITE)
  .filter((name) => /^[yn]_.*\.json$/.test(name))
  .sort();
const read = (name: string) => new Uint8Array(readFileSync(join(SUITE, name)));
const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

group('JSONTestSuite', () => {
  test('the copy holds the y_ and n_ files', () => {
    assertEqual(
      [files.filter((f) => f.startsWith('y_')).length, files.filter((f) => f.startsWith('n_')).length],
      [95, 188],
    );
  });

  test("every y_ file is accepted with JSON.parse's value, in one chunk and one byte at a time", () => {
    for (const name of files.filter((f) => f.startsWith('y_'))) {
      const bytes = read(name);
      const expected = [JSON.parse(utf8.decode(bytes))];
      const whole = parseChunks([bytes], { path: '$' });
      assert(whole.error === null, `${name}: rejected with ${whole.error?.code}`);
      assertEqual(whole.values, expected, name);
      assertEqual(parseChunks(oneByteChunks(bytes), { path: '$' }), whole, `${name} one byte at a time`);
    }
  });

  test('every n_ file is rejected with a positioned error, whatever the chunking', () => {
    for (const name of files.filter((f) => f.startsWith('n_'))) {
      const bytes = read(name);
      const whole = parseChunks([bytes], { path: '$' });
      const { error } = whole;
      assert(error !== null, `${name}: accepted`);
      assert(error.name === 'JsonSyntaxError' || error.code === 'DEPTH_LIMIT', `${name}: ${error.name} ${error.code}`);
      assertEqual({ line: error.line, column: error.column }, lineAndColumn(bytes, error.offset), `${name} position`);
      assertEqual(parseChunks(oneByteChunks(bytes), { path: '$' }), whole, `${name} one byte at a time`);
      if (bytes.length > 1) {
        const at = bytes.length >> 1;
        assertEqual(parseChunks(splitAt(bytes, at), { path: '$' }), whole, `${name} split at ${at}`);
      }
    }
  });
});

group('differential', () => {
  test('seeded random documents through random chunkings equal JSON.parse, in every output', () => {
    const rng = createRng(0x5eed);
    for (let n = 0; n < 400; n++) {
      const text: string = randomDocument(rng);
      const expected = JSON.parse(text);
      const pieces = randomTextPieces(text, rng, 1 + rng.int(64), 0.5);
      const where = `document ${n}: ${text.slice(0, 80)}`;
      const root = parseChunks(pieces, { path: '$' });
      assert(root.error === null, `${where}: ${root.error?.code} at ${root.error?.offset}`);
      assertEqual(root.values, [expected], where);
      if (!Array.isArray(expected)) continue;
      assertEqual(parseChunks(pieces).values, expected, `${where} $[*]`);
      // Each element's text is exact: JSON.parse of it gives the element again.
      const texts = parseChunks(pieces, { output: 'text' }).values as string[];
      assertEqual(
        texts.map((t) => JSON.parse(t)),
        expected,
        `${where} text`,
      );
      const bytes = parseChunks(pieces, { output: 'bytes' }).values as Uint8Array[];
      assertEqual(
        bytes,
        texts.map((t) => encoder.encode(t)),
        `${where} bytes`,
      );
    }
  });
});
