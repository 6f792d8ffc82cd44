// openJson over long streams and with expand: a transient document reads a 200 MB stream (generated as it is
// read, never stored) in flat memory, both for a late value and for an iteration of every element; expanded child
// arrays stream in order, and return() early skips the rest of a child array with the fields after it intact.
import { describe, expect, test } from 'vitest';
import { JsonPassedError, openJson } from '../../dist/index.js';
import { nativeModule } from '../../dist/internal.js';
import { createRng } from '../support/random_json.mjs';

const encoder = new TextEncoder();
const MiB = 1024 * 1024;

/** `{"_embedded":{"articles":[...]},"total":N}` of about `bytes`, as 64 KiB chunks made on demand. */
function articles(bytes: number, onChunk: () => void): { stream: AsyncIterable<Uint8Array>; count: number } {
  const article = (i: number) =>
    JSON.stringify({
      id: i,
      title: `Article ${i}`,
      tags: ['a', 'b', 'c'],
      body: 'x'.repeat(300),
      author: { name: 'n', id: i % 97 },
    });
  const perBlock = 150;
  const block = encoder.encode(Array.from({ length: perBlock }, (_, k) => article(k)).join(',') + ',');
  const blocks = Math.ceil(bytes / block.length);
  const count = blocks * perBlock + 1;
  const head = encoder.encode('{"_embedded":{"articles":[');
  const tail = encoder.encode(article(-1) + `]},"total":${count}}`);
  async function* stream() {
    yield head;
    for (let b = 0; b < blocks; b++) {
      onChunk();
      yield block;
    }
    yield tail;
  }
  return { stream: stream(), count };
}

describe('transient documents in flat memory', () => {
  test('200 MB: iterate every article, then a late value; memory stays flat', async () => {
    let peak = 0;
    let chunks = 0;
    const sample = () => {
      if ((++chunks & 63) === 0) peak = Math.max(peak, process.memoryUsage().rss);
    };
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    const { stream, count } = articles(100 * MiB, sample);
    const doc = openJson(stream, { transient: true });
    let n = 0;
    for await (const a of doc.iterate<{ id: number }>('$._embedded.articles[*]')) {
      if (n === 0) expect(a.id).toBe(0);
      n++;
    }
    expect(n).toBe(count);
    expect(await doc.get('$.total')).toBe(count);

    const second = articles(100 * MiB, sample);
    const doc2 = openJson(second.stream, { transient: true });
    expect(await doc2.get('$._embedded.articles[0].author.name')).toBe('n');
    expect(await doc2.get('$.total')).toBe(second.count);
    const growth = (peak - before) / MiB;
    // 64 KiB chunks, one batch of elements at a time: a few MiB of wasm window and JS garbage.
    expect(growth).toBeLessThan(64);
  }, 60_000);
});

describe('expand', () => {
  function orders(rng: ReturnType<typeof createRng>) {
    return Array.from({ length: rng.range(0, 8) }, (_, i) => ({
      id: i,
      ...(rng.chance(0.5) ? { note: 'n'.repeat(rng.int(20)) } : {}),
      lines: Array.from({ length: rng.range(0, 6) }, (_, k) => ({ sku: `${i}-${k}`, amount: k })),
      ...(rng.chance(0.5) ? { total: i * 10 } : {}),
    }));
  }

  test('children stream in order; header before, trailing fields after; return() skips the rest', async () => {
    const rng = createRng(7);
    for (let d = 0; d < 200; d++) {
      const value = { meta: { n: d }, orders: orders(rng), after: 'end' };
      const text = JSON.stringify(value);
      const size = rng.pick([1, 5, 64, 100000]);
      const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
        text.slice(i * size, i * size + size),
      );
      for (const transient of [false, true]) {
        const doc = openJson(
          (async function* () {
            yield* chunks;
          })(),
          { transient },
        );
        let i = 0;
        for await (const order of doc.iterate<Record<string, unknown>>('$.orders[*]', { expand: ['lines'] })) {
          const expected = value.orders[i]!;
          expect(order.id).toBe(expected.id);
          expect(order.note).toBe(expected.note); // a header field: there at once
          const stop = rng.int(expected.lines.length + 1);
          const got: unknown[] = [];
          for await (const line of order.lines as AsyncIterable<unknown>) {
            if (got.length === stop) break;
            got.push(line);
          }
          expect(got).toEqual(expected.lines.slice(0, stop));
          expect(order.total).toBe(expected.total); // after the stream: there once it was read or skipped
          expect(Object.keys(order)).toEqual(Object.keys(expected));
          i++;
        }
        expect(i).toBe(value.orders.length);
        expect(await doc.get('$.after')).toBe('end');
      }
    }
  });

  test('two expanded members: each appears once the stream reached it, with the fields between them', async () => {
    const rng = createRng(11);
    for (let d = 0; d < 100; d++) {
      const value = {
        orders: Array.from({ length: rng.range(1, 5) }, (_, i) => ({
          id: i,
          lines: Array.from({ length: rng.range(0, 4) }, (_, k) => k),
          mid: `m${i}`,
          notes: Array.from({ length: rng.range(0, 3) }, (_, k) => ({ n: k })),
          end: i,
        })),
        after: [1, 2],
      };
      const text = JSON.stringify(value, null, rng.chance(0.5) ? 1 : undefined);
      const size = rng.pick([1, 3, 50, 100000]);
      const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
        text.slice(i * size, i * size + size),
      );
      const doc = openJson(
        (async function* () {
          yield* chunks;
        })(),
        { transient: rng.chance(0.5) },
      );
      let i = 0;
      for await (const order of doc.iterate<Record<string, AsyncIterable<unknown>>>('$.orders[*]', {
        expand: ['lines', 'notes'],
      })) {
        const expected = value.orders[i++]!;
        expect(order.id).toBe(expected.id);
        expect(order.mid).toBeUndefined(); // after `lines`: not yet
        const read = async (name: 'lines' | 'notes') => {
          const stop = rng.int(expected[name].length + 1);
          const got: unknown[] = [];
          for await (const x of order[name]!) {
            if (got.length === stop) break;
            got.push(x);
          }
          expect(got).toEqual(expected[name].slice(0, stop));
        };
        await read('lines');
        expect(order.mid).toBe(expected.mid);
        await read('notes');
        expect(order.end).toBe(expected.end);
        expect(Object.keys(order)).toEqual(['id', 'lines', 'mid', 'notes', 'end']);
      }
      expect(i).toBe(value.orders.length);
      expect(await doc.get('$.after')).toEqual([1, 2]);
    }
  });

  test('moving to the next element skips an unread child stream', async () => {
    const text = JSON.stringify({
      orders: [
        { id: 1, lines: [1, 2, 3], total: 6 },
        { id: 2, lines: [4], total: 4 },
      ],
    });
    const doc = openJson(text);
    const seen: unknown[] = [];
    let first: Record<string, unknown> | undefined;
    for await (const order of doc.iterate<Record<string, unknown>>('$.orders[*]', { expand: ['lines'] })) {
      first ??= order;
      seen.push(order.id);
    }
    expect(seen).toEqual([1, 2]);
    expect(first!.total).toBe(6);
    await expect((first!.lines as AsyncIterator<unknown>).next()).rejects.toThrow(
      new TypeError('doc.iterate(): the stream of member "lines" was skipped: the iteration moved to the next element'),
    );
  });

  test('one element with a 100 MB child array streams it in flat memory (transient)', async () => {
    const line = encoder.encode(JSON.stringify({ sku: 'x'.repeat(80), amount: 1 }) + ',');
    const block = new Uint8Array(line.length * 600);
    for (let k = 0; k < 600; k++) block.set(line, k * line.length);
    const blocks = Math.ceil((100 * MiB) / block.length);
    async function* stream() {
      yield encoder.encode('{"orders":[{"id":7,"lines":[');
      for (let b = 0; b < blocks; b++) yield block;
      yield encoder.encode('{"sku":"last","amount":2}],"total":3},{"id":8,"lines":[]}],"after":true}');
    }
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const doc = openJson(stream(), { transient: true });
    const ids: unknown[] = [];
    let count = 0;
    let sum = 0;
    for await (const order of doc.iterate<{ id: number; lines: AsyncIterable<{ amount: number }>; total: number }>(
      '$.orders[*]',
      { expand: ['lines'] },
    )) {
      ids.push(order.id);
      for await (const l of order.lines) {
        sum += l.amount;
        if ((++count & 0xffff) === 0) peak = Math.max(peak, process.memoryUsage().rss);
      }
      ids.push(order.total);
    }
    expect(ids).toEqual([7, 3, 8, undefined]);
    expect(count).toBe(blocks * 600 + 1);
    expect(sum).toBe(blocks * 600 + 2);
    expect(await doc.get('$.after')).toBe(true);
    expect((peak - before) / MiB).toBeLessThan(64);
  }, 60_000);

  test('expand over the members of an object; then the document goes on after it', async () => {
    const text = JSON.stringify({ byId: { a: { lines: [1, 2], t: 'A' }, b: { lines: [3], t: 'B' } }, z: 0, y: 1 });
    for (const transient of [false, true]) {
      const doc = openJson(text, { transient });
      const got: unknown[] = [];
      for await (const o of doc.iterate<{ lines: AsyncIterable<number>; t: string }>('$.byId.*', {
        expand: ['lines'],
      })) {
        for await (const l of o.lines) got.push(l);
        got.push(o.t);
      }
      expect(got).toEqual([1, 2, 'A', 3, 'B']);
      expect(await doc.get('$.y')).toBe(1);
      if (transient) await expect(doc.get('$.byId.a')).rejects.toThrow(JsonPassedError);
      else expect(await doc.get('$.byId.b.t')).toBe('B');
    }
  });

  test('elements that are not objects come whole; a non-array member stays a value', async () => {
    const text = JSON.stringify({ orders: [1, [2], null, { lines: 'none', x: 1 }, {}] });
    const doc = openJson(text);
    const got: unknown[] = [];
    for await (const order of doc.iterate('$.orders[*]', { expand: ['lines'] })) got.push(order);
    expect(got).toEqual([1, [2], null, { lines: 'none', x: 1 }, {}]);
  });
});

describe('native memory', () => {
  test('the wasm heap returns to its baseline after gets, broken-off iterations and errors', async () => {
    const text = JSON.stringify({ a: { b: [1, 2, 3] }, rows: [{ lines: [1, 2] }, { lines: [3] }], z: 1 });
    const run = async () => {
      for (const transient of [false, true]) {
        const doc = openJson(text, { transient });
        await doc.get('$.a.b[1]');
        for await (const row of doc.iterate<{ lines: AsyncIterable<unknown> }>('$.rows[*]', { expand: ['lines'] })) {
          for await (const line of row.lines) {
            void line;
            break;
          }
          break;
        }
        await doc.get('$.z');
        await openJson('{"a": [1, 2', { transient })
          .get('$.b')
          .catch(() => {});
        for await (const x of openJson(text, { transient }).iterate('$.a.b[*]')) {
          void x;
          break;
        }
      }
    };
    await run();
    const baseline = nativeModule().heapInUse();
    for (let i = 0; i < 200; i++) await run();
    expect(nativeModule().heapInUse()).toBe(baseline);
  });
});
