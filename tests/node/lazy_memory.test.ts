// lazyParse() memory (docs/lazy.md, "Memory"): documents dropped without releaseLazy() cost no wasm heap beyond the
// resident budget, however many and however late the garbage collector runs (a child process reads 40 documents of
// 48 MB in a synchronous loop, where no finalizer gets a turn); documents whose native index was evicted load it
// again and read as before; out of memory is a JsonLimitError with code OUT_OF_MEMORY in every lazy path (an
// allocation failure injected into the native index).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { JsonLimitError, JsonSyntaxError, createParser, lazyParse, releaseLazy } from '../../dist/index.js';
import { loadedBuildKind, nativeModule, rawExports } from '../../dist/internal.js';
import { lazyTuning } from '../../dist/lazy/index.js';
import { createRng, randomDocument } from '../support/random_json.mjs';

// A lazy document is read like the JSON.parse result.
type Any = any;
const DEFAULT_TUNING = { ...lazyTuning };
afterEach(() => Object.assign(lazyTuning, DEFAULT_TUNING));
const MB = 1024 * 1024;
const CHILD = fileURLToPath(new URL('../support/lazy_dropped_documents.mjs', import.meta.url));

describe('dropped documents', () => {
  test('40 documents of 48 MB, each dropped before the next in a synchronous loop: flat memory', () => {
    const build = loadedBuildKind() === 'simd128' ? 'simd' : 'scalar';
    const out = execFileSync(process.execPath, [CHILD, build, '40'], { encoding: 'utf8', timeout: 240_000 });
    const result = JSON.parse(out.trim().split('\n').at(-1)!) as {
      done: number;
      textBytes: number;
      peakRss: number;
      peakHeap: number;
      error: unknown;
    };
    expect(result.error).toBeNull();
    expect(result.done).toBe(40);
    // The budget (64 MiB) or one document with its container table, whichever is larger, plus the heap's own.
    expect(result.peakHeap).toBeLessThan(Math.max(64 * MB, result.textBytes * 1.25) + 8 * MB);
    // The text, a live document (its copy in the JS heap and its index), garbage the collector has not reached
    // yet: a few documents' worth, never 40 (the old design failed at the 33rd with 2.1 GB). How many depends on
    // V8's background GC threads: 6.5 texts' worth on an idle machine, 12 while the other test files load both
    // cores; 40 retained documents would be over 40.
    expect(result.peakRss).toBeLessThan(20 * result.textBytes);
  }, 300_000);
});

describe('documents whose index was evicted', () => {
  test('load it again: every read, key list and error as before', () => {
    Object.assign(lazyTuning, { residentBudget: 0, proxyMinBytes: 16, findLimit: 2 });
    const rng = createRng(0x1a2b);
    const texts = Array.from({ length: 12 }, () => randomDocument(rng, { maxDepth: 5, maxItems: 6, budget: 80 }));
    // Each lazyParse evicts the index of the documents before it (budget 0).
    const docs = texts.map((t) => lazyParse(t) as Any);
    const heapWithOne = nativeModule().heapInUse();
    for (let round = 0; round < 3; round++) {
      for (let k = 0; k < 40; k++) {
        const i = rng.int(texts.length);
        const expected = JSON.parse(texts[i]!) as unknown;
        // A random element, then the whole document: listings of containers never listed before reload the index.
        const items = expected as unknown[];
        if (items.length > 0) {
          const at = rng.int(items.length);
          expect(JSON.stringify(docs[i][at]), `document ${i} [${at}]`).toBe(JSON.stringify(items[at]));
        }
        if (round === 2) {
          expect(JSON.stringify(docs[i]), `document ${i}`).toBe(JSON.stringify(expected));
        }
      }
    }
    // One index at a time: the heap never held more than the document in use.
    expect(nativeModule().heapInUse()).toBeLessThanOrEqual(heapWithOne + 64 * 1024);
    for (const d of docs) releaseLazy(d);

    // An error found after a reload has the position the parser reports.
    const broken = lazyParse('{"a":[1,2],"b":[3,tru]}') as Any;
    lazyParse('[0]');
    expect(broken.a[1]).toBe(2);
    lazyParse('[0]');
    const error = (() => {
      try {
        return broken.b[1];
      } catch (e) {
        return e;
      }
    })() as JsonSyntaxError;
    expect(error).toBeInstanceOf(JsonSyntaxError);
    const parser = createParser({ path: '$' });
    const expected = (() => {
      try {
        parser.push('{"a":[1,2],"b":[3,tru]}');
        return parser.end();
      } catch (e) {
        return e;
      }
    })() as JsonSyntaxError;
    expect([error.code, error.offset, error.line, error.column]).toEqual([
      expected.code,
      expected.offset,
      expected.line,
      expected.column,
    ]);
  });
});

describe('out of memory', () => {
  /** Runs `body` with one raw export replaced by `fake`. */
  function injected(name: string, fake: (...args: number[]) => number, body: () => void): void {
    const exports = rawExports();
    const real = exports[name];
    exports[name] = fake;
    try {
      body();
    } finally {
      exports[name] = real;
    }
  }

  function outOfMemory(read: () => unknown): JsonLimitError {
    try {
      read();
    } catch (error) {
      expect(error).toBeInstanceOf(JsonLimitError);
      expect((error as JsonLimitError).code).toBe('OUT_OF_MEMORY');
      return error as JsonLimitError;
    }
    throw new Error('expected a JsonLimitError');
  }

  test('lazyParse(): the index or the room for the document cannot be allocated', () => {
    const baseline = nativeModule().heapInUse();
    injected(
      'lazy_index_new',
      () => 0,
      () => {
        const error = outOfMemory(() => lazyParse('{"a":1}'));
        expect(error.message).toMatch(/out of memory for a 7-byte lazyParse\(\) document/);
      },
    );
    injected(
      'lazy_index_reserve',
      () => 0,
      () => {
        outOfMemory(() => lazyParse(new TextEncoder().encode('[1,2,3]')));
        outOfMemory(() => lazyParse('"a string root"'));
      },
    );
    // Nothing allocated stays behind (the failures evicted the indexes of earlier documents too).
    expect(nativeModule().heapInUse()).toBeLessThanOrEqual(baseline);
  });

  test('a read that must load an evicted index again', () => {
    Object.assign(lazyTuning, { residentBudget: 0, proxyMinBytes: 1 });
    const doc = lazyParse('{"a":{"b":[1,2]},"c":{"d":3}}') as Any;
    expect(doc.a.b[0]).toBe(1);
    lazyParse('[]'); // evicts doc's index
    injected(
      'lazy_index_reserve',
      () => 0,
      () => {
        outOfMemory(() => doc.c.d);
      },
    );
    // Nothing broke: the next read loads it.
    expect(doc.c.d).toBe(3);
    releaseLazy(doc);
  });
});
