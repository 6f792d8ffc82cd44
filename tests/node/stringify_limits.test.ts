// The encoder's bounds: nesting past `maxDepth` (default 1024, the parsers' default, so the text written reads
// back) errors the stream with a JsonStringifyLimitError naming the depth and the path, at once even when the
// value never ends; and writing never holds the event loop: a 10 ms interval keeps firing while a large plain
// value, or a deep one within the limit, is written and read in a loop of promise jobs.
import { PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, test } from 'vitest';
import {
  createParser,
  JsonArrayStringifyStream,
  JsonStringifyLimitError,
  stringifyStream,
  type StringifyOptions,
} from '../../dist/index.js';
import { readAll } from '../support/stringify_read.js';

/** `depth` arrays nested around `inner`. */
function nested(depth: number, inner: unknown = 1): unknown {
  let value = inner;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** The outcome of parsing `text` with the parser's default maxDepth: the root, or the error's code. */
function readBack(text: string): unknown {
  try {
    const parser = createParser({ path: '$' });
    return [...parser.push(text), ...parser.end()][0];
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('maxDepth', () => {
  test('a toJSON that returns a new object holding itself errors within 1 s, naming maxDepth and the path', async () => {
    const o = {
      toJSON() {
        return { o };
      },
    };
    const started = performance.now();
    const { error, bytes } = await readAll(stringifyStream(o));
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(1000);
    expect(error).toBeInstanceOf(JsonStringifyLimitError);
    expect(error).toBeInstanceOf(RangeError);
    const e = error as JsonStringifyLimitError;
    expect(e.code).toBe('DEPTH_LIMIT');
    expect(e.maxDepth).toBe(1024);
    // The value whose object would open nesting 1025: the 1024th `o`.
    expect(e.path).toBe(`$${'.o'.repeat(1024)}`);
    expect(e.message).toMatch(/^Cannot write JSON: nesting deeper than maxDepth \(1024\) at \$\.o\.o.*\.o\.o$/);
    expect(e.message.length).toBeLessThan(200);
    // What was written before the error is at most the 1024 levels allowed.
    expect(bytes.length).toBeLessThanOrEqual('{"o":'.length * 1024);
  });

  test.each([
    ['the default', undefined, 1024],
    ['maxDepth: 3', { maxDepth: 3 }, 3],
    ['maxDepth: 1', { maxDepth: 1 }, 1],
  ] as [string, StringifyOptions | undefined, number][])(
    '%s: exactly maxDepth levels are written, one more is the error (plain, with a replacer, with space)',
    async (_name, options, max) => {
      for (const extra of [{}, { replacer: (_k: string, v: unknown) => v }, { space: 1 }]) {
        const within = await readAll(stringifyStream(nested(max), { ...options, ...extra }));
        expect(within.error).toBeUndefined();
        expect(JSON.parse(within.text)).toEqual(nested(max));
        // The parser with the same default reads back what the default lets through.
        if (options === undefined) expect(readBack(within.text)).toEqual(nested(max));
        const deeper = await readAll(stringifyStream({ a: [nested(max - 1, { b: 1 })] }, { ...options, ...extra }));
        expect(deeper.error).toBeInstanceOf(JsonStringifyLimitError);
        // {a: [...]} is nesting 1, the array 2, so the array opening nesting max + 1 is max - 1 levels below.
        expect((deeper.error as JsonStringifyLimitError).path).toBe(`$.a${'[0]'.repeat(max - 1)}`);
      }
    },
  );

  test('the fast path (plain values, batches of elements) honours the limit where it is written', async () => {
    // A plain array of rows, one of them too deep: the batch stops before it, the general path reports it. Nesting:
    // the root 1, rows 2, a row 3, deep 4 to 7.
    const rows = Array.from({ length: 50 }, (_, i) => (i === 37 ? { deep: nested(4) } : { row: i }));
    const { error } = await readAll(stringifyStream({ rows }, { maxDepth: 5 }));
    expect((error as JsonStringifyLimitError).path).toBe('$.rows[37].deep[0][0]');
    const ok = await readAll(stringifyStream({ rows }, { maxDepth: 7 }));
    expect(JSON.parse(ok.text)).toEqual({ rows });
  });

  test('a source is closed when its value is too deep; stream values are named by their index', async () => {
    // An iterable whose iterator says when it is returned (a generator not yet started runs no finally).
    let closed = false;
    const rows = {
      [Symbol.iterator]: () => ({
        next: () => ({ done: false, value: 1 }),
        return: () => {
          closed = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const { error } = await readAll(stringifyStream([[rows]], { maxDepth: 2 }));
    expect((error as JsonStringifyLimitError).path).toBe('$[0][0]');
    expect(closed).toBe(true);

    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue({ a: 1 });
        controller.enqueue({ a: [[1]] });
        controller.close();
      },
    }).pipeThrough(new JsonArrayStringifyStream({ maxDepth: 3 }));
    const out = await readAll(stream);
    expect((out.error as JsonStringifyLimitError).path).toBe('$[1].a[0]');
  });

  test('options.maxDepth: a TypeError at the call for a value out of range', () => {
    for (const maxDepth of [0, -1, 1.5, '3', 1_000_001]) {
      expect(() => stringifyStream(1, { maxDepth } as StringifyOptions)).toThrow(
        /^stringifyStream\(\): options\.maxDepth must be an integer from 1 to 1000000, got /,
      );
    }
  });
});

describe('long strings, written in pieces', () => {
  const PIECE = 64 * 1024; // LONG_STRING_CHARS in long_string.ts
  const pad = (n: number) => 'a'.repeat(n);
  const strings: [string, string][] = [
    ['a pair across the first boundary', `${pad(PIECE - 1)}😀${pad(PIECE)}é`],
    ['a lone high surrogate at the boundary', `${pad(PIECE - 1)}\ud800b${pad(10)}`],
    ['a lone low surrogate after it', `${pad(PIECE)}\udc00${pad(PIECE)}`],
    ['escapes everywhere', '"\\\n\u0001é😀'.repeat(40_000)],
    ['exactly two pieces', pad(2 * PIECE)],
  ];
  test.each(strings)('%s: as JSON.stringify writes it, at the root, in an array, as a member', async (_n, text) => {
    for (const value of [text, [1, text, 2], { a: text, b: [text] }]) {
      const { text: out, error } = await readAll(stringifyStream(value, { chunkBytes: 1000 }));
      expect(error).toBeUndefined();
      expect(out === JSON.stringify(value)).toBe(true);
    }
  });
});

/**
 * Reads `stream` to its end in a loop of promise jobs while a 10 ms interval runs; returns the longest gap
 * between two ticks (or between the start, or the last tick, and the end) that the encoder can be charged with,
 * and the bytes read. A gap is charged the lesser of: its wall time less the garbage collections that ran in it
 * (V8's pauses, not the encoder's work: on this shared machine scavenges took up to 110 ms and mark-compacts up
 * to 380 ms, --trace-gc), and the CPU time the process had in it (when other processes hold both cores, the
 * wall time goes on while nothing here runs).
 */
async function longestGap(stream: ReadableStream<Uint8Array>): Promise<{ gap: number; bytes: number }> {
  // The value was just built: let the collection that follows run first (in tasks, with incremental marking
  // that the 'gc' entries do not all show: a 380 ms gap with 227 ms of reported pauses was seen at the start).
  await new Promise((resolve) => setTimeout(resolve, 200));
  const collections: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) collections.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const ticks = [[performance.now(), cpu()] as const];
  const timer = setInterval(() => ticks.push([performance.now(), cpu()]), 10);
  let bytes = 0;
  try {
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
  } finally {
    clearInterval(timer);
  }
  ticks.push([performance.now(), cpu()]);
  // The observer reports in a later task.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  let gap = 0;
  for (let i = 1; i < ticks.length; i++) {
    const [[a, cpuA], [b, cpuB]] = [ticks[i - 1]!, ticks[i]!];
    let paused = 0;
    for (const c of collections) paused += Math.max(0, Math.min(b, c.end) - Math.max(a, c.start));
    gap = Math.max(gap, Math.min(b - a - paused, cpuB - cpuA));
  }
  return { gap, bytes };
}

// The writer yields after 10 ms of work (SLICE_MS in stepper.ts); a step it cannot split takes well under a ms
// here. The slack is for what the charge above does not remove: the process's other threads (GC helpers, the
// compiler) count in its CPU time, and a collection's pause and the preemption may overlap. Unfixed, the gaps
// are the whole run (0.6 to 33 s), far above the bound.
const MAX_GAP_MS = 50 + 100;

describe('the event loop keeps running', () => {
  test('a 50 MB array of plain objects', async () => {
    // 100,000 rows of about 560 bytes: few objects for their size, so that a collection of the old space (which
    // marks every object, whatever writes) stays short next to the bound.
    const filler = 'x'.repeat(480);
    const rows = Array.from({ length: 100_000 }, (_, i) => ({
      id: i,
      name: `row ${i}`,
      tags: ['a', 'b', 'c'],
      score: i / 7,
      text: `${i} ${filler}`,
    }));
    const { gap, bytes } = await longestGap(stringifyStream(rows));
    expect(bytes).toBeGreaterThan(50_000_000);
    expect(gap).toBeLessThan(MAX_GAP_MS);
  }, 120_000);

  test('one 50 MB string', async () => {
    const text = 'text with "quotes" and é\n'.repeat(2_000_000);
    // repeat() makes a rope, which V8 flattens whole (0.5 s here) the first time a character is read: what the
    // program does to its string before it is written, not the encoder's work.
    expect(text.charCodeAt(text.length - 1)).toBe(10);
    const { gap, bytes } = await longestGap(stringifyStream({ text }));
    expect(bytes).toBeGreaterThan(50_000_000);
    expect(gap).toBeLessThan(MAX_GAP_MS);
  }, 120_000);

  test('a deep value within the limit, written member by member', async () => {
    // 1000 levels of objects, each with 1000 members whose toJSON keeps them off the fast path: a million steps
    // of the general path, and the deepest member at nesting 1001 (within the default 1024).
    const leaf = { toJSON: (key: string) => key.length };
    let value: unknown = 0;
    for (let d = 0; d < 1000; d++) {
      const level: Record<string, unknown> = { next: value };
      for (let i = 0; i < 1000; i++) level[`k${i}`] = leaf;
      value = level;
    }
    const { gap, bytes } = await longestGap(stringifyStream(value));
    expect(bytes).toBeGreaterThan(8_000_000);
    expect(gap).toBeLessThan(MAX_GAP_MS);
  }, 120_000);
});
