// `--skip-invalid`: the command line over NDJSON with bad lines, a child process over dist/. Every good line's
// element is written (compared with JSON.parse of the line), every bad line is reported on standard error in the
// library's words (the message onInvalidLine gets) with its excerpt and `skipped: line N`, then the count; exit 7
// when lines were skipped, 0 when none; lines longer than the CLI's first 64 KiB read; count and validate; usage.
import { describe, expect, test } from 'vitest';
import { createParser, type InvalidLine } from '../../dist/index.js';
import { createRng, randomDocument } from '../support/random_json.mjs';
import { lines, runCli } from './cli_run.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x5c1f);

/** What the library reports for the input's bad lines, and its values. */
function library(input: string): { values: unknown[]; skipped: InvalidLine[] } {
  const skipped: InvalidLine[] = [];
  const parser = createParser({ ndjson: true, onInvalidLine: (e) => skipped.push(e) });
  const values = [...parser.push(input), ...parser.end()];
  return { values, skipped };
}

const countLine = (n: number) => `sluice: standard input: ${n} line${n === 1 ? '' : 's'} skipped\n`;

describe('sluice --skip-invalid', () => {
  test('select: the report of a skipped line, in the words of an error, then the count; exit 7', async () => {
    const input = '1\n[1,\n{"a":2}\n';
    const result = await runCli(['select', '--ndjson', '--skip-invalid', '$'], { input });
    const [error] = library(input).skipped;
    expect(error!.message).toContain('at byte 5 (line 2, column 4)');
    expect(result.stdout).toBe('1\n{"a":2}\n');
    expect(result.stderr).toBe(
      `sluice: standard input: ${error!.message}\n` +
        '  code: UNEXPECTED_END\n' +
        '  2 | [1,\n' +
        '    |    ^\n' +
        '  skipped: line 2\n' +
        countLine(1),
    );
    expect(result.code).toBe(7);
  });

  test('select: random lines, long ones across reads; every good line written, every bad one reported', async () => {
    const rng = createRng(SEED);
    const parts: string[] = [];
    for (let i = 0; i < 300; i++) {
      let line = randomDocument(rng, { maxDepth: 3, maxItems: 5, budget: 20 }).replace(/\n/g, ' ');
      if (rng.chance(0.03)) line = `{"long":"${'x'.repeat(rng.range(70_000, 300_000))}"}`;
      if (rng.chance(0.2)) line = line.slice(0, rng.int(line.length)) + rng.pick(['}', ']', ',', '"', 'x', '']);
      parts.push(line);
    }
    const input = parts.join('\n') + '\n';
    const { values, skipped } = library(input);
    expect(skipped.length).toBeGreaterThan(10); // the test means something
    const result = await runCli(['select', '--ndjson', '--skip-invalid', '$', '--no-progress'], { input });
    expect(result.code).toBe(7);
    expect(lines(result.stdout).map((l) => JSON.parse(l))).toEqual(values);
    const reported = [...result.stderr.matchAll(/^ {2}skipped: line (\d+)$/gm)].map((m) => Number(m[1]));
    expect(reported).toEqual(skipped.map((e) => e.line));
    for (const e of skipped)
      expect(result.stderr).toContain(`sluice: standard input: ${e.message}\n  code: ${e.code}\n`);
    expect(result.stderr.endsWith(countLine(skipped.length))).toBe(true);
  });

  test('count and validate skip the same lines; none skipped: exit 0 and the count 0', async () => {
    const input = '{"a":1}\n{"a":\n[]\nnul\n';
    const counted = await runCli(['count', '--ndjson', '--skip-invalid', '$'], { input });
    expect(counted).toMatchObject({ code: 7, stdout: '2\n' });
    expect(counted.stderr.endsWith(countLine(2))).toBe(true);
    const validated = await runCli(['validate', '--ndjson', '--skip-invalid'], { input });
    expect(validated).toMatchObject({ code: 7, stdout: '' });
    expect([...validated.stderr.matchAll(/skipped: line (\d+)/g)].map((m) => m[1])).toEqual(['2', '4']);
    const clean = await runCli(['validate', '--ndjson', '--skip-invalid'], { input: '1\n2\n' });
    expect(clean).toMatchObject({ code: 0, stdout: '', stderr: countLine(0) });
  });

  test('without --ndjson: a usage error', async () => {
    const result = await runCli(['select', '--skip-invalid', '$[*]'], { input: '[1]' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('sluice select: --skip-invalid needs --ndjson');
  });
});
