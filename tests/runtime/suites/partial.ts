// createPartialParser and partialJson in any runtime, written once against the runner-neutral harness: Node
// (tests/node/partial_runtime.test.ts), `deno test`, `bun test` and a page of each browser (tests/browser/
// partial.test.ts). The partial parser is pure JavaScript, so what can differ between engines is the engine
// itself: string and TextDecoder handling of split characters, frozen objects, the Proxy behind long arrays,
// ReadableStream cancellation. Oracles: tests/support/partial_oracle.mjs (a prefix cut back by the rules, closed,
// then the engine's own JSON.parse), and createParser for errors. The Node suites (tests/node/partial_*.test.ts)
// go further: JSONTestSuite, thousands of mutations, small limits.
import { JsonSyntaxError, createPartialParser, partialJson } from '../../../dist/index.js';
import { firstDifference } from '../../support/deep_equal.mjs';
import {
  errorInfo,
  parseChunks,
  randomPieces,
  randomTextPieces,
  type Chunk,
  type ErrorInfo,
} from '../../support/feed.ts';
import {
  HAND_WRITTEN,
  hasDuplicateKeys,
  longArrays,
  randomDocuments,
  wideObjects,
} from '../../support/partial_documents.ts';
import { expectedSnapshot, textOfBytes } from '../../support/partial_oracle.mjs';
import { createRng, mutate, randomDocument } from '../../support/random_json.mjs';
import { asyncIterableOf, collect, countingSource } from '../../support/sources.ts';
import { assert, assertEqual, group, test } from '../harness.ts';

const SEED = 0x9a27;
// Written out rather than imported: Deno type-checks this file against the JavaScript of dist/, not its .d.ts.
type PartialJsonOptions = { readonly numbers?: 'complete' | 'partial' };
type Json = Record<string, unknown>;
const encoder = new TextEncoder();
const MODES = ['complete', 'partial'] as const;
// Arrays of this many elements and more are published as views (js/partial/tree.ts, treeTuning.viewMinLength), and
// objects of this many members (treeTuning.objectViewMinKeys).
const VIEW_MIN = 64;
const OBJECT_VIEW_MIN = 64;

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function characters(text: string): string[] {
  return Array.from({ length: text.length }, (_, i) => text[i]!);
}

function bytesOf(text: string): Uint8Array[] {
  const bytes = encoder.encode(text);
  return Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
}

/**
 * Pushes the chunks: after each, the snapshot equals the oracle's for everything pushed so far (as text: string
 * chunks as they are, byte chunks through the UTF-8 of everything so far); end() gives JSON.parse's value.
 */
function checkPrefixes(text: string, chunks: readonly Chunk[], options: PartialJsonOptions, where: string): void {
  const parser = createPartialParser(options);
  let textSoFar = '';
  let bytesSoFar: Uint8Array = new Uint8Array(0);
  let usesBytes = false;
  for (const chunk of chunks) {
    const snapshot = parser.push(chunk);
    if (typeof chunk === 'string') {
      textSoFar += chunk;
      if (usesBytes) bytesSoFar = concatBytes(bytesSoFar, encoder.encode(chunk));
    } else {
      if (!usesBytes) bytesSoFar = encoder.encode(textSoFar);
      usesBytes = true;
      bytesSoFar = concatBytes(bytesSoFar, chunk);
    }
    const prefix = usesBytes ? textOfBytes(bytesSoFar) : textSoFar;
    assertEqual(snapshot, expectedSnapshot(prefix, options), `${where} after ${JSON.stringify(prefix.slice(-40))}`);
    assert(parser.value === snapshot, `${where}: value is not the snapshot push() returned`);
  }
  const final = parser.end();
  assertEqual(final, JSON.parse(text.replace(/^\ufeff/, '')), `${where}: end()`);
  assertEqual(unfrozen(final, null), null, `${where}: end()`);
}

group('createPartialParser prefixes', () => {
  test('hand-written documents split everywhere: each character, each byte, every two-chunk split', () => {
    for (const numbers of MODES) {
      for (const [d, text] of HAND_WRITTEN.entries()) {
        const where = `${numbers} document ${d} ${JSON.stringify(text)}`;
        checkPrefixes(text, characters(text), { numbers }, `${where} by character`);
        checkPrefixes(text, bytesOf(text), { numbers }, `${where} by byte`);
        for (let at = 0; at <= text.length; at++) {
          checkPrefixes(text, [text.slice(0, at), text.slice(at)], { numbers }, `${where} split at ${at}`);
        }
        const bytes = encoder.encode(text);
        for (let at = 0; at <= bytes.length; at++) {
          const split = [bytes.subarray(0, at), bytes.subarray(at)];
          checkPrefixes(text, split, { numbers }, `${where} split at byte ${at}`);
        }
      }
    }
  });

  test('random documents by character, by byte, and in random deltas of text and bytes', () => {
    const rng = createRng(SEED);
    for (const numbers of MODES) {
      for (const [d, text] of randomDocuments(20, SEED).entries()) {
        const where = `${numbers} random document ${d} ${JSON.stringify(text)}`;
        checkPrefixes(text, characters(text), { numbers }, `${where} by character`);
        checkPrefixes(text, bytesOf(text), { numbers }, `${where} by byte`);
        checkPrefixes(text, randomTextPieces(text, rng, 12, 0, true), { numbers }, `${where} split pairs`);
        checkPrefixes(text, randomTextPieces(text, rng, 12, 0.5), { numbers }, `${where} text and bytes`);
      }
    }
  });
});

/** A plain deep copy (views become arrays): what a snapshot showed, kept to compare with later. */
function copy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Array.from(value, copy);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = copy((value as Record<string, unknown>)[key]);
    Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Every finished container is frozen, or (a long array, a wide object) a view; the open ones are those on `open`, the
 * path of the value still being written (`parser.pending`).
 */
function unfrozen(value: unknown, open: readonly (string | number)[] | null, path = '$', at = 0): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const isOpen = open !== null && at <= open.length;
  const view = Array.isArray(value) ? value.length >= VIEW_MIN : Object.keys(value).length >= OBJECT_VIEW_MIN;
  if (!isOpen && !Object.isFrozen(value) && !view) return `${path} is not frozen`;
  for (const key of Object.keys(value)) {
    const onPath = isOpen && at < open.length && String(open[at]) === key;
    const found = unfrozen((value as Record<string, unknown>)[key], onPath ? open : null, `${path}.${key}`, at + 1);
    if (found !== null) return found;
  }
  return null;
}

/** Between consecutive snapshots, a subtree equal to its previous version is that very object. */
function unshared(before: unknown, after: unknown, path = '$'): string | null {
  if (before === after || typeof before !== 'object' || before === null) return null;
  if (typeof after !== 'object' || after === null || Array.isArray(before) !== Array.isArray(after)) return null;
  if (firstDifference(after, before) === null) return `${path}: equal to its previous version but a new object`;
  for (const key of Object.keys(after)) {
    if (!Object.hasOwn(before, key)) continue;
    const inner = (value: object) => (value as Record<string, unknown>)[key];
    const found = unshared(inner(before), inner(after), `${path}.${key}`);
    if (found !== null) return found;
  }
  return null;
}

function deltas(text: string, seed: number, max: number): string[] {
  const rng = createRng(seed);
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    const end = at + rng.range(1, max);
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/** Streams the text: finished containers frozen, shared where unchanged, and never changed afterwards. */
function checkSnapshots(text: string, chunks: readonly string[], where: string): void {
  const parser = createPartialParser();
  const kept: { snapshot: unknown; shown: unknown }[] = [];
  let previous: unknown;
  for (const chunk of chunks) {
    const snapshot = parser.push(chunk);
    const at = `${where} after ${JSON.stringify(chunk)}`;
    assertEqual(unfrozen(snapshot, parser.pending), null, at);
    if (snapshot === previous) {
      assertEqual(copy(snapshot), kept.at(-1)?.shown, `${at}: the same root shows something else`);
    } else {
      assertEqual(unshared(previous, snapshot), null, at);
      const changed = previous === undefined || firstDifference(copy(snapshot), kept.at(-1)!.shown) !== null;
      assert(changed, `${at}: a new root shows nothing new`);
      kept.push({ snapshot, shown: copy(snapshot) });
    }
    previous = snapshot;
  }
  const final = parser.end();
  assertEqual(final, JSON.parse(text.replace(/^\ufeff/, '')), `${where}: end()`);
  assertEqual(unfrozen(final, null), null, `${where}: end()`);
  for (const { snapshot, shown } of kept) assertEqual(copy(snapshot), shown, `${where}: an earlier snapshot changed`);
}

function throwsTypeError(run: () => unknown): boolean {
  try {
    run();
  } catch (error) {
    return error instanceof TypeError;
  }
  return false;
}

group('createPartialParser snapshots', () => {
  test('finished parts frozen, shared where unchanged, never changed afterwards: by character and in deltas', () => {
    const documents = [...HAND_WRITTEN, ...randomDocuments(30, SEED + 1)].filter((text) => !hasDuplicateKeys(text));
    assert(documents.length > 30, `only ${documents.length} documents without duplicate keys`);
    for (const [d, text] of documents.entries()) {
      checkSnapshots(text, characters(text), `document ${d} ${JSON.stringify(text)} by character`);
      checkSnapshots(text, deltas(text, SEED + d, 8), `document ${d} ${JSON.stringify(text)} in deltas`);
    }
  });

  test('a push that completes nothing returns the same root; new objects only along the changed path', () => {
    const parser = createPartialParser();
    const root = parser.push('{"a":[1,{"b":"x"}],"c');
    for (const chunk of ['d', '"', ' ', ':', ' ', '1', '2', '.', '5', 'e', '-']) {
      assert(parser.push(chunk) === root, `push(${JSON.stringify(chunk)}) made a new root`);
    }
    const next = parser.push('3,') as unknown as Json;
    assert(next !== root, 'a completed number made no new root');
    assert(next.a === (root as unknown as Json).a, 'an unchanged member is a new object');
    assertEqual(next, { a: [1, { b: 'x' }], cd: 12.5e-3 });
  });

  test('an open snapshot becomes the value when it closes unchanged; one written into does not', () => {
    const untouched = createPartialParser();
    const open = untouched.push('{"a":[1,2],"b":{"c":"d"') as unknown as Record<string, Record<string, unknown>>;
    assert(!Object.isFrozen(open) && Object.isFrozen(open.a), 'the open root is frozen, or its finished array not');
    assert(untouched.push('}}') === (open as unknown), 'closing changed the root');
    assert(Object.isFrozen(open) && Object.isFrozen(open.b), 'closed but not frozen');
    const written = createPartialParser();
    const shown = written.push('{"a":[1,2],"b":{"c":"d"') as unknown as Record<string, Record<string, unknown>>;
    shown.b!.c = 'changed';
    shown.x = {};
    const root = written.push('}}') as unknown;
    assertEqual(root, { a: [1, 2], b: { c: 'd' } });
    assert(written.end() === root, 'end() is not the last snapshot');
  });

  test('writes to a snapshot throw (module code is strict) and change nothing', () => {
    const parser = createPartialParser();
    const root = parser.push('{"a":[1,2],"b":{"c":"d"}}') as unknown as Json;
    assert(Object.isFrozen(root) && Object.isFrozen(root.a) && Object.isFrozen(root.b), 'not frozen');
    assert(
      throwsTypeError(() => {
        root.x = 1;
      }),
      'a new member was written',
    );
    assert(
      throwsTypeError(() => (root.a as unknown[]).push(3)),
      'an element was pushed',
    );
    assertEqual(parser.end(), { a: [1, 2], b: { c: 'd' } });
  });

  test('a long array is a view: reads like an array, read-only, never changes', () => {
    const text = longArrays(300);
    const parser = createPartialParser();
    const views: { view: readonly unknown[]; shown: unknown[] }[] = [];
    for (const chunk of deltas(text, SEED, 5)) {
      const numbers = (parser.push(chunk) as Record<string, readonly unknown[]> | undefined)?.numbers;
      if (numbers === undefined || numbers.length < VIEW_MIN) continue;
      if (views.at(-1)?.view !== numbers) views.push({ view: numbers, shown: Array.from(numbers) });
    }
    assert(views.length > 100, `${views.length} views`);
    for (const { view, shown } of views) assertEqual(Array.from(view), shown, 'a view changed');
    const final = parser.end() as unknown as Record<string, readonly unknown[]>;
    const expected = JSON.parse(text) as Record<string, unknown[]>;
    const numbers = final.numbers!;
    assert(Array.isArray(numbers) && !Object.isFrozen(numbers), 'the final numbers are not a view');
    assert(Object.getPrototypeOf(numbers) === Array.prototype, 'a view has another prototype');
    assertEqual(
      [numbers.length, numbers[299], numbers[300], Object.keys(numbers).length],
      [300, expected.numbers![299], undefined, 300],
    );
    assertEqual([[...numbers], numbers.map((n) => n)], [expected.numbers, expected.numbers]);
    assertEqual(JSON.stringify(final), JSON.stringify(expected));
    const writable = numbers as unknown[];
    assert(
      throwsTypeError(() => {
        writable[0] = 1;
      }),
      'a view element was written',
    );
    assert(
      throwsTypeError(() => writable.push(1)),
      'a view was pushed to',
    );
    assert(
      throwsTypeError(() => {
        delete writable[0];
      }),
      'a view element was deleted',
    );
    assert(Object.isFrozen(final.records![5]), 'an element of a view is not frozen');
  });

  test('a wide object is a view: reads like an object, read-only, never changes', () => {
    const text = wideObjects(200, true);
    const parser = createPartialParser();
    const views: { view: Json; shown: unknown }[] = [];
    for (const chunk of deltas(text, SEED, 5)) {
      const wide = (parser.push(chunk) as Record<string, Json> | undefined)?.wide;
      if (wide === undefined || Object.keys(wide).length < OBJECT_VIEW_MIN) continue;
      if (views.at(-1)?.view !== wide) views.push({ view: wide, shown: copy(wide) });
    }
    assert(views.length > 50, `${views.length} views`);
    for (const { view, shown } of views) assertEqual(copy(view), shown, 'a view changed');
    assertEqual(firstDifference(parser.end(), JSON.parse(text)), null);
    const { view } = views[views.length >> 1]!;
    const plain = Object.fromEntries(Object.keys(view).map((key) => [key, view[key]]));
    assert(!Object.isFrozen(view) && Object.getPrototypeOf(view) === Object.prototype, 'not a view');
    assertEqual(Reflect.ownKeys(view), Reflect.ownKeys(plain));
    assertEqual(JSON.stringify({ ...view }), JSON.stringify(plain));
    assert('k1' in view && !('k9999' in view), '`in` is wrong');
    assert(
      throwsTypeError(() => {
        view.k1 = 1;
      }),
      'a view member was written',
    );
  });
});

interface Outcome {
  value?: unknown;
  error: ErrorInfo | null;
  /** Which call threw: the index of the push, or -1 for end(). */
  thrownBy?: number;
  /** The snapshot after the error. */
  after?: unknown;
}

function partialOutcome(chunks: readonly Chunk[]): Outcome {
  const parser = createPartialParser();
  let call = 0;
  try {
    for (; call < chunks.length; call++) parser.push(chunks[call]!);
    call = -1;
    return { value: parser.end(), error: null };
  } catch (error) {
    const outcome = { error: errorInfo(error), thrownBy: call, after: parser.value };
    // The error is sticky, and the snapshot stays.
    for (const again of [() => parser.push('1'), () => parser.end()]) {
      let rethrown: unknown = null;
      try {
        again();
      } catch (e) {
        rethrown = e;
      }
      assert(rethrown === error, `after the error, a call threw ${String(rethrown)}`);
    }
    assert(parser.value === outcome.after, 'the snapshot changed after the error');
    return outcome;
  }
}

/** createParser's outcome with path '$' (the root as the one element): the reference for errors. */
function nativeOutcome(chunks: readonly Chunk[]): Outcome {
  const { values, error } = parseChunks(chunks, { path: '$' });
  return error === null ? { value: values[0], error } : { error };
}

function assertSameOutcome(actual: Outcome, expected: Outcome, where: string): void {
  assertEqual(actual.error, expected.error, `${where}: error`);
  if (expected.error === null) assertEqual(actual.value, expected.value, `${where}: value`);
}

/** One byte at a time: the push of the byte at the error's offset throws, and the snapshot shows what precedes it. */
function assertPromptError(bytes: Uint8Array, outcome: Outcome, where: string): void {
  const error = outcome.error!;
  if (error.code === 'UNEXPECTED_END') assertEqual(outcome.thrownBy, -1, `${where}: thrown by`);
  else if (error.offset === 0 && bytes[0] === 0xef)
    return; // the start of a byte order mark waits for its end
  else assertEqual(outcome.thrownBy, error.offset, `${where}: thrown by`);
  let expected: unknown;
  try {
    const ended = error.code === 'UNEXPECTED_END';
    expected = expectedSnapshot(textOfBytes(bytes.subarray(0, error.offset)), { ended });
  } catch {
    return; // the text before the error is no prefix the oracle can read
  }
  assertEqual(outcome.after, expected, `${where}: the snapshot after the error`);
}

group('createPartialParser errors', () => {
  test("broken documents: createParser's code, offset, line and column, from the push of the offending byte", () => {
    const broken = [
      '{"items":[1,2,\n  3 x]}',
      '[1,]',
      '{"a" 1}',
      '["a\tb"]',
      '["\\x"]',
      '[01]',
      '[tru]',
      '[1,2',
      '{"a":"b',
      '[] []',
      '["\\u12G4"]',
      '\ufeff\ufeff[]',
      '{"a":[1,{"b":nul}]}',
    ];
    for (const text of broken) {
      const bytes = encoder.encode(text);
      const expected = nativeOutcome([bytes]);
      assert(expected.error !== null, `${JSON.stringify(text)} was accepted`);
      assertSameOutcome(partialOutcome([text]), expected, `${JSON.stringify(text)} as text`);
      const bytewise = partialOutcome(bytesOf(text));
      assertSameOutcome(bytewise, expected, `${JSON.stringify(text)} by byte`);
      assertPromptError(bytes, bytewise, JSON.stringify(text));
    }
    const parser = createPartialParser();
    parser.push('{"items":[1,2');
    let caught: unknown = null;
    try {
      parser.push(',\n  3 x]}');
    } catch (error) {
      caught = error;
    }
    assert(caught instanceof JsonSyntaxError, `got ${String(caught)}`);
    assertEqual(
      [caught.code, caught.offset, caught.line, caught.column, caught.message],
      [
        'EXPECTED_COMMA_OR_BRACKET',
        19,
        2,
        5,
        'Cannot parse JSON: expected "," or "]" but found "x" at byte 19 (line 2, column 5)',
      ],
    );
    assertEqual(parser.value, { items: [1, 2, 3] });
  });

  test('one-byte mutations of random documents: whole, by byte and in random pieces, as createParser', () => {
    const rng = createRng(SEED + 2);
    let rejected = 0;
    for (let i = 0; i < 300; i++) {
      const bytes = mutate(rng, encoder.encode(randomDocument(rng, { budget: 30 }))) as Uint8Array;
      const where = JSON.stringify(new TextDecoder().decode(bytes));
      const expected = nativeOutcome([bytes]);
      if (expected.error !== null) rejected++;
      assertSameOutcome(partialOutcome([bytes]), expected, where);
      const pieces = randomPieces(bytes, rng, 16);
      assertSameOutcome(partialOutcome(pieces), nativeOutcome(pieces), `${where} in pieces`);
      const bytewise = partialOutcome(Array.from(bytes, (_, k) => bytes.subarray(k, k + 1)));
      assertSameOutcome(bytewise, expected, `${where} by byte`);
      if (expected.error !== null) assertPromptError(bytes, bytewise, where);
    }
    assert(rejected > 150, `only ${rejected} of 300 mutants rejected`);
  });
});

/** A ReadableStream of `chunks` whose next pull after them never settles: a source that is still producing. */
function stalledStream(chunks: readonly Chunk[]): { stream: ReadableStream<Chunk>; cancelled: () => unknown } {
  let pulls = 0;
  let reason: unknown = 'not cancelled';
  const stream = new ReadableStream<Chunk>(
    {
      pull(controller) {
        if (pulls < chunks.length) controller.enqueue(chunks[pulls++]!);
        else return new Promise<void>(() => {});
      },
      cancel(why) {
        reason = why;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, cancelled: () => reason };
}

group('partialJson', () => {
  const text = '{"title":"Hello","items":[1,2,3],"done":true}';
  const chunks = ['{"title":"He', 'llo",', '"items":[1,', '2,3]', ',"done":tr', 'ue}'];

  test('over a ReadableStream of text and one of bytes: a snapshot per chunk that changed the value', async () => {
    // ',"done":tr' shows nothing new (a literal shows once whole): no snapshot for it.
    const expected = [
      { title: 'He' },
      { title: 'Hello' },
      { title: 'Hello', items: [1] },
      { title: 'Hello', items: [1, 2, 3] },
      JSON.parse(text),
    ];
    for (const source of [countingSource(chunks), countingSource(chunks.map((c) => encoder.encode(c)))]) {
      const { values, error } = await collect(partialJson(source.stream));
      assertEqual([values, error], [expected, undefined]);
      assert(!source.cancelled, 'a stream read to its end was cancelled');
    }
    const fromResponse = await collect(partialJson(new Response(text)));
    assertEqual([fromResponse.values.at(-1), fromResponse.error], [JSON.parse(text), undefined]);
  });

  test('breaking out of the loop cancels the stream, which is read no further', async () => {
    const source = countingSource(chunks);
    for await (const snapshot of partialJson(source.stream)) {
      if ((snapshot as { title?: string }).title === 'Hello') break;
    }
    assertEqual([source.cancelled, source.pulls], [true, 2]);
  });

  test('return() while a read is pending cancels the stream at once; the pending next() ends the loop', async () => {
    const { stream, cancelled } = stalledStream(['{"a":', '[1,']);
    const iterator = partialJson(stream);
    const step = (result: IteratorResult<unknown>) => [result.done, result.value];
    assertEqual(step(await iterator.next()), [false, {}]);
    assertEqual(step(await iterator.next()), [false, { a: [1] }]);
    const pending = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 5));
    assertEqual(step(await iterator.return!()), [true, undefined]);
    assertEqual(cancelled(), undefined, 'the cancel reason');
    assertEqual(step(await pending), [true, undefined]);
  });

  test('an error comes after the snapshots before it, at its absolute offset; the stream is cancelled', async () => {
    const source = countingSource(['[1,', '2', ' x', ']']);
    const { values, error } = await collect(partialJson(source.stream));
    assertEqual(values, [[1], [1, 2]]);
    assert(error instanceof JsonSyntaxError, `got ${String(error)}`);
    assertEqual([error.code, error.offset], ['EXPECTED_COMMA_OR_BRACKET', 5]);
    assertEqual([source.cancelled, source.pulls], [true, 3]);
    const truncated = await collect(partialJson(asyncIterableOf(['{"a":"b'])));
    assertEqual(truncated.values, [{ a: 'b' }]);
    assert(truncated.error instanceof JsonSyntaxError, `got ${String(truncated.error)}`);
    assertEqual([truncated.error.code, truncated.error.offset], ['UNEXPECTED_END', 7]);
  });
});
