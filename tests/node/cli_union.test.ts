// `sluice select` and `count` of a union whose selectors may select the same node (`$[*, 0]`, `$..['a','b']..c`,
// in arrival order), a child process over dist/: each node once per PATH, as createParser (order 'arrival') gives
// it, in every output shape (lines, --array, --with-path, --with-normalized-path) and in count; over seeded random
// documents, read whole from a file, in many 256 KiB reads, and from standard input written in small pieces (reads
// ending anywhere). And a union held for RFC order (`$['b','a']`, `$[*, 0]` by default): createParser's RFC order.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createParser } from '../../dist/index.js';
import { createRng, randomDocument, randomWhitespace } from '../support/random_json.mjs';
import { compactJson, lines, runCli, spawnCli, type CliResult } from './cli_run.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x0417);
const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-union-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Rng = ReturnType<typeof createRng>;

/** Queries whose union's selectors may select one node (the library accepts each in arrival order). */
const QUERIES = [
  '$[*, 0]',
  '$[0, *]',
  '$[*][0, *, 1]',
  "$..['a','b']..c",
  "$..['a','b']",
  '$..[0, *]',
  "$..[*, 'c']",
  "$[*]['a', 'a']",
  '$[0:2, 0].a[?@ > 1]',
];

/** A member name: mostly the ones the queries ask for, sometimes escaped (`\u0061` is `a`). */
function randomName(rng: Rng): string {
  return rng.pick(['"a"', '"b"', '"c"', '"x"', '"\\u0061"', '"c"', '"a"']);
}

/** An array or object nested up to `depth`, its leaves random JSON texts (escapes, numbers, unicode). */
function randomValue(rng: Rng, depth: number): string {
  const ws = () => randomWhitespace(rng);
  if (depth === 0 || rng.chance(0.25)) {
    return rng.chance(0.5) ? String(rng.int(5)) : randomDocument(rng, { maxDepth: 2, maxItems: 3, budget: 4 });
  }
  const items: string[] = [];
  for (let n = rng.int(5); n > 0; n--) {
    const value = randomValue(rng, depth - 1);
    items.push(rng.chance(0.5) ? `${ws()}${value}${ws()}` : value);
  }
  if (rng.chance(0.5)) return `[${items.join(',')}]`;
  return `{${items.map((value) => `${ws()}${randomName(rng)}${ws()}:${value}`).join(',')}}`;
}

/** A document whose root is an array, so that `$[*, 0]` has something to select. */
function randomRoot(rng: Rng): string {
  const items: string[] = [];
  for (let n = 1 + rng.int(5); n > 0; n--) items.push(randomValue(rng, 4));
  return `${randomWhitespace(rng)}[${items.join(`,${randomWhitespace(rng)}`)}]`;
}

interface Options {
  readonly order?: 'rfc' | 'arrival';
  readonly withPath?: boolean;
  readonly normalized?: boolean;
  readonly ndjson?: boolean;
}

/** What `select` must write for `paths` over `text`: createParser's nodes (in arrival order by default). */
function expectedLines(text: string, paths: readonly string[], options: Options = {}): string[] {
  const parser = createParser({
    paths: [...paths],
    order: options.order ?? 'arrival',
    output: 'text',
    ndjson: options.ndjson ?? false,
    withNormalizedPath: options.normalized ?? false,
  });
  const nodes = [...parser.push(text), ...parser.end()] as {
    path: string;
    key: string | number | null;
    value: string;
    normalizedPath?: string;
  }[];
  return nodes.map((node) => {
    const value = compactJson(node.value);
    const named = options.normalized === true ? `,"normalizedPath":${JSON.stringify(node.normalizedPath)}` : '';
    if (options.withPath !== true) return options.normalized === true ? `{"value":${value}${named}}` : value;
    return `{"path":${JSON.stringify(node.path)},"key":${JSON.stringify(node.key)},"value":${value}${named}}`;
  });
}

/** `--with-path` lines with their keys as JSON.stringify writes them (the input may escape a name otherwise). */
function canonicalKeys(output: readonly string[]): string[] {
  return output.map((line) => {
    const { path, key } = JSON.parse(line) as { path: string; key: unknown };
    const prefix = `{"path":${JSON.stringify(path)},"key":`;
    expect(line.startsWith(prefix)).toBe(true);
    let end = prefix.length;
    if (line[end] === '"') {
      for (end++; line[end] !== '"'; end++) if (line[end] === '\\') end++;
      end++;
    } else {
      end = line.indexOf(',', end);
    }
    return `${prefix}${JSON.stringify(key)}${line.slice(end)}`;
  });
}

/** Runs `sluice args...` with `text` written to standard input in pieces of 1 to `most` bytes, a pause after each. */
function runInPieces(args: readonly string[], text: string, rng: Rng, most: number): Promise<CliResult> {
  const child = spawnCli(args);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  child.stdin.on('error', () => {});
  const bytes = Buffer.from(text);
  const sizes: number[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = Math.min(bytes.length - at, 1 + rng.int(most));
    sizes.push(n);
    at += n;
  }
  void (async () => {
    let at = 0;
    for (const n of sizes) {
      child.stdin.write(bytes.subarray(at, at + n));
      at += n;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    child.stdin.end();
  })();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const stdoutBytes = Buffer.concat(out);
      resolve({ code, signal, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr: err.toString() });
    });
  });
}

describe('a union whose selectors may select one node: each node once per PATH', () => {
  test(`${QUERIES.length} queries over random documents, every output shape and count (seed ${SEED})`, async () => {
    const rng = createRng(SEED);
    for (let d = 0; d < 3; d++) {
      const text = randomRoot(rng);
      const input = join(dir, `doc${d}.json`);
      writeFileSync(input, text);
      for (const query of QUERIES) {
        const context = `document ${d}, ${query}`;
        const plain = await runCli(['select', '--order', 'arrival', query, input]);
        expect(plain.stderr, context).toBe('');
        const want = expectedLines(text, [query]);
        expect(lines(plain.stdout), context).toEqual(want);
        const array = await runCli(['select', '--order=arrival', '--array', query, input]);
        expect(array.stdout, context).toBe(`[${want.join(',')}]\n`);
        const withPath = await runCli(['select', '--order', 'arrival', '--with-path', query, input]);
        expect(canonicalKeys(lines(withPath.stdout)), context).toEqual(
          expectedLines(text, [query], { withPath: true }),
        );
        const named = await runCli(['select', '--order', 'arrival', '--with-normalized-path', query, input]);
        expect(lines(named.stdout), context).toEqual(expectedLines(text, [query], { normalized: true }));
        const count = await runCli(['count', '--order', 'arrival', query, input]);
        expect(count.stdout, context).toBe(`${want.length}\n`);
        // With a second PATH, the records one line shares are read too (their keys).
        const paths = [query, '$..*'];
        const both = await runCli(['select', '--order', 'arrival', '--with-path', ...paths, input]);
        expect(canonicalKeys(lines(both.stdout)), context).toEqual(expectedLines(text, paths, { withPath: true }));
      }
    }
  });

  test('several PATHs: a node two PATHs select comes once for each; --limit counts nodes', async () => {
    const text = '[[1, [2]], {"a": [3], "b": {"a": {"c": 4}}}, 5]';
    const paths = ['$[*, 0]', '$[0]', "$..['a','b']..c", '$..c'];
    const all = await runCli(['select', '--order', 'arrival', '--with-path', ...paths], { input: text });
    const want = expectedLines(text, paths, { withPath: true });
    expect(lines(all.stdout)).toEqual(want);
    expect(want.filter((line) => line.endsWith('"value":[1,[2]]}'))).toHaveLength(2);
    expect(want.filter((line) => line.endsWith('"value":4}'))).toHaveLength(2);
    const limited = await runCli(['select', '--order', 'arrival', '--limit', '3', ...paths], { input: text });
    expect(lines(limited.stdout)).toEqual(expectedLines(text, paths).slice(0, 3));
    const normalized = await runCli(
      ['select', '--order', 'arrival', '--with-normalized-path', '--with-path', ...paths],
      {
        input: text,
      },
    );
    expect(lines(normalized.stdout)).toEqual(expectedLines(text, paths, { withPath: true, normalized: true }));
  });

  test('--ndjson: each value in turn', async () => {
    const text = '[1, [2, 3]]\n{"a": {"c": 1}, "b": [{"c": 2}]}\n[[4]]\n';
    for (const query of ['$[*, 0]', "$..['a','b']..c", '$..[0, *]']) {
      const out = await runCli(['select', '--ndjson', '--order', 'arrival', '--with-path', query], { input: text });
      expect(lines(out.stdout), query).toEqual(expectedLines(text, [query], { withPath: true, ndjson: true }));
      const count = await runCli(['count', '--ndjson', '--order', 'arrival', query], { input: text });
      expect(count.stdout, query).toBe(`${expectedLines(text, [query], { ndjson: true }).length}\n`);
    }
  });

  test('a document of many 256 KiB reads, elements and names across the reads', async () => {
    const rng = createRng(SEED + 1);
    const items: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const long = i % 500 === 7 ? 'y'.repeat(70000 + rng.int(1000)) : 'z'.repeat(rng.int(300));
      const name = i % 700 === 11 ? `"${'k'.repeat(90000)}"` : '"x"';
      items.push(
        `{ "a": [ ${i}, { "c": "${long}" } ],\n  ${name}: { "b": { "a": { "c": [${i}, "${long.slice(0, 40)}"] } } } }`,
      );
    }
    const text = `[${items.join(',\n ')}]`;
    const input = join(dir, 'many_reads.json');
    writeFileSync(input, text);
    for (const query of ["$..['a','b']..c", '$[*, 0]', "$..[*, 'c']"]) {
      const out = await runCli(['select', '--order', 'arrival', '--with-path', query, '$..c', input]);
      expect(out.stderr, query).toBe('');
      const got = canonicalKeys(lines(out.stdout));
      const want = expectedLines(text, [query, '$..c'], { withPath: true });
      expect(got.length, query).toBe(want.length);
      expect(got, query).toEqual(want);
      const count = await runCli(['count', '--order', 'arrival', query, input]);
      expect(count.stdout, query).toBe(`${expectedLines(text, [query]).length}\n`);
    }
  });

  test('standard input written in small pieces: reads that end anywhere', async () => {
    const rng = createRng(SEED + 2);
    const text = Array.from({ length: 4 }, () => randomRoot(rng)).join('\n');
    for (const query of ['$[0, *]', "$..['a','b']..c", '$..[0, *]']) {
      const args = ['select', '--ndjson', '--order', 'arrival', '--with-path', query, '-'];
      const out = await runInPieces(args, text, rng, 40);
      expect(out.stderr, query).toBe('');
      expect(canonicalKeys(lines(out.stdout)), query).toEqual(
        expectedLines(text, [query], { withPath: true, ndjson: true }),
      );
      const count = await runInPieces(['count', '--ndjson', '--order', 'arrival', query, '-'], text, rng, 40);
      expect(count.stdout, query).toBe(`${expectedLines(text, [query], { ndjson: true }).length}\n`);
    }
  });
});

describe("a union held for RFC order: createParser's order, by default", () => {
  const HELD = ['$[*, 0]', '$[0, *]', '$[1, 0]', "$[*]['c', 'a']", "$[*]['b', 'a'][*]", "$[0, 2]['c', 'a']"];
  const rfc = { order: 'rfc' } as const;

  test(`${HELD.length} queries over random documents, every output shape and count (seed ${SEED})`, async () => {
    const rng = createRng(SEED + 3);
    for (let d = 0; d < 3; d++) {
      const text = randomRoot(rng);
      const input = join(dir, `held${d}.json`);
      writeFileSync(input, text);
      for (const query of HELD) {
        const context = `document ${d}, ${query}`;
        const plain = await runCli(['select', query, input]);
        expect(plain.stderr, context).toBe('');
        const want = expectedLines(text, [query], rfc);
        expect(lines(plain.stdout), context).toEqual(want);
        const withPath = await runCli(['select', '--with-path', '--with-normalized-path', query, '$[*].a', input]);
        expect(canonicalKeys(lines(withPath.stdout)), context).toEqual(
          expectedLines(text, [query, '$[*].a'], { ...rfc, withPath: true, normalized: true }),
        );
        const limited = await runCli(['select', '--limit', '2', query, input]);
        expect(lines(limited.stdout), context).toEqual(want.slice(0, 2));
        const count = await runCli(['count', query, input]);
        expect(count.stdout, context).toBe(`${want.length}\n`);
      }
    }
  });

  test('a held node outlives many 256 KiB reads', async () => {
    const items = Array.from({ length: 3000 }, (_, i) => `{"c": ${i}, "a": "${'y'.repeat(i % 7 === 0 ? 2000 : 300)}"}`);
    const input = join(dir, 'held_reads.json');
    writeFileSync(input, `[${items.join(',\n')}]`);
    for (const query of ['$[*, 0]', '$[*, 1]', "$[*]['a', 'c']"]) {
      const out = await runCli(['select', query, input]);
      expect(out.stderr, query).toBe('');
      expect(lines(out.stdout), query).toEqual(expectedLines(`[${items.join(',\n')}]`, [query], rfc));
    }
  });

  test('NDJSON from standard input in small pieces; --skip-invalid refused', async () => {
    const rng = createRng(SEED + 4);
    const text = Array.from({ length: 4 }, () => randomRoot(rng)).join('\n');
    for (const query of ['$[*, 0]', "$[*]['c', 'a']"]) {
      const out = await runInPieces(['select', '--ndjson', '--with-path', query, '-'], text, rng, 40);
      expect(out.stderr, query).toBe('');
      expect(canonicalKeys(lines(out.stdout)), query).toEqual(
        expectedLines(text, [query], { ...rfc, withPath: true, ndjson: true }),
      );
    }
    const refused = await runCli(['select', '--ndjson', '--skip-invalid', '$[1, 0]'], { input: text });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('which --skip-invalid could cut short');
  });
});
