// The encoder's flow: pull-based production (a slow consumer keeps the producer at most a chunk ahead),
// cancellation (every open iterator returned, every open stream cancelled, innermost first), errors from sources
// (the output errors, never ends normally, and the other open sources are closed), and early flushing when the
// encoder waits for a slow source (first byte), including StreamedJsonResponse.from.
import { describe, expect, test } from 'vitest';
import { StreamedJsonResponse, stringifyStream } from '../../dist/encode/index.js';
import { readAll, settle, textOf } from '../support/stringify_read.js';
import { countedAsyncRows, countedRows, countedStream, probe, type CloseLog } from '../support/stringify_sources.js';

const decoder = new TextDecoder();
// Rows of one length (for i < 900,000), so bytes count rows.
const row = (i: number) => ({ i: 100_000 + i, pad: 'x'.repeat(90) });
const ROW_BYTES = JSON.stringify(row(0)).length + 1; // with its comma

/** Reads one chunk at a time; after each, checks the producer is at most one chunk and one row ahead. */
async function expectBoundedProducer(stream: ReadableStream<Uint8Array>, steps: () => number, chunkBytes: number) {
  await settle();
  expect(steps(), 'nothing is produced before the first read').toBe(0);
  const reader = stream.getReader();
  let bytesRead = 0;
  for (let k = 0; k < 20; k++) {
    const { value } = await reader.read();
    bytesRead += value!.length;
    await settle();
    const produced = steps();
    // Rows 0..produced-2 are complete in the bytes produced, which are at most what was read plus one chunk
    // (the row that overflowed the last chunk read).
    expect((produced - 1) * ROW_BYTES).toBeLessThanOrEqual(bytesRead + chunkBytes);
    expect(produced * ROW_BYTES).toBeGreaterThanOrEqual(bytesRead - 64);
    await settle();
    expect(steps(), 'no progress without a read').toBe(produced);
  }
  await reader.cancel();
}

describe('backpressure', () => {
  test('a sync generator is advanced only as far as the consumer read', async () => {
    const p = probe();
    const stream = stringifyStream({ rows: countedRows(p, 100_000, row) }, { chunkBytes: 1024 });
    await expectBoundedProducer(stream, () => p.steps, 1024);
    expect(p.closed).toBe(true);
  });

  test('an async generator is advanced only as far as the consumer read', async () => {
    const p = probe();
    const stream = stringifyStream({ rows: countedAsyncRows(p, 100_000, row) }, { chunkBytes: 1024 });
    await expectBoundedProducer(stream, () => p.steps, 1024);
    expect(p.closed).toBe(true);
  });

  test('a ReadableStream source is pulled only as far as the consumer read', async () => {
    const p = probe();
    const stream = stringifyStream([countedStream(p, 100_000, row)], { chunkBytes: 1024 });
    await expectBoundedProducer(stream, () => p.steps, 1024);
    expect(p.closed).toBe(true);
  });

  test('sources nested in the rows of a source are bounded too', async () => {
    const outer = probe();
    const inner = probe();
    const rows = countedRows(outer, 1000, (i) => ({
      i,
      items: countedRows(inner, 1000, row, undefined, `inner ${i}`),
    }));
    const stream = stringifyStream(rows, { chunkBytes: 1024 });
    await expectBoundedProducer(stream, () => inner.steps, 1024);
    expect(outer.steps).toBe(1);
  });

  test('a large in-memory array is written no faster than read: the writer pauses between chunks', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => row(i));
    let pulls = 0;
    const stream = stringifyStream({ rows, tail: countedRows(probe(), 1, () => ++pulls) }, { chunkBytes: 1024 });
    const reader = stream.getReader();
    for (let k = 0; k < 10; k++) await reader.read();
    await settle();
    // The rows come before the tail: had the encoder run ahead over the array, the tail would have been reached.
    expect(pulls).toBe(0);
    await reader.cancel();
  });
});

describe('cancellation', () => {
  test('calls return() on every open iterator and cancel(reason) on every open stream, innermost first', async () => {
    const log: CloseLog = [];
    const [outer, middle, inner] = [probe(), probe(), probe()];
    const value = {
      rows: countedAsyncRows(
        outer,
        10,
        (i) => ({
          i,
          items: countedRows(
            middle,
            10,
            (j) => ({ j, cells: countedStream(inner, 1000, row, log, 'stream') }),
            log,
            'sync',
          ),
        }),
        { log, name: 'async' },
      ),
    };
    const reader = stringifyStream(value, { chunkBytes: 64 }).getReader();
    let text = '';
    while (!text.includes('"pad"')) text += decoder.decode((await reader.read()).value!);
    const reason = new Error('client went away');
    await reader.cancel(reason);
    expect(log).toEqual(['stream', 'sync', 'async']);
    expect(inner.reason).toBe(reason);
    expect([outer.closed, middle.closed, inner.closed]).toEqual([true, true, true]);
  });

  test("cancelling a StreamedJsonResponse body runs the generators' finally", async () => {
    const p = probe();
    const response = new StreamedJsonResponse({ _embedded: { articles: countedAsyncRows(p, 1_000_000, row) } });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(p.closed).toBe(true);
    expect(p.steps).toBeLessThan(1000);
  });

  test('while the encoder waits for a slow source: return() runs once the pending step settles', async () => {
    const p = probe();
    const reader = stringifyStream({ rows: countedAsyncRows(p, 100, row, { delayMs: 100 }) }).getReader();
    // The prefix is flushed while the encoder waits for row 0.
    expect(decoder.decode((await reader.read()).value!)).toBe('{"rows":[');
    expect(p.steps).toBe(0);
    const pending = reader.read();
    await Promise.resolve();
    await reader.cancel();
    expect((await pending).done).toBe(true);
    expect(p.closed).toBe(true);
    expect(p.steps).toBe(1);
  });

  test('while the encoder waits for a promise that never settles: the open sources are closed', async () => {
    const p = probe();
    const reader = stringifyStream({
      rows: countedRows(p, 10, (i) => (i === 2 ? new Promise(() => {}) : i)),
    }).getReader();
    expect(decoder.decode((await reader.read()).value!)).toBe('{"rows":[0,1');
    const pending = reader.read();
    await settle();
    await reader.cancel();
    expect((await pending).done).toBe(true);
    expect(p.closed).toBe(true);
  });

  test('a source whose return() throws still lets cancel() settle, and the outer sources close', async () => {
    const outer = probe();
    const bad: Iterator<number> & Iterable<number> = {
      [Symbol.iterator]() {
        return this;
      },
      next: () => ({ done: false, value: 1 }),
      return: () => {
        throw new Error('cannot close');
      },
    };
    const reader = stringifyStream(
      countedRows(outer, 5, () => ({ bad })),
      { chunkBytes: 16 },
    ).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(outer.closed).toBe(true);
  });
});

describe('errors from sources', () => {
  test('an async generator that throws errors the output with its error; the outer source is returned', async () => {
    const log: CloseLog = [];
    const [outer, inner] = [probe(), probe()];
    const value = countedRows(
      outer,
      3,
      () => countedAsyncRows(inner, 100, row, { fail: 50, log, name: 'inner' }),
      log,
      'outer',
    );
    const output = await readAll(stringifyStream(value, { chunkBytes: 256 }));
    expect((output.error as Error).message).toBe('inner failed at 50');
    expect(output.text).not.toMatch(/\]\]$/);
    // The inner one ended by throwing (its finally ran then); the outer one was returned.
    expect(log).toEqual(['inner', 'outer']);
  });

  test('a sync generator that throws', async () => {
    const p = probe();
    const output = await readAll(stringifyStream({ rows: countedRows(p, 10, row, undefined, 'rows', 4) }));
    expect((output.error as Error).message).toBe('rows failed at 4');
    expect(output.text).toBe('');
  });

  test('a ReadableStream source that errors', async () => {
    const p = probe();
    const output = await readAll(
      stringifyStream([countedStream(p, 10, row, undefined, 'cells', 3)], { chunkBytes: 64 }),
    );
    expect((output.error as Error).message).toBe('cells failed at 3');
    expect(p.closed).toBe(false); // an errored stream is not cancelled
  });

  test('a rejected promise value errors the output and returns the open generators', async () => {
    const p = probe();
    const failure = new Error('query failed');
    const rows = countedRows(p, 10, (i) => (i === 3 ? Promise.reject(failure) : i));
    const output = await readAll(stringifyStream({ rows }));
    expect(output.error).toBe(failure);
    expect(p.closed).toBe(true);
  });

  test('toJSON, a replacer or a getter that throws errors the output and returns the open generators', async () => {
    const failure = new Error('boom');
    const throwing = [
      {
        toJSON() {
          throw failure;
        },
      },
      {
        get field() {
          throw failure;
        },
      },
    ];
    for (const bad of throwing) {
      const p = probe();
      const output = await readAll(stringifyStream({ rows: countedRows(p, 10, (i) => (i === 2 ? bad : i)) }));
      expect(output.error).toBe(failure);
      expect(p.closed).toBe(true);
    }
    const p = probe();
    const replacer = (key: string, value: unknown) => {
      if (key === '2') throw failure;
      return value;
    };
    const output = await readAll(stringifyStream({ rows: countedRows(p, 10, (i) => i) }, { replacer }));
    expect(output.error).toBe(failure);
    expect(p.closed).toBe(true);
  });

  test('an errored output never reports done', async () => {
    const reader = stringifyStream(countedAsyncRows(probe(), 5, row, { fail: 2 }), { chunkBytes: 16 }).getReader();
    let caught: unknown;
    try {
      for (;;) {
        const { done } = await reader.read();
        expect(done).toBe(false);
      }
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).message).toBe('async failed at 2');
    await expect(reader.read()).rejects.toBe(caught);
  });
});

describe('flushing and the first byte', () => {
  test('what is buffered goes out when the encoder waits for a slow source', async () => {
    const p = probe();
    const reader = stringifyStream({ rows: countedAsyncRows(p, 5, row, { delayMs: 40 }) }).getReader();
    const first = decoder.decode((await reader.read()).value!);
    // The chunk went out while the encoder waited for a row; not after producing 16 KiB.
    expect(p.steps).toBeLessThanOrEqual(1);
    let text = first;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(text).toBe(JSON.stringify({ rows: [0, 1, 2, 3, 4].map(row) }));
  });

  test('fast sources fill whole chunks', async () => {
    const output = await readAll(stringifyStream({ rows: countedAsyncRows(probe(), 2000, row) }, { chunkBytes: 4096 }));
    const sizes = output.chunks.map((chunk) => chunk.length);
    expect(sizes.slice(0, -1).every((size) => size === 4096)).toBe(true);
    expect(output.text).toBe(JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => row(i)) }));
  });

  test('StreamedJsonResponse: JSON content type unless the init sets one, status and headers kept', async () => {
    const response = new StreamedJsonResponse({ a: [1] }, { status: 201, headers: { 'x-id': '7' } });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-id')).toBe('7');
    expect(await response.text()).toBe('{"a":[1]}');
    const custom = new StreamedJsonResponse([], { headers: { 'Content-Type': 'application/vnd.api+json' } });
    expect(custom.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(await textOf(new StreamedJsonResponse(1, undefined, { space: 2 }).body!)).toBe('1');
  });

  test('StreamedJsonResponse.from rejects when the query fails before the first chunk', async () => {
    const p = probe();
    const failure = new Error('query failed');
    const rows = async function* slowFailingQuery() {
      try {
        await settle(30);
        throw failure;
      } finally {
        p.closed = true;
      }
    };
    await expect(StreamedJsonResponse.from({ title: 'articles', rows: rows() })).rejects.toBe(failure);
    expect(p.closed).toBe(true);
    // The plain constructor answers at once: its first chunk is flushed while it waits for the query.
    const response = new StreamedJsonResponse({ title: 'articles', rows: rows() });
    const reader = response.body!.getReader();
    expect(decoder.decode((await reader.read()).value!)).toBe('{"title":"articles","rows":[');
    await expect(reader.read()).rejects.toBe(failure);
  });

  test('StreamedJsonResponse.from resolves after the first row and streams the rest with cancellation', async () => {
    const p = probe();
    const response = await StreamedJsonResponse.from(
      { rows: countedAsyncRows(p, 1000, row, { delayMs: 2 }) },
      {
        headers: { 'cache-control': 'no-store' },
      },
    );
    expect(p.steps).toBeGreaterThanOrEqual(1);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const reader = response.body!.getReader();
    const first = decoder.decode((await reader.read()).value!);
    expect(first.startsWith('{"rows":[{"i":100000,')).toBe(true);
    await reader.cancel();
    expect(p.closed).toBe(true);
    expect(p.steps).toBeLessThan(1000);
  });

  test('StreamedJsonResponse.from delivers a whole small document', async () => {
    const response = await StreamedJsonResponse.from({ rows: countedAsyncRows(probe(), 3, (i) => i), total: 3 });
    expect(await response.json()).toEqual({ rows: [0, 1, 2], total: 3 });
  });
});
