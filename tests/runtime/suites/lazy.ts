// The lazy documents in any engine, written once against the runner-neutral harness (tests/runtime/harness.ts):
// lazyParse's proxies are where engines differ most (Proxy traps, ownKeys order, for...in, spreading,
// Array.isArray, JSON.stringify of a proxy), and openJson restarts parsers behind a synthetic prefix. The page of
// tests/browser/lazy.test.ts runs these cases in Chromium, Firefox and WebKit on each build. Oracles: the
// engine's own JSON.parse, and tests/support/open_json_oracle.ts (JSON.parse's values, the first duplicate key
// winning on the way to a value, as a forward reader answers).
import {
  JsonLimitError,
  JsonPassedError,
  JsonSyntaxError,
  createParser,
  lazyParse,
  openJson,
  releaseLazy,
} from '../../../dist/index.js';
import { lazyTuning } from '../../../dist/lazy/index.js';
import { randomPieces, randomTextPieces, type Chunk } from '../../support/feed.ts';
import { isWithin, nameable, pathOf, readJson, type Entry } from '../../support/open_json_oracle.ts';
import { createRng, mutate, randomDocument } from '../../support/random_json.mjs';
import { assert, assertEqual, group, test } from '../harness.ts';

const SEED = 0x5eed;
const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const DEFAULT_TUNING = { ...lazyTuning };
type Rng = ReturnType<typeof createRng>;
type Path = (string | number)[];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

function allPaths(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) allPaths(value[i], [...path, i], out);
  } else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) allPaths((value as Record<string, unknown>)[key], [...path, key], out);
  }
  return out;
}

const at = (value: unknown, path: Path): Any => path.reduce((v: Any, key) => v[key], value);

/** Tiny thresholds half of the time: every nested container becomes a proxy, as in big documents. */
function tune(rng: Rng): void {
  Object.assign(lazyTuning, DEFAULT_TUNING);
  if (rng.chance(0.5)) {
    Object.assign(lazyTuning, {
      proxyMinBytes: rng.pick([1, 2, 16, 64]),
      findLimit: rng.pick([0, 1, 3]),
      rowProxyMinBytes: rng.pick([1, 4, 256]),
      spineMaxMembers: rng.pick([0, 1, 8]),
    });
  }
}

/** The parser's error for a whole text, the reference for codes and positions. */
function parserError(bytes: Uint8Array): JsonSyntaxError | null {
  const parser = createParser({ path: '$' });
  try {
    parser.push(bytes);
    parser.end();
    return null;
  } catch (error) {
    return error as JsonSyntaxError;
  }
}

group('lazyParse', () => {
  test("random documents: values at random paths, keys, in, for...in, spreading and JSON.stringify equal JSON.parse's", () => {
    const rng = createRng(SEED);
    try {
      for (let n = 0; n < 200; n++) {
        const text = randomDocument(rng, {
          maxDepth: rng.range(1, 6),
          maxItems: rng.range(1, 10),
          budget: rng.range(1, 120),
        }) as string;
        const where = `document ${n} ${JSON.stringify(text).slice(0, 200)}`;
        const expected = JSON.parse(text);
        const paths = allPaths(expected);
        tune(rng);
        const doc = lazyParse(rng.chance(0.5) ? text : encoder.encode(text)) as Any;
        for (let k = 0; k < Math.min(paths.length, 8); k++) {
          const path = rng.pick(paths);
          const want = at(expected, path);
          const got = at(doc, path);
          if (typeof want !== 'object' || want === null)
            assert(Object.is(got, want), `${where} ${JSON.stringify(path)}: ${got} !== ${want}`);
          else assertEqual(Object.keys(got), Object.keys(want), `${where} keys of ${JSON.stringify(path)}`);
        }
        assertEqual(doc, expected, where);
        assertEqual(
          JSON.stringify(lazyParse(text), null, 1),
          JSON.stringify(expected, null, 1),
          `${where} stringified`,
        );
        const third = lazyParse(text) as Any;
        for (const path of paths) {
          const want = at(expected, path);
          if (typeof want !== 'object' || want === null) continue;
          const got = at(third, path);
          const keys = Object.keys(want);
          const forIn: string[] = [];
          for (const key in got) forIn.push(key);
          assertEqual(
            [Object.keys(got), forIn, Array.isArray(got)],
            [keys, keys, Array.isArray(want)],
            `${where} ${JSON.stringify(path)}`,
          );
          for (const key of keys) assert(key in got, `${where}: "${key}" in ${JSON.stringify(path)}`);
          assert(!('no such key' in got), `${where}: an absent key is in ${JSON.stringify(path)}`);
          if (Array.isArray(want))
            assertEqual([got.length, [...got], got.map((x: unknown) => x)], [want.length, want, want], where);
          else assertEqual([Object.fromEntries(Object.entries(got)), { ...got }], [want, want], where);
        }
        for (const d of [doc, third]) releaseLazy(d);
      }
    } finally {
      Object.assign(lazyTuning, DEFAULT_TUNING);
    }
  });

  test("one-byte mutations: rejected exactly when JSON.parse rejects them, at or after the parser's error", () => {
    const rng = createRng(SEED + 1);
    let rejected = 0;
    let samePosition = 0;
    try {
      for (let n = 0; n < 400; n++) {
        const text = randomDocument(rng, {
          maxDepth: rng.range(1, 5),
          maxItems: rng.range(1, 8),
          budget: rng.range(1, 60),
        }) as string;
        const bytes: Uint8Array = mutate(rng, encoder.encode(text));
        const where = `mutant ${n} ${JSON.stringify(new TextDecoder().decode(bytes))}`;
        tune(rng);
        let expected: unknown;
        let valid = true;
        try {
          expected = JSON.parse(strictUtf8.decode(bytes));
        } catch {
          valid = false;
        }
        let error: unknown = null;
        let difference: unknown = null;
        try {
          const doc = lazyParse(bytes);
          if (valid) difference = doc;
          else JSON.stringify(doc); // reads and checks every part
        } catch (e) {
          error = e;
        }
        if (valid) {
          assert(error === null, `${where}: rejected (${String(error)})`);
          assertEqual(difference, expected, where);
          continue;
        }
        rejected++;
        assert(error instanceof JsonSyntaxError || error instanceof JsonLimitError, `${where}: got ${String(error)}`);
        const e = error as JsonSyntaxError;
        const reference = parserError(bytes);
        assert(
          reference !== null && e.offset >= reference.offset && e.offset <= bytes.length,
          `${where}: offset ${e.offset}, the parser's ${reference?.offset}`,
        );
        const before = bytes.subarray(0, e.offset);
        assertEqual(
          [e.line, e.column],
          [before.filter((b) => b === 0x0a).length + 1, e.offset - before.lastIndexOf(0x0a)],
          `${where}: line and column of offset ${e.offset}`,
        );
        if (e.offset === reference!.offset) {
          assertEqual(e.code, reference!.code, where);
          samePosition++;
        }
      }
    } finally {
      Object.assign(lazyTuning, DEFAULT_TUNING);
    }
    assert(
      rejected > 400 / 3 && samePosition > rejected * 0.8,
      `rejected ${rejected}, at the parser's position ${samePosition}`,
    );
  });

  test('JSON.parse semantics: the last duplicate wins, __proto__ is an own key, plain prototypes, writes throw', () => {
    Object.assign(lazyTuning, { proxyMinBytes: 1 });
    try {
      const text = '{"a":1,"b":[1,2,3],"a":{"x":2},"__proto__":{"polluted":true},"1":0,"0":1}';
      const doc = lazyParse(text) as Any;
      assertEqual(Object.keys(doc), Object.keys(JSON.parse(text)), 'keys');
      // biome-ignore lint/suspicious/noProto: `__proto__` is an own key of this document, read as such
      const proto = doc.__proto__;
      assertEqual(
        [doc.a, proto, doc.polluted, ({} as Any).polluted],
        [{ x: 2 }, { polluted: true }, undefined, undefined],
      );
      assert(
        Object.getPrototypeOf(doc) === Object.prototype && Object.hasOwn(doc, '__proto__'),
        'plain object, own __proto__',
      );
      // biome-ignore lint/suspicious/useIsArray: instanceof through the proxy is what is tested, next to isArray
      const isInstance = doc.b instanceof Array;
      assert(Array.isArray(doc.b) && Object.getPrototypeOf(doc.b) === Array.prototype && isInstance, 'plain array');
      assertEqual(
        [doc.b.map((x: number) => x * 2), doc.b.includes(2), doc.b[3], doc.b[-1]],
        [[2, 4, 6], true, undefined, undefined],
      );
      assertEqual(Reflect.ownKeys(doc.b), ['0', '1', '2', 'length'], 'ownKeys of an array');
      assertEqual(JSON.stringify(doc), JSON.stringify(JSON.parse(text)));
      let threw: unknown = null;
      try {
        doc.a = 3;
      } catch (error) {
        threw = error;
      }
      assert(threw instanceof TypeError, `a write threw ${String(threw)}`);
    } finally {
      Object.assign(lazyTuning, DEFAULT_TUNING);
    }
  });
});

async function* source(chunks: readonly Chunk[]): AsyncGenerator<Chunk> {
  for (const c of chunks) yield c;
}

function randomChunks(text: string, rng: Rng): Chunk[] {
  const maxPiece = rng.pick([1, 3, 16, 200, 5000]);
  if (rng.chance(0.5)) return randomPieces(encoder.encode(text), rng, maxPiece);
  return randomTextPieces(text, rng, maxPiece, 0.5, rng.chance(0.5));
}

function randomContainerText(rng: Rng): string {
  for (;;) {
    const text = randomDocument(rng, { maxDepth: 5, maxItems: 6, budget: 50 }) as string;
    const c = text.trimStart()[0];
    if (c === '{' || c === '[') return text;
  }
}

function absentPath(entry: Entry, rng: Rng): Path {
  const steps = [...entry.steps];
  if (Array.isArray(entry.value)) steps.push(rng.chance(0.5) ? entry.value.length + rng.int(3) : 'zz_absent');
  else steps.push('zz_absent');
  return steps;
}

group('openJson', () => {
  test('kept: get() of random paths in any order and an iteration equal the oracle, through random chunkings', async () => {
    const rng = createRng(SEED + 2);
    for (let d = 0; d < 120; d++) {
      const text = randomContainerText(rng);
      const { entries } = readJson(text);
      const doc = openJson(source(randomChunks(text, rng)));
      // A member whose key holds a lone surrogate has no RFC 9535 name: only a wildcard reaches it.
      const named = entries.filter((e) => nameable(e.steps));
      for (let k = rng.range(1, 5); k > 0; k--) {
        const entry = rng.pick(named);
        const absent = rng.chance(0.2);
        const path = pathOf(absent ? absentPath(entry, rng) : entry.steps, rng.int);
        assertEqual(
          await doc.get(path),
          absent ? undefined : entry.value,
          `document ${d} ${JSON.stringify(text)}, get(${path})`,
        );
      }
      const c = rng.pick(named.filter((e) => e.elements !== null));
      const path = pathOf(c.steps, rng.int) + (Array.isArray(c.value) ? '[*]' : '.*');
      const items: unknown[] = [];
      // As an AsyncIterable: Deno type-checks against the JavaScript of dist/, whose iterator's throw() it misreads.
      for await (const item of doc.iterate(path) as unknown as AsyncIterable<unknown>) items.push(item);
      assertEqual(items, c.elements, `document ${d} ${JSON.stringify(text)}, iterate(${path})`);
    }
  });

  test('transient: values ahead equal the oracle, absent ones are undefined, passed ones throw JsonPassedError', async () => {
    const rng = createRng(SEED + 3);
    const asked = { ahead: 0, absent: 0, passed: 0 };
    for (let d = 0; d < 120; d++) {
      const text = randomContainerText(rng);
      const { entries } = readJson(text);
      const doc = openJson(source(randomChunks(text, rng)), { transient: true });
      let last = -1;
      for (let e = 0; e < entries.length; e++) {
        const entry = entries[e]!;
        if (entry.steps.length === 0 || !nameable(entry.steps) || !rng.chance(0.3)) continue;
        const where = `document ${d} ${JSON.stringify(text)}`;
        if (e <= last || (last >= 0 && isWithin(entry.steps, entries[last]!.steps))) {
          const path = pathOf(entry.steps, rng.int);
          const error = await doc.get(path).then(
            () => null,
            (err: unknown) => err,
          );
          assert(error instanceof JsonPassedError, `${where}: get(${path}) of a passed value gave ${String(error)}`);
          asked.passed++;
          continue;
        }
        const absent = rng.chance(0.2);
        const path = pathOf(absent ? absentPath(entry, rng) : entry.steps, rng.int);
        assertEqual(await doc.get(path), absent ? undefined : entry.value, `${where}, get(${path})`);
        asked[absent ? 'absent' : 'ahead']++;
        last = e;
      }
    }
    assert(Math.min(asked.ahead, asked.absent, asked.passed) > 10, `requests made: ${JSON.stringify(asked)}`);
  });

  test("errors: the parser's code, offset, line, column and message, after a value read before them", async () => {
    const good = '{\n "a": [1, 2],\n "b": {"c": 3},\n';
    for (const text of [
      `${good} "d": [1 2]\n}`,
      `${good} "d": tru\n}`,
      `${good} "d": [1, 2]\n`,
      `${good} "d": "\u0001"}`,
    ]) {
      const expected = parserError(encoder.encode(text))!;
      for (const transient of [false, true]) {
        for (const size of [1, 7, 1000]) {
          const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
            text.slice(i * size, i * size + size),
          );
          const doc = openJson(source(chunks), { transient });
          assertEqual(await doc.get('$.b.c'), 3, `${JSON.stringify(text)} in ${size}-character chunks`);
          const error = await doc
            .get('$.d[1]')
            .then(() => doc.get('$.zz'))
            .catch((e: unknown) => e);
          assert(error instanceof JsonSyntaxError, `${JSON.stringify(text)}: got ${String(error)}`);
          assertEqual(
            [error.code, error.offset, error.line, error.column, error.message],
            [expected.code, expected.offset, expected.line, expected.column, expected.message],
            JSON.stringify(text),
          );
        }
      }
    }
  });
});
