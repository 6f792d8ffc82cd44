// The encoder under the runtime's own streams, Response, TextEncoder and JSON.stringify: seeded random values
// (with and without sources) give exactly JSON.stringify's bytes, StreamedJsonResponse, rawJson and the pass-through
// of parseJsonArray's bytes, the stringify streams, backpressure and cancellation reaching the sources.
import {
  JsonArrayStringifyStream,
  JsonLinesStringifyStream,
  parseJsonArray,
  rawJson,
  StreamedJsonResponse,
  stringifyStream,
} from '../../../dist/index.js';
import {
  createRng,
  expectedText,
  randomCorpusValue,
  randomLongArray,
  testReplacer,
} from '../../support/stringify_corpus.ts';
import { assert, assertEqual, assertRejects, group, test } from '../harness.ts';

const encoder = new TextEncoder();
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

interface Read {
  bytes: Uint8Array;
  chunks: number;
  error: unknown;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Read> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let error: unknown;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
  } catch (caught) {
    error = caught;
  }
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, chunks: parts.length, error };
}

const textOf = async (stream: ReadableStream<Uint8Array>) => {
  const { bytes, error } = await readAll(stream);
  if (error !== undefined) throw error;
  return new TextDecoder().decode(bytes);
};

group('encoder: differential', () => {
  const OPTIONS = [
    {},
    { space: 2 },
    { space: '\t' },
    { replacer: testReplacer },
    { replacer: ['a', 'b', '0', '__proto__'] },
    { space: 1, replacer: testReplacer, chunkBytes: 17 },
    { chunkBytes: 64 },
    { space: '\n' },
    { space: ' \n\t', chunkBytes: 16 },
    { space: 'abcdefghijkl\n' },
  ];

  test("seeded values with sources at random places give JSON.stringify's bytes", async () => {
    const rng = createRng(0x7e57);
    for (let n = 0; n < 300; n++) {
      const value = randomCorpusValue(rng, rng.range(1, 5));
      const options = OPTIONS[n % OPTIONS.length]! as { replacer?: unknown; space?: unknown };
      // The plain view holds raw markers as plain strings; the sourced view holds rawJson values in their place.
      const plain = n % 2 === 0;
      let expected: string | undefined;
      let thrown: Error | undefined;
      try {
        expected = plain
          ? JSON.stringify(value.plain, options.replacer as never, options.space as never)
          : expectedText(value, options.replacer, options.space);
      } catch (error) {
        // A '__proto__' in an array replacer can make JSON.stringify call Date.prototype.toJSON on
        // Date.prototype: the encoder must fail alike.
        thrown = error as Error;
      }
      const input = plain
        ? value.plain
        : value.withSources(rng, { promisedToJSON: typeof options.replacer !== 'function' });
      if (thrown !== undefined) {
        const { error } = await readAll(stringifyStream(input, options as never));
        assert(
          error instanceof Error && error.constructor === thrown.constructor && error.message === thrown.message,
          `value ${n}: JSON.stringify threw ${String(thrown)}, the encoder gave ${String(error)}`,
        );
        continue;
      }
      if (expected === undefined) continue;
      const { bytes, error } = await readAll(stringifyStream(input, options as never));
      assert(error === undefined, `value ${n}: ${String(error)}`);
      // Bytes, not decoded text: a lone surrogate written raw would decode to U+FFFD on both sides.
      assertEqual(bytes, encoder.encode(expected), `value ${n} (${JSON.stringify(options)})`);
    }
  });

  test('arrays longer than a batch: toJSON gets its index in the array, in batches and in sources', async () => {
    const rng = createRng(0x10a6);
    for (let n = 0; n < 6; n++) {
      const value = randomLongArray(rng);
      const options = OPTIONS[n % OPTIONS.length]! as { replacer?: unknown; space?: unknown };
      let expected: string | undefined;
      try {
        expected = expectedText(value, options.replacer, options.space);
      } catch {
        continue; // the case of the test above
      }
      const input = value.withSources(rng, { promisedToJSON: typeof options.replacer !== 'function' });
      const { bytes, error } = await readAll(stringifyStream(input, options as never));
      assert(error === undefined, `array ${n}: ${String(error)}`);
      assertEqual(bytes, encoder.encode(expected!), `array ${n} (${JSON.stringify(options)})`);
    }
  });

  test('toJSON is called once, with its key; a String object is told by its slot', async () => {
    const inner = Object.assign([1, 2], { toJSON: () => 'called again' });
    const keyed = Object.assign([0], { toJSON: (key: string) => `key=${key}` });
    const rows = Array.from({ length: 5000 }, (_, i) => (i % 1000 === 999 ? keyed : i));
    const value = { x: { toJSON: () => inner }, rows, spaced: [{ a: [1] }] };
    assertEqual(await textOf(stringifyStream(value)), JSON.stringify(value));
    assertEqual(await textOf(stringifyStream(value, { space: '\n\t' })), JSON.stringify(value, null, '\n\t'));
    const iterable = {
      charAt: () => 'a',
      *[Symbol.iterator]() {
        yield 1;
      },
    };
    assertEqual(await textOf(stringifyStream([iterable, new String('s')])), '[[1],"s"]');
  });

  test('BigInt and cycles are TypeErrors; bigint: "string" writes them', async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const value of [{ big: 1n }, cycle]) {
      const { error } = await readAll(stringifyStream(value));
      assert(error instanceof TypeError, `got ${String(error)}`);
    }
    assertEqual(await textOf(stringifyStream({ big: 12n }, { bigint: 'string' })), '{"big":"12"}');
  });
});

group('encoder: responses and raw JSON', () => {
  test('StreamedJsonResponse: content type and body', async () => {
    async function* rows() {
      for (let i = 0; i < 3; i++) yield { i, s: 'é😀' };
    }
    const response = new StreamedJsonResponse({ rows: rows(), total: 3 });
    assert(response instanceof Response, 'a Response');
    assertEqual(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assertEqual(await response.text(), '{"rows":[{"i":0,"s":"é😀"},{"i":1,"s":"é😀"},{"i":2,"s":"é😀"}],"total":3}');
  });

  test('StreamedJsonResponse.from rejects when a source fails before the first chunk', async () => {
    const failure = new Error('query failed');
    async function* failing(): AsyncGenerator<never> {
      throw failure;
    }
    const error = await assertRejects(() => StreamedJsonResponse.from({ rows: failing() }), Error);
    assert(error === failure, `got ${String(error)}`);
  });

  test('rawJson is written verbatim; invalid raw JSON errors the stream before any byte of it', async () => {
    assertEqual(
      await textOf(stringifyStream({ a: rawJson('[1, {"b" : 2}]'), c: rawJson(encoder.encode('"é"')) })),
      '{"a":[1, {"b" : 2}],"c":"é"}',
    );
    const { bytes, error } = await readAll(stringifyStream({ before: 'x'.repeat(100), bad: rawJson('{"a":1,}') }));
    assert(error !== undefined, 'invalid raw JSON is an error');
    assert(!new TextDecoder().decode(bytes).includes('{"a":1'), 'no byte of the bad fragment was written');
  });

  test('parseJsonArray bytes pass through byte for byte', async () => {
    const upstream = '{"items":[ {"a" : 1} ,"\\u00e9",\n[1e2, -0] ]}';
    const items = parseJsonArray(upstream, { path: '$.items[*]', output: 'bytes' });
    assertEqual(await textOf(stringifyStream({ items })), '{"items":[{"a" : 1},"\\u00e9",[1e2, -0]]}');
  });

  test('JsonArrayStringifyStream and JsonLinesStringifyStream', async () => {
    const values = [{ a: 1 }, 'é', null, [2]];
    const source = () =>
      new ReadableStream({
        start(controller) {
          for (const value of values) controller.enqueue(value);
          controller.close();
        },
      });
    assertEqual(await textOf(source().pipeThrough(new JsonArrayStringifyStream())), JSON.stringify(values));
    assertEqual(
      await textOf(source().pipeThrough(new JsonLinesStringifyStream())),
      values.map((value) => JSON.stringify(value) + '\n').join(''),
    );
  });
});

group('encoder: flow', () => {
  test('a slow consumer holds the producer back; cancelling closes every source, innermost first', async () => {
    let pulls = 0;
    const closed: string[] = [];
    // An endless stream inside the first row: the generator stays suspended at that row while it is written.
    const inner = new ReadableStream(
      {
        pull(controller) {
          pulls++;
          controller.enqueue({ pad: 'x'.repeat(100) });
        },
        cancel() {
          closed.push('stream');
        },
      },
      { highWaterMark: 0 },
    );
    async function* rows() {
      try {
        yield { first: inner };
        yield 'never written';
      } finally {
        closed.push('generator');
      }
    }
    const reader = stringifyStream({ rows: rows() }, { chunkBytes: 1024 }).getReader();
    await reader.read();
    await settle();
    const before = pulls;
    await settle();
    assertEqual(pulls, before, 'pulls while nobody reads');
    assert(before < 100, `pulled ${before} rows of 100+ bytes for one 1 KiB chunk`);
    await reader.read();
    await reader.cancel();
    await settle();
    assertEqual(closed, ['stream', 'generator'], 'closed');
  });

  test('cancelling closes the sources not reached, at any depth, without calling getters', async () => {
    const closed: string[] = [];
    const stream = (name: string) =>
      new ReadableStream(
        {
          pull(controller) {
            controller.enqueue(1);
          },
          cancel(reason) {
            closed.push(`${name}: ${String(reason)}`);
          },
        },
        { highWaterMark: 0 },
      );
    let started = false;
    async function* never() {
      started = true;
      yield 1;
    }
    const generator = never();
    const stalled = new ReadableStream(
      { pull: () => new Promise(() => {}), cancel: () => void closed.push('stalled') },
      { highWaterMark: 0 },
    );
    const value = {
      head: [stalled],
      tail: { deep: [{ deeper: { s: stream('deep') } }], generator, promised: Promise.resolve([stream('promised')]) },
      get getter() {
        closed.push('getter called');
        return stream('getter');
      },
    };
    const reader = stringifyStream(value).getReader();
    const first = reader.read();
    await settle();
    await reader.cancel('gone');
    await first;
    await settle();
    assertEqual(closed, ['stalled', 'deep: gone', 'promised: gone'], 'closed');
    assertEqual(await generator.next(), { value: undefined, done: true }, 'the generator after cancel');
    assert(!started, 'the generator that never started ran its body');
  });

  test('one long string goes out a chunk per read, in linear work', async () => {
    let given = 0;
    const encodeInto = TextEncoder.prototype.encodeInto;
    TextEncoder.prototype.encodeInto = function counting(this: TextEncoder, text: string, into: Uint8Array) {
      given += text.length;
      return encodeInto.call(this, text, into);
    };
    try {
      const text = 'é😀x'.repeat(25_000);
      let enqueued = 0;
      const pair = new JsonArrayStringifyStream({ chunkBytes: 16 }, undefined, {
        highWaterMark: 1,
        size: () => {
          enqueued++;
          return 1;
        },
      });
      const writer = pair.writable.getWriter();
      void writer.write(text).then(() => writer.close());
      const reader = pair.readable.getReader();
      let reads = 0;
      let most = 0;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        reads++;
        bytes += value.length;
        if (reads % 97 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
        most = Math.max(most, enqueued - reads);
      }
      assertEqual(bytes, encoder.encode(JSON.stringify([text])).length, 'bytes');
      assert(most <= 2, `${most} chunks were enqueued ahead of the reader`);
      // Linear: each unit given again at most a few times (a character that did not fit); quadratic: ~10^8.
      assert(given <= 4 * text.length + 64, `encodeInto was given ${given} units for ${text.length}`);
    } finally {
      TextEncoder.prototype.encodeInto = encodeInto;
    }
  });

  test('a source that throws mid-stream errors the output', async () => {
    async function* rows() {
      yield 1;
      throw new Error('cursor broke');
    }
    const { bytes, error } = await readAll(stringifyStream({ rows: rows() }));
    assert(error instanceof Error && error.message === 'cursor broke', `got ${String(error)}`);
    assert(!new TextDecoder().decode(bytes).endsWith('}'), 'the output does not look complete');
  });
});
