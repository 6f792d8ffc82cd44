// Error positions on input of many windows (the CLI reads 256 KiB at a time, createParser's module scans 64 KiB
// windows) with many newlines before the error: every error code's offset, line and column, checked against a
// reading of the input in JS, through the command line and createParser; and an out-of-memory forced in the
// command line by a small maximum wasm memory (V8's --wasm-max-mem-pages), whose position was computed with the
// line counts of the window's end (issue 29: a line too high and a column wrapped below zero), and in createParser
// and openJson by a carry the engine refuses (a test hook), which had no position at all (byte 0, line 1).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { JsonLimitError, JsonSyntaxError, createParser, init, openJson } from '../../dist/index.js';
import { limitCarryBytes } from '../../dist/internal.js';
import { createRng } from '../support/random_json.mjs';
import { BIN, cliEnv, runCli, type CliResult } from './cli_run.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x905);
const dir = mkdtempSync(join(tmpdir(), 'sluice-positions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const encoder = new TextEncoder();

/** Line and column (1-based, the column in bytes) of the byte at `offset`, read from the bytes themselves. */
function positionOf(bytes: Uint8Array, offset: number): { offset: number; line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 10) {
      line++;
      start = i + 1;
    }
  }
  return { offset, line, column: offset - start + 1 };
}

/**
 * `[` and about `size` bytes of array elements on lines of random lengths (some blank, some indented), each
 * followed by `,`: the start of a document whose error comes after many windows and newlines.
 */
function longPrefix(rng: ReturnType<typeof createRng>, size: number): string {
  const parts = ['[\n'];
  let length = 2;
  while (length < size) {
    const item = rng.chance(0.5)
      ? `{"id": ${rng.int(100000)}, "name": "${'x'.repeat(rng.int(120))}"}`
      : `[${rng.int(1000)}, true,\n  null]`;
    const line = `${' '.repeat(rng.int(6))}${item},${'\n'.repeat(1 + rng.int(2))}`;
    parts.push(line);
    length += line.length;
  }
  return parts.join('');
}

interface Case {
  readonly code: string;
  /** The document after the prefix, and the index in it of the offending byte (its length: the end of input). */
  readonly tail: Uint8Array;
  readonly at: number;
  readonly maxDepth?: number;
  readonly maxElementBytes?: number;
}

function ascii(text: string, marker = '@'): { tail: Uint8Array; at: number } {
  const at = text.indexOf(marker);
  return { tail: encoder.encode(text.replace(marker, '')), at: at < 0 ? text.length : at };
}

const CASES: readonly Case[] = [
  { code: 'EXPECTED_VALUE', ...ascii('1,\n  @]') },
  { code: 'EXPECTED_COMMA_OR_BRACKET', ...ascii('1\n  @2]') },
  { code: 'EXPECTED_COMMA_OR_BRACE', ...ascii('{"a": 1\n  @"b": 2}]') },
  { code: 'EXPECTED_KEY', ...ascii('{\n @,}]') },
  { code: 'EXPECTED_COLON', ...ascii('{"a"\n  @1}]') },
  { code: 'TRAILING_DATA', ...ascii('0]\n\n  @[]') },
  { code: 'INVALID_NUMBER', ...ascii('\n 0@1]') },
  { code: 'INVALID_LITERAL', ...ascii('\n tr@x]') },
  { code: 'CONTROL_CHARACTER', ...ascii('\n "a@\tb"]') },
  { code: 'INVALID_ESCAPE', ...ascii('\n "a\\@x"]') },
  { code: 'INVALID_UNICODE_ESCAPE', ...ascii('\n "\\u12@G4"]') },
  { code: 'INVALID_UTF8', tail: new Uint8Array([10, 32, 34, 97, 0xc0, 0xaf, 34, 93]), at: 4 },
  { code: 'UNEXPECTED_END', ...ascii('1,\n 2,\n') },
  // The root array is depth 1: the fifth `[` after it is the sixth level.
  { code: 'DEPTH_LIMIT', ...ascii('[\n [\n  [\n   [\n    @[]]]]]]'), maxDepth: 5 },
];

/** An element of 300,000 bytes on many lines: larger than a 100,000-byte limit, which it reaches three windows in. */
function tooLarge(rng: ReturnType<typeof createRng>): Case {
  const rows: string[] = [];
  let length = 1;
  while (length < 300_000) {
    const row = `\n${' '.repeat(rng.int(4))}${rng.int(1_000_000)},`;
    rows.push(row);
    length += row.length;
  }
  const text = `[${rows.join('')}0]]`;
  return { code: 'ELEMENT_TOO_LARGE', tail: encoder.encode(text), at: 100_000, maxElementBytes: 100_000 };
}

const rng = createRng(SEED);
/** Each case after a prefix of its own length (600 KB to 1.1 MB), so the errors fall anywhere in a window. */
const DOCUMENTS = [...CASES, tooLarge(rng)].map((c) => {
  const prefix = encoder.encode(longPrefix(rng, 600_000 + rng.int(500_000)));
  const bytes = new Uint8Array(prefix.length + c.tail.length);
  bytes.set(prefix);
  bytes.set(c.tail, prefix.length);
  return { ...c, bytes, expected: positionOf(bytes, prefix.length + c.at) };
});

/** The position in the CLI's message: `at byte N (line L, column C)`. */
function reported(result: CliResult): { offset: number; line: number; column: number } | undefined {
  const m = /at byte (\d+) \(line (\d+), column (\d+)\)/.exec(result.stderr);
  return m === null ? undefined : { offset: Number(m[1]), line: Number(m[2]), column: Number(m[3]) };
}

/** The CLI's exit code for an error code (docs/cli.md). */
function exitCodeOf(code: string): number {
  if (code === 'UNEXPECTED_END') return 4;
  return code === 'DEPTH_LIMIT' || code === 'ELEMENT_TOO_LARGE' || code === 'OUT_OF_MEMORY' ? 5 : 3;
}

function limitArgs(c: Case): string[] {
  const args: string[] = [];
  if (c.maxDepth !== undefined) args.push('--max-depth', String(c.maxDepth));
  if (c.maxElementBytes !== undefined) args.push('--max-element-bytes', String(c.maxElementBytes));
  return args;
}

describe('every error code on input of many windows: the exact offset, line and column', () => {
  test.each(DOCUMENTS.map((d) => [d.code, d] as const))('sluice select and validate: %s', async (code, d) => {
    const path = join(dir, `${code}.json`);
    writeFileSync(path, d.bytes);
    const commands = code === 'ELEMENT_TOO_LARGE' ? [['select', '$[*]']] : [['select', '$[*]'], ['validate']];
    for (const command of commands) {
      const result = await runCli([...command, path, ...limitArgs(d)]);
      expect(result.code, `${command[0]}: ${result.stderr}`).toBe(exitCodeOf(code));
      expect(result.stderr).toContain(code);
      expect(reported(result), command[0]).toEqual(d.expected);
    }
  });

  test.each(DOCUMENTS.map((d) => [d.code, d] as const))(
    'createParser, in chunks of 100,000 bytes: %s',
    async (code, d) => {
      await init();
      const parser = createParser({
        path: '$[*]',
        ...(d.maxDepth === undefined ? {} : { maxDepth: d.maxDepth }),
        ...(d.maxElementBytes === undefined ? {} : { maxElementBytes: d.maxElementBytes }),
      });
      let error: unknown;
      try {
        for (let at = 0; at < d.bytes.length; at += 100_000) parser.push(d.bytes.subarray(at, at + 100_000));
        parser.end();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(
        code === 'DEPTH_LIMIT' || code === 'ELEMENT_TOO_LARGE' ? JsonLimitError : JsonSyntaxError,
      );
      const e = error as JsonSyntaxError;
      expect(e.code).toBe(code);
      expect({ offset: e.offset, line: e.line, column: e.column }).toEqual(d.expected);
    },
  );
});

/** Runs the CLI under a wasm memory of at most `pages` 64 KiB pages. */
function runCliCapped(pages: number, args: readonly string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [`--wasm-max-mem-pages=${pages}`, BIN, ...args], {
    env: cliEnv(),
    stdio: 'pipe',
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  child.stdin.end();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const stdoutBytes = Buffer.concat(out);
      resolve({ code, signal, stdout: '', stdoutBytes, stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

describe('out of memory, forced by a small maximum wasm memory', () => {
  test('sluice select of one large value: exit 5, OUT_OF_MEMORY at an exact line and column', async () => {
    // One array of 6 MB on about 750,000 lines, selected whole: its carry outgrows 8 MiB of wasm memory (at about
    // 4 MB).
    const rows: string[] = ['['];
    let length = 1;
    while (length < 6_000_000) {
      const row = `\n${' '.repeat(rng.int(3))}${rng.int(100_000)},`;
      rows.push(row);
      length += row.length;
    }
    rows.push('0]');
    const bytes = encoder.encode(rows.join(''));
    const path = join(dir, 'large.json');
    writeFileSync(path, bytes);
    const result = await runCliCapped(128, ['select', '$', path, '--max-element-bytes', '2000000000']);
    expect(result.stderr).toContain('OUT_OF_MEMORY');
    expect(result.code).toBe(5);
    const got = reported(result);
    expect(got).toBeDefined();
    expect(got!.offset).toBeGreaterThan(0);
    expect(got!.offset).toBeLessThan(bytes.length);
    expect(got).toEqual(positionOf(bytes, got!.offset));
  });
});

describe('out of memory, forced by a carry the engine refuses (internal.ts: limitCarryBytes)', () => {
  // An element of 300,000 bytes on many lines after 0.6 MB of lines: its carry outgrows 100,000 bytes.
  const large = tooLarge(rng).tail;
  const prefix = encoder.encode(longPrefix(rng, 600_000));
  const bytes = new Uint8Array(prefix.length + large.length);
  bytes.set(prefix);
  bytes.set(large, prefix.length);
  const document = encoder.encode(`{"pad": ${new TextDecoder().decode(bytes)}}`);

  function expectLocated(error: unknown, input: Uint8Array, from: number): void {
    expect(error).toBeInstanceOf(JsonLimitError);
    const e = error as JsonLimitError;
    expect(e.code).toBe('OUT_OF_MEMORY');
    // Within the element whose carry could not grow, and located there exactly.
    expect(e.offset).toBeGreaterThan(from);
    expect(e.offset).toBeLessThan(from + large.length);
    expect({ offset: e.offset, line: e.line, column: e.column }).toEqual(positionOf(input, e.offset));
    expect(e.message).toContain(`at byte ${e.offset} (line ${e.line}, column ${e.column})`);
  }

  test('createParser: OUT_OF_MEMORY at an exact line and column', async () => {
    await init();
    limitCarryBytes(100_000);
    let error: unknown;
    try {
      const parser = createParser({ path: '$[*]' });
      for (let at = 0; at < bytes.length; at += 100_000) parser.push(bytes.subarray(at, at + 100_000));
      parser.end();
    } catch (e) {
      error = e;
    } finally {
      limitCarryBytes(Number.POSITIVE_INFINITY);
    }
    expectLocated(error, bytes, prefix.length);
  });

  test("openJson's get: OUT_OF_MEMORY at an exact line and column", async () => {
    await init();
    const from = prefix.length + '{"pad": '.length;
    limitCarryBytes(100_000);
    let error: unknown;
    try {
      const doc = openJson(
        (async function* () {
          for (let at = 0; at < document.length; at += 100_000) yield document.slice(at, at + 100_000);
        })(),
        { transient: true },
      );
      await doc.get(`$.pad[${countElements(prefix)}]`).catch((e: unknown) => {
        error = e;
      });
      await doc.close();
    } finally {
      limitCarryBytes(Number.POSITIVE_INFINITY);
    }
    expectLocated(error, document, from);
  });
});

/** The elements of the prefix's array (`[` then lines of `item,`): its top-level commas. */
function countElements(prefix: Uint8Array): number {
  const values = JSON.parse(`${new TextDecoder().decode(prefix)}0]`) as unknown[];
  return values.length - 1;
}
