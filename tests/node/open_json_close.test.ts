// openJson's close(): pending and later requests reject, the source is cancelled, the native parser is freed.
//
// A file of its own, so that the heap measurement sees this module's parsers only. In a file of earlier tests,
// documents they left open free their parsers when the collector runs (the FinalizationRegistry of
// js/native/parser_pool.ts), at a time no test controls: the heap then fell below the baseline mid-measurement
// (about 1 run in 5 of the whole open_json file under load, even after a gc() first).
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { openJson } from '../../dist/index.js';
import { nativeModule } from '../../dist/internal.js';

describe('close()', () => {
  /** A source that yields `head` and then waits until `release()` (an upstream that went quiet). */
  function stalled(head: string) {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const state = { finallyRan: false, pulls: 0 };
    async function* generate() {
      try {
        state.pulls++;
        yield head;
        state.pulls++;
        await gate;
        yield ']}';
      } finally {
        state.finallyRan = true;
      }
    }
    return { source: generate(), release, state };
  }

  const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

  test('a pending get() rejects with an AbortError, close() resolves at once, the parser is freed', async () => {
    for (const transient of [false, true]) {
      // Nothing else holds a parser in this module (this file runs in a module of its own, and this test first):
      // no collection or eviction of another parser can move the heap while it is measured.
      expect(nativeModule().residentParsers()).toBe(0);
      const baseline = nativeModule().heapInUse();
      const { source: s, release, state } = stalled('{"rows":[1,2');
      const doc = openJson(s, { transient });
      const pending = doc.get('$.total');
      const outcome = pending.then(
        () => 'resolved',
        (error: unknown) => error,
      );
      while (state.pulls < 2) await new Promise((resolve) => setTimeout(resolve, 1));
      expect(nativeModule().residentParsers()).toBe(1); // the request's parser is alive
      expect(nativeModule().heapInUse()).toBeGreaterThan(baseline);
      await doc.close(); // would hang if it waited for the generator's return()
      expect(nativeModule().residentParsers()).toBe(0);
      expect(nativeModule().heapInUse()).toBe(baseline);
      const error = await outcome;
      expect(isAbort(error), String(error)).toBe(true);
      // Later requests are rejected the same way.
      expect(isAbort(await doc.get('$.rows[0]').catch((e: unknown) => e))).toBe(true);
      expect(state.finallyRan).toBe(false);
      release(); // the generator's await ends: the queued return() runs its finally block
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(state.finallyRan).toBe(true);
    }
  });

  test('close(reason) rejects pending and later requests with that reason', async () => {
    const { source: s } = stalled('{"rows":[1,2');
    const doc = openJson(s);
    const reason = new Error('user went away');
    const pending = doc.get('$.total').catch((e: unknown) => e);
    const queued = doc.get('$.rows[0]').catch((e: unknown) => e); // waits behind the first
    await new Promise((resolve) => setTimeout(resolve, 5));
    await doc.close(reason);
    expect(await pending).toBe(reason);
    expect(await queued).toBe(reason);
    expect(await doc.get('$.x').catch((e: unknown) => e)).toBe(reason);
  });

  test('a pending iterate() and a pending expanded child stream reject with an AbortError', async () => {
    {
      const { source: s } = stalled('{"rows":[1,2,');
      const doc = openJson(s, { transient: true });
      const it = doc.iterate('$.rows[*]');
      expect(await it.next()).toEqual({ done: false, value: 1 });
      expect(await it.next()).toEqual({ done: false, value: 2 });
      const pending = it.next().catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await doc.close();
      expect(isAbort(await pending)).toBe(true);
      expect(await it.next()).toEqual({ done: true, value: undefined });
    }
    {
      const { source: s } = stalled('{"rows":[{"id":1,"lines":[1,2');
      const doc = openJson(s);
      const it = doc.iterate<{ id: number; lines: AsyncIterable<number> }>('$.rows[*]', { expand: ['lines'] });
      const row = (await it.next()).value as { id: number; lines: AsyncIterator<number> & AsyncIterable<number> };
      expect(row.id).toBe(1);
      const lines = row.lines[Symbol.asyncIterator]();
      expect(await lines.next()).toEqual({ done: false, value: 1 });
      const pending = lines
        .next()
        .then(() => lines.next())
        .catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await doc.close();
      expect(isAbort(await pending)).toBe(true);
      expect(isAbort(await it.next().catch((e: unknown) => e))).toBe(true);
    }
  });

  test('a ReadableStream source: the pending read ends with an AbortError, not UNEXPECTED_END, and is cancelled', async () => {
    let cancelled: unknown = 'not cancelled';
    const stream = new ReadableStream<string>({
      start(controller) {
        controller.enqueue('{"rows":[1,');
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const doc = openJson(stream);
    const pending = doc.get('$.total').catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await doc.close();
    const error = await pending;
    expect(isAbort(error), String(error)).toBe(true);
    expect(cancelled).toBe(error);
  });

  test('closed before any request: each kind of source is stopped all the same, with the reason', async () => {
    let cancelled: unknown = 'not cancelled';
    const stream = new ReadableStream<string>({ cancel: (reason) => void (cancelled = reason) });
    let returned = false;
    const generator = (async function* chunks() {
      yield '[]';
    })();
    const original = generator.return.bind(generator);
    generator.return = (value) => {
      returned = true;
      return original(value);
    };
    const node = new Readable({ read() {} });
    const reason = new Error('page left');
    for (const source of [stream, generator, node]) await openJson(source).close(reason);
    expect(cancelled).toBe(reason);
    expect(returned).toBe(true);
    expect(node.destroyed).toBe(true);
  });
});
