// Every kind of source and the stream semantics that depend on the runtime's own ReadableStream, Response and
// TextDecoder: backpressure, `break` cancelling the source, source errors reaching the consumer, and native memory
// returning to its baseline on every way out.
import { createParser, JsonArrayStream, JsonSyntaxError, parseJsonArray } from '../../../dist/index.js';
import { nativeModule } from '../../../dist/internal.js';
import { asyncIterableOf, collect, collectStream, countingSource } from '../../support/sources.ts';
import { assert, assertEqual, assertRejects, group, test } from '../harness.ts';

const encoder = new TextEncoder();
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const DOC = '{"data":[{"id":1,"s":"é"},{"id":2,"s":"😀"},{"id":3,"s":"\\u00e9"}],"n":3}';
const EXPECTED = JSON.parse(DOC).data;
const PATH = '$.data[*]';

function byteStream(text: string, pieceSize: number): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + pieceSize));
      at += pieceSize;
    },
  });
}

group('sources', () => {
  test('ReadableStream of bytes in 1..7-byte pieces', async () => {
    for (let size = 1; size <= 7; size++) {
      const { values, error } = await collect(parseJsonArray(byteStream(DOC, size), { path: PATH }));
      assertEqual([values, error], [EXPECTED, undefined], `pieces of ${size}`);
    }
  });

  test('Response, string, Uint8Array, async iterable of strings, null', async () => {
    const response = new Response(byteStream(DOC, 5));
    assertEqual((await collect(parseJsonArray(response, { path: PATH }))).values, EXPECTED, 'Response');
    assertEqual((await collect(parseJsonArray(DOC, { path: PATH }))).values, EXPECTED, 'string');
    assertEqual((await collect(parseJsonArray(encoder.encode(DOC), { path: PATH }))).values, EXPECTED, 'Uint8Array');
    const pieces = [DOC.slice(0, 20), DOC.slice(20, 41), DOC.slice(41)];
    assertEqual((await collect(parseJsonArray(asyncIterableOf(pieces), { path: PATH }))).values, EXPECTED, 'strings');
    const empty = await collect(parseJsonArray(null));
    assert(empty.error instanceof JsonSyntaxError && empty.error.code === 'UNEXPECTED_END', 'null is an empty body');
  });

  test('a used Response and a locked stream are TypeErrors at the call', async () => {
    const response = new Response('[1]');
    await response.text();
    await assertRejects(async () => parseJsonArray(response), TypeError, 'a used Response');
    const stream = byteStream('[1]', 1);
    stream.getReader();
    await assertRejects(async () => parseJsonArray(stream), TypeError, 'a locked stream');
  });

  test('JsonArrayStream through pipeThrough, every output', async () => {
    for (const output of ['value', 'text', 'bytes'] as const) {
      const readable = byteStream(DOC, 3).pipeThrough(new JsonArrayStream({ path: PATH, output }));
      const { values, error } = await collectStream(readable);
      assert(error === undefined, `${output}: ${String(error)}`);
      const texts = values.map((v) =>
        output === 'value' ? JSON.stringify(v) : output === 'text' ? v : new TextDecoder().decode(v as Uint8Array),
      );
      assertEqual(
        texts.map((t) => JSON.parse(t as string)),
        EXPECTED,
        output,
      );
    }
  });
});

group('stream semantics', () => {
  test('the source is read no further than the consumer needs', async () => {
    const chunks = ['[', ...Array.from({ length: 20 }, (_, i) => `{"i":${i}}${i < 19 ? ',' : ''}`), ']'];
    const source = countingSource(chunks);
    const iterator = parseJsonArray(source.stream)[Symbol.asyncIterator]();
    await settle();
    assertEqual(source.pulls, 0, 'pulls before the first next()');
    for (let i = 0; i < 20; i++) {
      const { done, value } = await iterator.next();
      assertEqual([done, value], [false, { i }], `element ${i}`);
      await settle();
      assertEqual(source.pulls, i + 2, `pulls after element ${i}`);
    }
    assertEqual((await iterator.next()).done, true);
  });

  test('break cancels the source', async () => {
    const source = countingSource(['[1,', '2,', '3,', '4]']);
    for await (const value of parseJsonArray(source.stream)) {
      if (value === 2) break;
    }
    assert(source.cancelled, 'the source was cancelled');
  });

  test('a source error reaches the consumer after the elements before it', async () => {
    const failure = new Error('upstream broke');
    const source = countingSource(['[1,', '2,'], { fail: failure });
    const { values, error } = await collect(parseJsonArray(source.stream));
    assertEqual(values, [1, 2]);
    assert(error === failure, `got ${String(error)}`);
  });

  test('native memory returns to its baseline after 2,000 parsers ended, broken off and failed', async () => {
    // The parser's module only: lazy documents dropped by earlier suites are freed whenever the collector runs.
    const heapInUse = () => nativeModule().parserHeapInUse();
    await settle();
    const baseline = heapInUse();
    for (let i = 0; i < 1000; i++) {
      const parser = createParser({ output: i % 2 ? 'bytes' : 'value' });
      parser.push('[{"a":[1,2,3]},"' + 'x'.repeat(i) + '"');
      if (i % 3 === 0) {
        parser.close();
      } else if (i % 3 === 1) {
        parser.push(']');
        parser.end();
      } else {
        try {
          parser.push(',]');
        } catch {
          // Expected: an error frees the parser.
        }
      }
    }
    for (let i = 0; i < 1000; i++) {
      for await (const value of parseJsonArray(byteStream('[1,2,3,4]', 2))) if (value === 2) break;
    }
    await settle();
    assertEqual(heapInUse(), baseline, 'bytes in use');
  });
});
