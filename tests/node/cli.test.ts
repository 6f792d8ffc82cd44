// The command line as users run it, a child process over dist/: `select` writes each element's own text without
// insignificant whitespace (checked against an independent compaction of the document and against JSON.parse)
// for seeded random documents, pretty-printed or not (unicode, every escape, numbers of every spelling), in each
// output shape; get, count and validate; every exit code, with errors in the library's words.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createParser } from '../../dist/index.js';
import { firstDifference } from '../support/deep_equal.mjs';
import { createRng, randomDocument, randomWhitespace } from '../support/random_json.mjs';
import { compactJson, lines, runCli, topLevelItems } from './cli_run.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x51c11);
const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** A random document made to look pretty-printed: newlines and indentation after every `,` `[` `{` outside strings. */
function prettyPrinted(text: string, rng: ReturnType<typeof createRng>): string {
  let out = '';
  let inString = false;
  let escaped = false;
  for (const c of text) {
    out += c;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === ',' || c === '[' || c === '{') out += '\n' + ' '.repeat(rng.int(9)) + randomWhitespace(rng);
    else if (c === ':') out += ' ';
  }
  return out;
}

/** Many random elements in one array, so a document spans several of the CLI's 256 KiB reads now and then. */
function randomArray(rng: ReturnType<typeof createRng>, elements: number): string {
  const items: string[] = [];
  for (let i = 0; i < elements; i++) {
    const doc = randomDocument(rng, { maxDepth: 4, maxItems: 5, budget: 30, deep: rng.chance(0.05) ? 40 : 0 });
    items.push(rng.chance(0.5) ? doc : topLevelItems(compactJson(doc)).join(',') || '0');
  }
  return '[' + items.join(',') + ']';
}

describe('select writes each element compacted, one per line', () => {
  test.each([
    ['tight', false],
    ['pretty-printed', true],
  ])(
    '%s random documents: each line is the element without whitespace and parses to what JSON.parse gives',
    async (_, pretty) => {
      const rng = createRng(SEED + (pretty ? 1 : 0));
      for (let round = 0; round < 6; round++) {
        let text = randomArray(rng, round === 5 ? 4000 : rng.range(0, 60));
        if (pretty) text = prettyPrinted(text, rng);
        const path = file(`doc${round}.json`, text);
        const result = await runCli(['select', '$[*]', path]);
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        const got = lines(result.stdout);
        const expected = topLevelItems(compactJson(text));
        const values = JSON.parse(text) as unknown[];
        expect(got.length).toBe(values.length);
        for (let i = 0; i < got.length; i++) {
          expect(got[i], `round ${round}, element ${i}`).toBe(expected[i]);
          expect(firstDifference(JSON.parse(got[i]!), values[i]), `round ${round}, element ${i}`).toBeNull();
        }
      }
    },
  );

  test('numbers keep their spelling, strings their escapes, objects their key order; raw UTF-8 stays', async () => {
    const text =
      '[ -0 , 1.50 , 1E+2 , 1e400 , 0.0000000000000000000001 , 12345678901234567890123 ,\n' +
      '  "\\u00e9 é \\ud83d\\ude00 😀 \\n \\" \\\\ \\/" , { "b" : 1 , "a" : [ true , false , null ] , "b" : 2 } ]';
    const result = await runCli(['select', '$[*]'], { input: text });
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      '-0',
      '1.50',
      '1E+2',
      '1e400',
      '0.0000000000000000000001',
      '12345678901234567890123',
      '"\\u00e9 é \\ud83d\\ude00 😀 \\n \\" \\\\ \\/"',
      '{"b":1,"a":[true,false,null],"b":2}',
    ]);
  });

  test('several paths: elements in document order; members of objects with .*', async () => {
    const text = '{"meta": {"n": 2}, "rows": [{"id": 1}, {"id": 2}], "tail": {"x": [1, 2], "y": "z"}}';
    const result = await runCli(['select', '$.rows[*].id', '$.meta', '$.tail.*', '-'], { input: text });
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual(['{"n":2}', '1', '2', '[1,2]', '"z"']);
  });

  test('--array writes one JSON array; --with-path {"path","key","value"} lines', async () => {
    const text = '{"a": [ {"k": 1} , 2 , "x" ], "b": {"c": [ ], "d\\u0022": null}}';
    const array = await runCli(['select', '$.a[*]', '--array'], { input: text });
    expect(array.stdout).toBe('[{"k":1},2,"x"]\n');
    const empty = await runCli(['select', '$.none[*]', '--array'], { input: text });
    expect(empty.stdout).toBe('[]\n');
    const withPath = await runCli(['select', '$.a[*]', '$.b.*', '$', '--with-path'], { input: text });
    expect(withPath.code).toBe(0);
    expect(lines(withPath.stdout).map((line) => JSON.parse(line) as unknown)).toEqual([
      { path: '$.a[*]', key: 0, value: { k: 1 } },
      { path: '$.a[*]', key: 1, value: 2 },
      { path: '$.a[*]', key: 2, value: 'x' },
      { path: '$.b.*', key: 'c', value: [] },
      { path: '$.b.*', key: 'd"', value: null },
      { path: '$', key: null, value: JSON.parse(text) as unknown },
    ]);
    // The key is the member name's own JSON text.
    expect(withPath.stdout).toContain('"key":"d\\u0022"');
  });

  test('RFC 9535 queries: unions expanded and reported as written; --order arrival for .. and unions', async () => {
    const text = '{"a": [1, 2, 3], "b": [4, 5, 6]}';
    const indices = await runCli(['select', '$.a[0, 2]', '--with-path'], { input: text });
    expect(lines(indices.stdout).map((line) => JSON.parse(line) as unknown)).toEqual([
      { path: '$.a[0, 2]', key: 0, value: 1 },
      { path: '$.a[0, 2]', key: 2, value: 3 },
    ]);
    // One union out of document order: its matches held, in RFC order (cli_union.test.ts); two are refused.
    const rfc = await runCli(['select', "$['b','a'][0]"], { input: text });
    expect(lines(rfc.stdout)).toEqual(['4', '1']);
    const refused = await runCli(['select', "$['b','a'][2,0]"], { input: text });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('with --order arrival each match comes once, as its last byte arrives');
    const arrival = await runCli(['select', "$['b','a'][0]", '--order', 'arrival'], { input: text });
    expect(lines(arrival.stdout)).toEqual(['1', '4']);
    const count = await runCli(['count', "$['a','b'][1,2]", '--order=arrival'], { input: text });
    expect(count.stdout).toBe('4\n');
    const nested = '{"x":[{"id":1,"y":{"id":2}}],"id":3}';
    const descendant = await runCli(['select', '--order', 'arrival', '$..id'], { input: nested });
    expect(lines(descendant.stdout)).toEqual(['1', '2', '3']);
    const counted = await runCli(['count', '--order', 'arrival', '$..id'], { input: nested });
    expect(counted.stdout).toBe('3\n');
    // Two selectors of the union select a[0]: written once (cli_union.test.ts).
    const repeat = await runCli(['select', '$.a[*, 0]', '--order', 'arrival'], { input: text });
    expect(lines(repeat.stdout)).toEqual(['1', '2', '3']);
    const order = await runCli(['select', '$.a', '--order', 'document'], { input: text });
    expect(order.stderr).toContain('--order must be rfc or arrival, got "document"');
  });

  test('--ndjson reads a sequence of values; the key of --with-path is the value number', async () => {
    const text = '{"u": 1}\n{"u": 2}  {"u":\n3}\n\n[4]';
    const plain = await runCli(['select', '--ndjson', '$'], { input: text });
    expect(lines(plain.stdout)).toEqual(['{"u":1}', '{"u":2}', '{"u":3}', '[4]']);
    const users = await runCli(['select', '--ndjson', '$.u', '--with-path'], { input: text });
    expect(lines(users.stdout).map((line) => JSON.parse(line) as unknown)).toEqual([
      { path: '$.u', key: 'u', value: 1 },
      { path: '$.u', key: 'u', value: 2 },
      { path: '$.u', key: 'u', value: 3 },
    ]);
  });

  // The compact-lines parser keeps its carry in wasm memory (the others' is in the JS heap): an element, or the
  // key before it, that began reads ago is compacted and written whole.
  test('elements and keys spanning many reads are compacted whole, with their keys', async () => {
    const members = Array.from({ length: 12 }, (_, i) => [
      `k${i} é ${'y'.repeat(i * 40_000)}`,
      { s: `${'x'.repeat(i * 70_000)}é`, a: [1, { b: ' y ' }], n: i },
    ]);
    const doc = { o: Object.fromEntries(members) };
    const text = JSON.stringify(doc, null, 2);
    expect(text.length).toBeGreaterThan(8 * 256 * 1024);
    const plain = await runCli(['select', '$.o.*'], { input: text });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(members.map(([, value]) => `${JSON.stringify(value)}\n`).join(''));
    const withPath = await runCli(['select', '$.o.*', '--with-path'], { input: text });
    expect(withPath.stdout).toBe(
      members.map(([key, value]) => `${JSON.stringify({ path: '$.o.*', key, value })}\n`).join(''),
    );
  });

  // A value that starts in a read whose member name began in the read before: the key comes from the parser's
  // carry, not from before the window.
  test('keys cut by a read boundary, their values after it, with their keys', async () => {
    const members = Array.from({ length: 4000 }, (_, i) => [`${'k'.repeat(300)}${i}`, i % 7 === 0 ? [i] : i]);
    const text = JSON.stringify({ o: Object.fromEntries(members) });
    expect(text.length).toBeGreaterThan(4 * 256 * 1024);
    const withPath = await runCli(['select', '$.o.*', '--with-path'], { input: text });
    expect(withPath.code).toBe(0);
    expect(withPath.stdout).toBe(
      members.map(([key, value]) => `${JSON.stringify({ path: '$.o.*', key, value })}\n`).join(''),
    );
  });

  test('--limit N writes N elements (and the closing bracket with --array)', async () => {
    const text = '[' + Array.from({ length: 1000 }, (_, i) => `{"i": ${i}}`).join(', ') + ']';
    const result = await runCli(['select', '$[*]', '--limit', '3'], { input: text });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"i":0}\n{"i":1}\n{"i":2}\n');
    const array = await runCli(['select', '$[*].i', '--limit=2', '--array'], { input: text });
    expect(array.stdout).toBe('[0,1]\n');
    const none = await runCli(['select', '$[*]', '--limit', '0'], { input: text });
    expect(none.stdout).toBe('');
  });
});

describe('get, count, validate', () => {
  const text = '{"meta": {"total": 3, "pages": [10, 20]}, "rows": [{"id": 1}, {"id": 2}, {"id": 3}], "end": true}';

  test('get writes the value as JSON.stringify writes what JSON.parse gives; exit 1 when there is none', async () => {
    expect((await runCli(['get', '$.meta.pages[1]'], { input: text })).stdout).toBe('20\n');
    expect((await runCli(['get', '$.meta'], { input: text })).stdout).toBe('{"total":3,"pages":[10,20]}\n');
    expect((await runCli(['get', '$.rows[2]'], { input: text })).stdout).toBe('{"id":3}\n');
    const missing = await runCli(['get', '$.meta.nothing'], { input: text });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('sluice: no value at $.meta.nothing in standard input\n');
  });

  test('get takes negative indices: the array is read to its end, over several chunks', async () => {
    const doc = JSON.parse(text) as { rows: { id: number }[]; meta: { pages: number[] } };
    expect((await runCli(['get', '$.rows[-1].id'], { input: text })).stdout).toBe(`${doc.rows.at(-1)!.id}\n`);
    expect((await runCli(['get', '$.meta.pages[-2]'], { input: text })).stdout).toBe(`${doc.meta.pages.at(-2)}\n`);
    const missing = await runCli(['get', '$.meta.pages[-3]'], { input: text });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('sluice: no value at $.meta.pages[-3] in standard input\n');
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', i % 7] }));
    const big = JSON.stringify({ rows, after: 1 });
    expect(big.length).toBeGreaterThan(3 * 64 * 1024);
    const last = await runCli(['get', '$.rows[-3].tags[-1]'], { input: big });
    expect(last.stdout).toBe(`${JSON.stringify(rows.at(-3)!.tags.at(-1))}\n`);
  });

  test('count counts the elements at a path, with --ndjson the values', async () => {
    expect((await runCli(['count', '$.rows[*]'], { input: text })).stdout).toBe('3\n');
    expect((await runCli(['count', '$.*'], { input: text })).stdout).toBe('3\n');
    expect((await runCli(['count', '$.nothing[*]'], { input: text })).stdout).toBe('0\n');
    expect((await runCli(['count', '--ndjson', '$'], { input: '1 2\n[3]\n{}' })).stdout).toBe('4\n');
  });

  test('validate: exit 0 and no output for valid JSON', async () => {
    const result = await runCli(['validate'], { input: text });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});

describe('exit codes and errors', () => {
  /** The library's error for the same input, fed whole. */
  function libraryError(input: string, options: Parameters<typeof createParser>[0] = {}): Error {
    const parser = createParser(options);
    try {
      parser.push(input);
      parser.end();
    } catch (error) {
      return error as Error;
    }
    throw new Error('the library accepted it');
  }

  test('invalid JSON: exit 3, the library message, code, and the line with a caret; elements before it first', async () => {
    const input = '[1, 2,\n  {"a": [3 4]}]';
    const result = await runCli(['select', '$[*]'], { input });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('1\n2\n');
    const error = libraryError(input);
    expect(result.stderr).toBe(
      `sluice: standard input: ${error.message}\n` +
        '  code: EXPECTED_COMMA_OR_BRACKET\n' +
        '  2 |   {"a": [3 4]}]\n' +
        '    |            ^\n',
    );
    expect(error.message).toContain('found "4" at byte 18 (line 2, column 12)');
  });

  test('validate reports invalid UTF-8 and control characters the same way', async () => {
    const bad = Buffer.concat([Buffer.from('{"k": "caf\u00e9 '), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]);
    const result = await runCli(['validate'], { input: bad });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('code: INVALID_UTF8');
    expect(result.stderr).toContain('found 0xC0 at byte 13 (line 1, column 14)');
    const tab = await runCli(['validate', '--ndjson'], { input: '{"a":1}\n["x\ty"]' });
    expect(tab.code).toBe(3);
    expect(tab.stderr).toContain(
      `sluice: standard input: ${libraryError('{"a":1}\n["x\ty"]', { ndjson: true }).message}`,
    );
    expect(tab.stderr).toContain('  2 | ["x y"]\n    |    ^\n');
  });

  test('truncated input: exit 4 (UNEXPECTED_END), the complete elements written first', async () => {
    const result = await runCli(['select', '$.rows[*]'], { input: '{"rows": [{"id": 1}, {"id": 2}, {"id"' });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('{"id":1}\n{"id":2}\n');
    expect(result.stderr).toContain('Cannot parse JSON: unexpected end of input at byte 37');
    expect(result.stderr).toContain('code: UNEXPECTED_END');
  });

  test('a limit exceeded: exit 5', async () => {
    const deep = await runCli(['validate', '--max-depth', '3'], { input: '[[[[1]]]]' });
    expect(deep.code).toBe(5);
    expect(deep.stderr).toContain(libraryError('[[[[1]]]]', { maxDepth: 3 }).message);
    const large = await runCli(['select', '$[*]', '--max-element-bytes=8'], { input: '["short", "far too long"]' });
    expect(large.code).toBe(5);
    expect(large.stdout).toBe('"short"\n');
    expect(large.stderr).toContain('code: ELEMENT_TOO_LARGE');
  });

  test.each([
    [['frob'], 'unknown command "frob"'],
    [['select'], 'needs at least one PATH'],
    [['select', '$[*', '-'], 'PATH "$[*" at 3: expected "," or "]", found the end'],
    [
      ['select', '$.data[-1,0].id', '-'],
      'PATH "$.data[-1,0].id" at 7: the negative index -1 is not supported in a stream yet',
    ],
    [
      ['select', '$..a[?length(@) > 1]', '-'],
      'PATH "$..a[?length(@) > 1]" at 5: a filter selector is not supported in a stream yet',
    ],
    [['get', '$..a'], 'PATH "$..a" at 1: `sluice get` takes singular queries'],
    [['select', '$[*]', '--frob'], 'unknown option --frob'],
    [['select', '$[*]', '--limit', 'x'], '--limit must be an integer'],
    [['select', '$[*]', 'a.json', 'b.json'], 'one input at most'],
    [
      ['get', '$[*]'],
      'PATH "$[*]" at 2: `sluice get` takes singular queries ($, .name, [\'name\'], ["name"], [N]), not a wildcard selector; use `sluice select` for several values',
    ],
    [['count'], 'takes one PATH'],
    [['validate', '$'], 'takes no path'],
  ])('usage error %j: exit 2', async (args, message) => {
    const result = await runCli(args, { input: '[]' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  test('input errors: exit 6', async () => {
    const missing = await runCli(['select', '$[*]', join(dir, 'no-such-file.json')]);
    expect(missing.code).toBe(6);
    expect(missing.stderr).toContain('no such file or directory (ENOENT)');
    const directory = await runCli(['validate', dir]);
    expect(directory.code).toBe(6);
    expect(directory.stderr).toContain('is a directory');
  });
});

describe('help', () => {
  test.each(['select', 'get', 'count', 'validate'])(
    '%s --help: usage, options, examples, exit codes',
    async (command) => {
      const result = await runCli([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: sluice ${command}`);
      expect(result.stdout).toContain('Examples:');
      expect(result.stdout).toContain('Exit codes: 0 done');
    },
  );

  test('sluice --help lists the commands; sluice alone prints it on standard error with exit 2', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['select', 'get', 'count', 'validate']) expect(help.stdout).toContain(`  ${command} `);
    const bare = await runCli([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toContain('Usage: sluice <command>');
  });
});
