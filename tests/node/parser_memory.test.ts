// Push parser memory (HACKING.md, "Parser memory"): parsers dropped without end() or close() in a synchronous loop,
// where no finalizer ever gets a turn, leave the wasm heap flat, whether they held a large partial element or
// nothing; an idle parser costs a few kilobytes; an element far larger than the input window, of non-ASCII text
// whose escaped form would exceed the engine's longest string, parses. Each in a child process
// (support/parser_memory_child.mjs), so that one measurement sees nothing of another's garbage. Last, in this
// process: a carry the JS heap refuses is OUT_OF_MEMORY like every other.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { createParser, JsonLimitError, openJson } from '../../dist/index.js';
import { loadedBuildKind } from '../../dist/internal.js';

const MB = 1024 * 1024;
const CHILD = fileURLToPath(new URL('../support/parser_memory_child.mjs', import.meta.url));

function child<T>(args: string[], flags: string[] = []): T {
  const build = loadedBuildKind() === 'simd128' ? 'simd' : 'scalar';
  const out = execFileSync(process.execPath, [...flags, CHILD, build, ...args], {
    encoding: 'utf8',
    timeout: 240_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as T;
}

interface Dropped {
  done: number;
  peakHeap: number;
  peakRss: number;
  error: unknown;
}

test('20,000 dropped parsers, each holding a 300 KB partial element: all run, in flat memory', () => {
  const result = child<Dropped>(['dropped-big', '20000']);
  expect(result.error).toBeNull();
  expect(result.done).toBe(20_000);
  // What the module keeps of them: the states of the resident parsers, a few kilobytes each (it was 2 GB: 68 KB
  // and the partial element per parser, and out-of-memory failures).
  expect(result.peakHeap).toBeLessThan(1 * MB);
  // Their carries live in the JS heap, where the collector frees them: about 6 GB in all, never held at once.
  expect(result.peakRss).toBeLessThan(512 * MB);
}, 300_000);

test('20,000 dropped parsers after a small chunk: flat memory', () => {
  const result = child<Dropped>(['dropped-tiny', '20000']);
  expect(result.error).toBeNull();
  expect(result.done).toBe(20_000);
  expect(result.peakHeap).toBeLessThan(1 * MB);
  expect(result.peakRss).toBeLessThan(512 * MB);
}, 300_000);

test('an idle parser costs a few kilobytes: 10,000 of them, each in the middle of an element', () => {
  const result = child<{ count: number; wasmPerParser: number; jsPerParser: number; names: number; heapAfter: number }>(
    ['idle', '10000'],
    ['--expose-gc'],
  );
  expect(result.names).toBe(result.count);
  // At most RESIDENT_LIMIT of them hold a native state; the others wait as bytes in the JS heap.
  expect(result.wasmPerParser).toBeLessThan(256);
  expect(result.jsPerParser).toBeLessThan(4096);
  // Back to where it started but for the allocator's bookkeeping of the region it grew: the same 12 bytes for 10
  // or 10,000 parsers with emmalloc, where one byte per parser would leave 10,000.
  expect(result.heapAfter).toBeLessThan(64);
}, 300_000);

test('one 200 MiB string of é (under the 256 MiB maxElementBytes) parses in value mode and in openJson().get()', () => {
  // Escaped as ASCII it would be 600 MiB of text, beyond V8's longest string: it is decoded from the carry as UTF-8.
  const result = child<{ parser: unknown; openJson: unknown }>(['huge-string', '200']);
  expect(result).toEqual({ mib: 200, parser: 'ok', openJson: 'ok' });
}, 300_000);

test('value output: an element too long for a string is a JsonLimitError where strings end, whatever maxElementBytes', () => {
  // maxElementBytes 1 GiB, a 512 MiB string: V8 cannot hold its text, so the limit is the longest string every
  // engine holds, 2^29 - 24 bytes past the element's first byte (the quote at offset 1).
  const result = child<{ error: { name: string; code: string; offset: number; line: number; column: number } }>([
    'string-limit',
  ]);
  expect(result.error).toMatchObject({
    name: 'JsonLimitError',
    code: 'ELEMENT_TOO_LARGE',
    offset: 1 + 2 ** 29 - 24,
    line: 1,
    column: 2 + 2 ** 29 - 24,
  });
}, 300_000);

// Issue 18.5. The carry lives in the JS heap, where allocating it can fail with the engine's own RangeError; the
// parser reports it as every other out-of-memory, and delivers nothing of a call whose results it cannot read.
// The failure is injected: a Uint8Array constructor that refuses buffers above 100 KB, in this test alone.
test('the JS heap refusing the carry is a JsonLimitError OUT_OF_MEMORY, sticky, in createParser and openJson', async () => {
  const Real = globalThis.Uint8Array;
  class Refusing extends Real {
    constructor(...args: unknown[]) {
      if (typeof args[0] === 'number' && args[0] > 100_000) throw new RangeError('Array buffer allocation failed');
      super(...(args as [number]));
    }
  }
  const chunk = 'x'.repeat(65536);
  globalThis.Uint8Array = Refusing as Uint8ArrayConstructor;
  try {
    const parser = createParser();
    expect(parser.push('[1,2,"x')).toEqual([1, 2]);
    let error: unknown;
    let pushed = 0;
    try {
      for (; pushed < 10; pushed++) parser.push(chunk);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JsonLimitError);
    expect((error as JsonLimitError).code).toBe('OUT_OF_MEMORY');
    expect(pushed).toBeLessThan(3);
    expect(() => parser.end()).toThrow(error as Error);

    const doc = openJson(
      (async function* () {
        yield '{"a":1,"s":"';
        for (let i = 0; i < 10; i++) yield chunk;
        yield '"}';
      })(),
    );
    expect(await doc.get('$.a')).toBe(1);
    await expect(doc.get('$.s')).rejects.toMatchObject({ name: 'JsonLimitError', code: 'OUT_OF_MEMORY' });
    await doc.close();
  } finally {
    globalThis.Uint8Array = Real;
  }
});
