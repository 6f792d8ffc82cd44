// NDJSON that survives a bad line (`onInvalidLine`): seeded random streams of valid and broken lines, fed whole, a
// byte at a time and in random chunks, give what a line model gives: split on "\n", blank lines ignored, each
// line judged by JSON.parse (strict UTF-8 first), its error's code and position being those of the line parsed on
// its own by the strict parser; the elements of good lines are JSON.parse's values. The same through
// parseJsonArray and JsonArrayStream; the option's checks, a throwing callback, per-line limits, the count.
import { describe, expect, test } from 'vitest';
import {
  createParser,
  type InvalidLine,
  JsonArrayStream,
  JsonLimitError,
  JsonSyntaxError,
  parseJsonArray,
} from '../../dist/index.js';
import { RESIDENT_LIMIT } from '../../dist/native/parser_pool.js';
import { concatBytes, createRng, mutate, randomDocument } from '../support/random_json.mjs';
import { asyncIterableOf, collect, collectStream } from '../support/sources.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x4e444a);
const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

interface Report {
  code: string;
  offset: number;
  line: number;
  column: number;
  lineText: string;
}

const reportOf = (e: InvalidLine): Report => ({
  code: e.code,
  offset: e.offset,
  line: e.line,
  column: e.column,
  lineText: e.lineText,
});

/** JSON.parse's verdict on one line's bytes: its value, or undefined when it is not one JSON text. */
function judge(line: Uint8Array): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(strictUtf8.decode(line)) };
  } catch {
    return undefined;
  }
}

/** The line model (see the header): the elements and reports an `onInvalidLine` parser must give. */
function model(input: Uint8Array): { values: unknown[]; reports: Report[] } {
  const values: unknown[] = [];
  const reports: Report[] = [];
  let start = 0;
  for (let n = 1; start <= input.length; n++) {
    let end = input.indexOf(0x0a, start);
    const last = end < 0;
    if (last) end = input.length;
    const line = input.subarray(start, end);
    if (!line.every((b) => b === 0x20 || b === 0x09 || b === 0x0d)) {
      const verdict = judge(line);
      // The line on its own, behind a space (a leading byte order mark is an error mid-stream) and before its
      // newline: the strict parser's error, its end of input being the line's end.
      const alone = createParser({ path: '$' });
      const got: unknown[] = [];
      let error: JsonSyntaxError | JsonLimitError | undefined;
      try {
        got.push(...alone.push(concatBytes(Uint8Array.of(0x20), line, last ? new Uint8Array(0) : Uint8Array.of(10))));
        got.push(...alone.end());
      } catch (e) {
        error = e as JsonSyntaxError;
      }
      expect({ line: n, valid: error === undefined }).toEqual({ line: n, valid: verdict !== undefined });
      if (verdict !== undefined) {
        values.push(verdict.value);
      } else {
        values.push(...got); // elements the bad line completed before its error
        const at = Math.min(error!.offset - 1, line.length);
        const text = new TextDecoder().decode(line.subarray(0, 80));
        reports.push({ code: error!.code, offset: start + at, line: n, column: at + 1, lineText: text });
      }
    }
    if (last) break;
    start = end + 1;
  }
  return { values, reports };
}

/** Random lines: one-line documents, some mutated, blank lines, CRLF; a newline at the end or not. */
function randomStream(rng: ReturnType<typeof createRng>): Uint8Array {
  const parts: Uint8Array[] = [];
  const count = rng.range(1, 10);
  for (let i = 0; i < count; i++) {
    let line: Uint8Array;
    if (rng.chance(0.1)) {
      line = encoder.encode(rng.pick(['', ' ', '\t\r']));
    } else {
      const doc = randomDocument(rng, { maxDepth: 3, maxItems: 4, budget: 12 }).replace(/\n/g, ' ');
      line = encoder.encode(doc);
      for (let m = rng.chance(0.4) ? rng.range(1, 2) : 0; m > 0; m--) line = mutate(rng, line);
    }
    parts.push(line);
    if (i + 1 < count || rng.chance(0.5)) parts.push(encoder.encode(rng.chance(0.15) ? '\r\n' : '\n'));
  }
  const out = concatBytes(...parts);
  return out[0] === 0xef ? concatBytes(Uint8Array.of(0x20), out) : out;
}

function chunkings(rng: ReturnType<typeof createRng>, input: Uint8Array): Uint8Array[][] {
  const random: Uint8Array[] = [];
  for (let at = 0; at < input.length; ) {
    const n = rng.range(0, 40);
    random.push(input.subarray(at, at + n));
    at += n;
  }
  const bytewise = Array.from(input, (_, i) => input.subarray(i, i + 1));
  return [[input], bytewise, random];
}

describe('onInvalidLine: random streams match the line model in every chunking', () => {
  test('createParser', () => {
    const rng = createRng(SEED);
    for (let round = 0; round < 150; round++) {
      const input = randomStream(rng);
      const want = model(input);
      for (const chunks of chunkings(rng, input)) {
        const reports: Report[] = [];
        const parser = createParser({ ndjson: true, onInvalidLine: (e) => reports.push(reportOf(e)) });
        const values: unknown[] = [];
        for (const chunk of chunks) values.push(...parser.push(chunk));
        values.push(...parser.end());
        const context = { round, input: new TextDecoder().decode(input), chunks: chunks.length };
        expect({ ...context, values, reports }).toEqual({ ...context, ...want });
        expect(parser.skippedLines).toBe(want.reports.length);
      }
    }
  });

  test('parsers saved and restored between their chunks (more than RESIDENT_LIMIT alive at once)', () => {
    const rng = createRng(SEED + 2);
    const inputs = Array.from({ length: RESIDENT_LIMIT + 6 }, () => randomStream(rng));
    const reports = inputs.map((): Report[] => []);
    const values = inputs.map((): unknown[] => []);
    const parsers = inputs.map((_, i) =>
      createParser({ ndjson: true, onInvalidLine: (e) => reports[i]!.push(reportOf(e)) }),
    );
    const longest = Math.max(...inputs.map((input) => input.length));
    for (let at = 0; at < longest; at += 7) {
      parsers.forEach((parser, i) => {
        values[i]!.push(...parser.push(inputs[i]!.subarray(at, at + 7)));
      });
    }
    parsers.forEach((parser, i) => {
      values[i]!.push(...parser.end());
      expect({ i, values: values[i], reports: reports[i] }).toEqual({ i, ...model(inputs[i]!) });
    });
  });

  test('parseJsonArray and JsonArrayStream', async () => {
    const rng = createRng(SEED + 1);
    for (let round = 0; round < 40; round++) {
      const input = randomStream(rng);
      const want = model(input);
      const chunks = chunkings(rng, input)[2]!;
      const fromIterator: Report[] = [];
      const a = await collect(
        parseJsonArray(asyncIterableOf(chunks), { ndjson: true, onInvalidLine: (e) => fromIterator.push(reportOf(e)) }),
      );
      expect(a.error).toBeUndefined();
      expect({ values: a.values, reports: fromIterator }).toEqual(want);
      const fromStream: Report[] = [];
      const stream = new JsonArrayStream({ ndjson: true, onInvalidLine: (e) => fromStream.push(reportOf(e)) });
      const b = await collectStream(new Blob(chunks.map((c) => c.slice())).stream().pipeThrough(stream));
      expect(b.error).toBeUndefined();
      expect({ values: b.values, reports: fromStream }).toEqual(want);
    }
  });
});

describe('onInvalidLine', () => {
  test('each line is one document: a value cut by its newline, two on a line; errors keep their classes', () => {
    const seen: InvalidLine[] = [];
    const parser = createParser({ ndjson: true, maxDepth: 2, onInvalidLine: (e) => seen.push(e) });
    const values = [...parser.push('{"a":\n[1]\n1 2\n[[[0]]]\n"ok"\n'), ...parser.push('tru'), ...parser.end()];
    expect(values).toEqual([[1], 1, 'ok']);
    expect(seen.map((e) => [e.constructor, e.code, e.line, e.column, e.lineText])).toEqual([
      [JsonSyntaxError, 'UNEXPECTED_END', 1, 6, '{"a":'],
      [JsonSyntaxError, 'TRAILING_DATA', 3, 3, '1 2'],
      [JsonLimitError, 'DEPTH_LIMIT', 4, 3, '[[[0]]]'],
      [JsonSyntaxError, 'UNEXPECTED_END', 6, 4, 'tru'],
    ]);
    expect(seen[0]!.message).toMatch(/at byte 5 \(line 1, column 6\)/);
    expect(parser.skippedLines).toBe(4);
  });

  test('needs ndjson and a function', () => {
    expect(() => createParser({ onInvalidLine: () => {} })).toThrow(
      new TypeError('createParser(): options.onInvalidLine needs ndjson: true'),
    );
    expect(() => createParser({ ndjson: true, onInvalidLine: 1 as never })).toThrow(TypeError);
    expect(() => parseJsonArray(asyncIterableOf(['1']), { onInvalidLine: () => {} })).toThrow(TypeError);
  });

  test('without it an error stays fatal', () => {
    const parser = createParser({ ndjson: true });
    expect(parser.push('1\n')).toEqual([1]);
    expect(parser.push('2]\n3\n')).toEqual([2]); // the elements before the error, then the error
    expect(() => parser.push('4\n')).toThrow(JsonSyntaxError);
  });

  test('a callback that throws stops the parser with its error, after the elements before it', () => {
    const stop = new Error('stop');
    const parser = createParser({
      ndjson: true,
      onInvalidLine: () => {
        throw stop;
      },
    });
    expect(parser.push('1\nx\n2\n')).toEqual([1, 2]);
    expect(() => parser.push('3\n')).toThrow(stop);
  });
});
