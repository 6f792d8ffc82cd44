// The encoder under the runtime's own streams, Response, TextEncoder and JSON.stringify: seeded random values
// (with and without sources) give exactly JSON.stringify's bytes, StreamedJsonResponse, rawJson and the pass-through
// of parseJsonArray's bytes, the stringify streams, backpressure and cancellation reaching the sources.
import {
  JsonArrayStringifyStream, JsonLinesStringifyStream, parseJsonArray, rawJson, StreamedJsonResponse, stringifyStream,
} from '../../../dist/index.js';
import { createRng, expectedText, randomCorpusValue, testReplacer } from '../../support/stringify_corpus.ts';
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
    {}, { space: 2 }, { space: '\t' }, { replacer: testReplacer }, { replacer: ['a', 'b', '0', '__proto__'] },
    { space: 1, replacer: testReplacer, chunkBytes: 17 }, { chunkBytes: 64 },
  ];

  test('seeded values with sources at random places give JSON.stringify\'s bytes', async () => {
    const rng = createRng(0x7e57);
    for (let n = 0; n < 300; n++) {
      const value = randomCorpusValue(rng, rng.range(1, 5));
      const options = OPTIONS[n % OPTIONS.length]! as { replacer?: unknown; space?: unknown };
      // The plain view holds raw markers as plain strings; the sourced view holds rawJson values in their place.
      const plain = n % 2 === 0;
      const expected = plain
        ? JSON.stringify(value.plain, options.replacer as never, options.space as never)
        : expectedText(value, options.replacer, options.space);
      if (expected === undefined) continue;
      const input = plain ? value.plain : value.withSources(rng);
      const { bytes, error } = await readAll(stringifyStream(input, options as never));
      assert(error === undefined, `value ${n}: ${String(error)}`);
      // Bytes, not decoded text: a lone surrogate written raw would decode to U+FFFD on both sides.
      assertEqual(bytes, encoder.encode(expected), `value ${n} (${JSON.stringify(options)})`);
    }
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
    assertEqual(await textOf(stringifyStream({ a: rawJson('[1, {"b" : 2}]'), c: rawJson(encoder.encode('"é"')) })),
      '{"a":[1, {"b" : 2}],"c":"é"}');
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
    const source = () => new ReadableStream({
      start(controller) {
        for (const value of values) controller.enqueue(value);
        controller.close();
      },
    });
    assertEqual(await textOf(source().pipeThrough(new JsonArrayStringifyStream())), JSON.stringify(values));
    assertEqual(await textOf(source().pipeThrough(new JsonLinesStringifyStream())),
      values.map((value) => JSON.stringify(value) + '\n').join(''));
  });
});

group('encoder: flow', () => {
  test('a slow consumer holds the producer back; cancelling closes every source, innermost first', async () => {
    let pulls = 0;
    const closed: string[] = [];
    // An endless stream inside the first row: the generator stays suspended at that row while it is written.
    const inner = new ReadableStream({
      pull(controller) {
        pulls++;
        controller.enqueue({ pad: 'x'.repeat(100) });
      },
      cancel() {
        closed.push('stream');
      },
    }, { highWaterMark: 0 });
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
