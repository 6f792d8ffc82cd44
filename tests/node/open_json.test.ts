// openJson against an independent reading of the same text (tests/support/open_json_oracle.ts, JSON.parse's
// values with the first duplicate key winning): seeded random documents through random chunkings, random sets of
// paths asked in random order (kept documents) or in stream order (transient ones), iterations, absent paths;
// passed paths in transient documents; errors with absolute offsets; every source kind.
import { describe, expect, test } from 'vitest';
import { JsonPassedError, JsonSyntaxError, createParser, openJson } from '../../dist/index.js';
import { firstDifference } from '../support/deep_equal.mjs';
import { randomPieces, randomTextPieces, type Chunk } from '../support/feed.js';
import { isWithin, nameable, pathOf, readJson, type Entry } from '../support/open_json_oracle.js';
import { createRng, randomDocument } from '../support/random_json.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x0be7);
const DOCUMENTS = 300;
const encoder = new TextEncoder();

type Rng = ReturnType<typeof createRng>;

function randomChunks(text: string, rng: Rng): Chunk[] {
  const maxPiece = rng.pick([1, 3, 16, 200, 5000]);
  switch (rng.int(3)) {
    case 0:
      return randomPieces(encoder.encode(text), rng, maxPiece);
    case 1:
      return randomTextPieces(text, rng, maxPiece, 0, rng.chance(0.5));
    default:
      return randomTextPieces(text, rng, maxPiece, 0.5);
  }
}

async function* source(chunks: readonly Chunk[]): AsyncGenerator<Chunk> {
  for (const c of chunks) yield c;
}

/** A random document whose root is a container, so that there are paths to ask for. */
function randomText(rng: Rng): string {
  for (;;) {
    const text = randomDocument(rng, { maxDepth: 5, maxItems: 6, budget: 50 }) as string;
    const c = text.trimStart()[0];
    if (c === '{' || c === '[') return text;
  }
}

function absentPath(entry: Entry, rng: Rng): (string | number)[] {
  const steps = [...entry.steps];
  if (Array.isArray(entry.value)) steps.push(rng.chance(0.5) ? entry.value.length + rng.int(3) : 'zz_absent');
  else if (entry.elements !== null) steps.push(rng.chance(0.5) ? 'zz_absent' : 0);
  else steps.push('zz_absent');
  return steps;
}

describe('random documents, random paths, random chunkings', () => {
  test(`kept: get() of any path in any order equals the oracle (seed ${SEED})`, async () => {
    const rng = createRng(SEED);
    for (let d = 0; d < DOCUMENTS; d++) {
      const text = randomText(rng);
      const { entries } = readJson(text);
      const doc = openJson(source(randomChunks(text, rng)));
      const asks = rng.range(1, 6);
      const named = entries.filter((e) => nameable(e.steps));
      for (let k = 0; k < asks; k++) {
        const entry = rng.pick(named);
        const absent = rng.chance(0.2);
        const steps = absent ? absentPath(entry, rng) : entry.steps;
        const path = pathOf(steps, rng.int);
        const got = await doc.get(path);
        const diff = firstDifference(got, absent ? undefined : entry.value);
        if (diff !== null) throw new Error(`document ${d} ${JSON.stringify(text)}, get(${path}): ${diff}`);
      }
      // An iteration of a random container after the gets: every element, in order.
      const containers = named.filter((e) => e.elements !== null);
      const c = rng.pick(containers);
      const path = pathOf(c.steps, rng.int) + (Array.isArray(c.value) ? '[*]' : '.*');
      const items: unknown[] = [];
      for await (const item of doc.iterate(path)) items.push(item);
      const diff = firstDifference(items, c.elements);
      if (diff !== null) throw new Error(`document ${d} ${JSON.stringify(text)}, iterate(${path}): ${diff}`);
    }
  });

  test(`transient: values ahead equal the oracle, absent ones are undefined, passed ones throw (seed ${SEED})`, async () => {
    const rng = createRng(SEED + 1);
    const asked = { ahead: 0, absent: 0, passed: 0 };
    for (let d = 0; d < DOCUMENTS; d++) {
      const text = randomText(rng);
      const { entries } = readJson(text);
      const doc = openJson(source(randomChunks(text, rng)), { transient: true });
      let last = -1; // pre-order index of the value the cursor stands after
      const fail = (what: string, diff: string) => {
        throw new Error(`document ${d} ${JSON.stringify(text)}, ${what}: ${diff}`);
      };
      for (let e = 0; e < entries.length; e++) {
        const entry = entries[e]!;
        const passed = e <= last || (last >= 0 && isWithin(entry.steps, entries[last]!.steps));
        if (entry.steps.length === 0 || !nameable(entry.steps) || !rng.chance(0.3)) continue;
        if (passed) {
          // Anything whose first byte the cursor has read: an ancestor, a value inside, an earlier sibling.
          const path = pathOf(entry.steps, rng.int);
          const error = await doc.get(path).then(
            () => null,
            (err: unknown) => err,
          );
          if (!(error instanceof JsonPassedError)) fail(`get(${path}) of a passed value`, String(error));
          asked.passed++;
          continue;
        }
        const absent = rng.chance(0.2);
        const iterate = !absent && entry.elements !== null && rng.chance(0.3);
        const steps = absent ? absentPath(entry, rng) : entry.steps;
        const path = pathOf(steps, rng.int) + (iterate ? (Array.isArray(entry.value) ? '[*]' : '.*') : '');
        let got: unknown;
        if (iterate) {
          const items: unknown[] = [];
          for await (const item of doc.iterate(path)) items.push(item);
          got = items;
        } else {
          got = await doc.get(path);
        }
        const diff = firstDifference(got, absent ? undefined : iterate ? entry.elements : entry.value);
        if (diff !== null) fail(path, diff);
        asked[absent ? 'absent' : 'ahead']++;
        last = e;
      }
    }
    // Each kind of request was really made, many times.
    expect(Math.min(asked.ahead, asked.absent, asked.passed)).toBeGreaterThan(50);
  });
});

describe('kept documents', () => {
  const text = '{"meta":{"total":3,"tags":["a","b"]},"rows":[{"id":1},{"id":2},{"id":3}],"total":42}';

  test('reads only as far as the value asked for', async () => {
    const chunks = Array.from({ length: Math.ceil(text.length / 8) }, (_, i) => text.slice(i * 8, i * 8 + 8));
    let pulled = 0;
    const doc = openJson(
      (async function* () {
        for (const c of chunks) {
          pulled++;
          yield c;
        }
      })(),
    );
    expect(await doc.get('$.meta.total')).toBe(3);
    const afterTotal = pulled;
    expect(afterTotal).toBeLessThan(chunks.length / 2);
    expect(await doc.get('$.meta')).toEqual({ total: 3, tags: ['a', 'b'] });
    expect(pulled).toBe(afterTotal + 2); // up to the end of $.meta
    expect(await doc.get('$.meta.nope')).toBeUndefined(); // its object ended: no more reading
    expect(pulled).toBe(afterTotal + 2);
    expect(await doc.get('$.total')).toBe(42);
    expect(await doc.get('$.meta.tags[1]')).toBe('b'); // behind the cursor: from the bytes kept
    expect(await doc.get('$')).toEqual(JSON.parse(text));
  });

  test('every source kind', async () => {
    const bytes = encoder.encode(text);
    const sources = [
      text,
      bytes,
      new Response(text),
      new Blob([text]).stream(),
      source([bytes.subarray(0, 5), bytes.subarray(5)]),
    ];
    for (const s of sources) {
      const doc = openJson(s);
      expect(await doc.get('$.rows[1].id')).toBe(2);
      const ids: unknown[] = [];
      for await (const row of doc.iterate<{ id: number }>('$.rows[*]')) ids.push(row.id);
      expect(ids).toEqual([1, 2, 3]);
    }
  });

  test('invalid arguments (every message: misuse.test.ts)', async () => {
    const sources =
      'a ReadableStream, a Response, an AsyncIterable of Uint8Array or string chunks, a Uint8Array or a string';
    expect(() => openJson(42 as never)).toThrow(new TypeError(`openJson(): source must be ${sources}, got 42`));
    expect(() => openJson(text, { transient: 'yes' } as never)).toThrow(
      new TypeError('openJson(): options.transient must be a boolean, got "yes"'),
    );
    const doc = openJson(text);
    await expect(doc.get('$.rows[*]')).rejects.toThrow(
      /^doc\.get\(\): path "\$\.rows\[\*\]" at 7: openJson takes singular queries .*; use doc\.iterate\(\) for several/,
    );
    await expect(doc.get('rows')).rejects.toThrow(/^doc\.get\(\): path "rows" at 0: expected "\$"/);
    expect(() => doc.iterate('$.rows')).toThrow(/^doc\.iterate\(\): path "\$\.rows" selects one value/);
    expect(await doc.get('$.total')).toBe(42);
  });

  test('requests made at once are served one at a time, in call order', async () => {
    const doc = openJson(source(Array.from(text)));
    const got = await Promise.all([
      doc.get('$.total'),
      doc.get('$.meta.tags[0]'),
      doc.get('$.rows[2].id'),
      doc.get('$.x'),
    ]);
    expect(got).toEqual([42, 'a', 3, undefined]);
  });

  test('a get inside an iteration is rejected; after it, it works', async () => {
    const doc = openJson(text);
    for await (const row of doc.iterate('$.rows[*]')) {
      void row;
      await expect(doc.get('$.total')).rejects.toThrow(
        new TypeError(
          'doc.get(): path "$.total" cannot be read while doc.iterate() holds the document: ' +
            'finish or break the loop first',
        ),
      );
      break;
    }
    expect(await doc.get('$.total')).toBe(42);
    expect(await doc.get('$.rows[2]')).toEqual({ id: 3 });
  });
});

describe('transient documents', () => {
  const text = '{"meta":{"total":3,"tags":["a","b"]},"rows":[{"id":1},{"id":2},{"id":3}],"total":42}';

  test('asking for a passed value throws JsonPassedError naming the path', async () => {
    const doc = openJson(text, { transient: true });
    expect(await doc.get('$.rows[1]')).toEqual({ id: 2 });
    for (const path of ['$.rows[0]', '$.rows[1].id', '$.rows', '$']) {
      const error = await doc.get(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JsonPassedError);
      expect((error as JsonPassedError).path).toBe(path);
      expect((error as JsonPassedError).code).toBe('PATH_PASSED');
      expect((error as JsonPassedError).message).toContain(path);
      expect((error as JsonPassedError).offset).toBe(text.indexOf(',{"id":3}'));
    }
    expect(await doc.get('$.rows[2].id')).toBe(3);
    // An earlier sibling member: the document recorded the names it passed in the objects around the cursor.
    await expect(doc.get('$.meta')).rejects.toThrow(/\$\.meta was already passed/);
  });

  test('a later sibling is found, an absent one is undefined as soon as its object ends', async () => {
    const chunks = Array.from({ length: Math.ceil(text.length / 4) }, (_, i) => text.slice(i * 4, i * 4 + 4));
    let pulled = 0;
    const doc = openJson(
      (async function* () {
        for (const c of chunks) {
          pulled++;
          yield c;
        }
      })(),
      { transient: true },
    );
    expect(await doc.get('$.meta.tags')).toEqual(['a', 'b']);
    expect(await doc.get('$.meta.nope')).toBeUndefined();
    expect(pulled).toBe(Math.ceil(text.indexOf(',"rows"') / 4)); // no further than the end of $.meta
    await expect(doc.get('$.meta.total')).rejects.toThrow(JsonPassedError); // came before tags
    expect(await doc.get('$.total')).toBe(42);
  });

  test('an array member of the cursor that came later is found; an index past the end is undefined', async () => {
    const doc = openJson(text, { transient: true });
    expect(await doc.get('$.meta.tags[0]')).toBe('a');
    expect(await doc.get('$.meta.tags[5]')).toBeUndefined();
    expect(await doc.get('$.total')).toBe(42);
  });

  test('breaking out of an iteration skips the rest of the array', async () => {
    const doc = openJson(text, { transient: true });
    for await (const row of doc.iterate<{ id: number }>('$.rows[*]')) {
      expect(row.id).toBe(1);
      break;
    }
    await expect(doc.get('$.rows[2]')).rejects.toThrow(JsonPassedError);
    expect(await doc.get('$.total')).toBe(42);
  });
});

describe('long arrays: restarts at a cursor deep in an array', () => {
  test('increasing indices (transient and kept), then back (kept), then an error further on', async () => {
    const rng = createRng(SEED + 2);
    const value = { a: Array.from({ length: 3000 }, (_, i) => ({ v: i, w: [i, [i * 2, { x: `s${i}` }]] })), z: 'end' };
    const good = JSON.stringify(value, null, rng.chance(0.5) ? 1 : undefined);
    for (const transient of [false, true]) {
      const doc = openJson(source(randomPieces(encoder.encode(good), rng, 4096)), { transient });
      const asked: number[] = [];
      for (let i = rng.int(5); i < 3000; i += 1 + rng.int(400)) {
        asked.push(i);
        expect(await doc.get(`$.a[${i}].v`)).toBe(i);
        expect(await doc.get(`$.a[${i}].w[1][1].x`)).toBe(`s${i}`);
        if (rng.chance(0.3)) {
          // The cursor is inside $.a[i].w[1] (after its [1].x): only a kept document can go back to it.
          if (!transient) {
            const items: unknown[] = [];
            for await (const item of doc.iterate(`$.a[${i}].w[1][*]`)) items.push(item);
            expect(items).toEqual(value.a[i]!.w[1]);
          } else {
            await expect(doc.get(`$.a[${i}].w[1][0]`)).rejects.toThrow(JsonPassedError);
          }
        }
        expect(await doc.get(`$.a[${i}].w[7]`)).toBeUndefined(); // the cursor moves to the end of $.a[i].w
      }
      if (!transient) for (const i of asked.reverse()) expect(await doc.get(`$.a[${i}].w[0]`)).toBe(i);
      expect(await doc.get('$.z')).toBe('end');
    }
    // An error after the cursor stood at a high index: the same position as a parser from the start reports.
    const bad = good.replace('"end"', '"end" x');
    const parser = createParser({ path: '$' });
    const expected = (() => {
      try {
        parser.push(bad);
        parser.end();
      } catch (error) {
        return error as JsonSyntaxError;
      }
      throw new Error('expected an error');
    })();
    for (const transient of [false, true]) {
      const doc = openJson(source(randomPieces(encoder.encode(bad), rng, 4096)), { transient });
      expect(await doc.get('$.a[2990].v')).toBe(2990);
      const error = (await doc.get('$.zz').catch((e: unknown) => e)) as JsonSyntaxError;
      expect([error.code, error.offset, error.line, error.column]).toEqual([
        expected.code,
        expected.offset,
        expected.line,
        expected.column,
      ]);
    }
  });
});

describe('errors', () => {
  const good = '{\n "a": [1, 2],\n "b": {"c": 3},\n';
  const texts = [good + ' "d": [1 2]\n}', good + ' "d": tru\n}', good + ' "d": [1, 2]\n', good + ' "d": "\u0001"}'];

  function expectedError(text: string): JsonSyntaxError {
    try {
      createParser({ path: '$' }).push(text);
      createParser({ path: '$' }).end();
    } catch {
      // fall through to the one-parser reading below
    }
    const parser = createParser({ path: '$' });
    try {
      parser.push(text);
      parser.end();
    } catch (error) {
      return error as JsonSyntaxError;
    }
    throw new Error('expected an error');
  }

  test.each(texts.map((t, i) => [i, t] as const))(
    'error %i: the same code, offset, line and column',
    async (_, text) => {
      const expected = expectedError(text);
      for (const transient of [false, true]) {
        for (const size of [1, 7, 1000]) {
          const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
            text.slice(i * size, i * size + size),
          );
          const doc = openJson(source(chunks), { transient });
          // A value before the error resolves; the cursor then restarts there and meets the error.
          expect(await doc.get('$.b.c')).toBe(3);
          const error = await doc
            .get('$.d[1]')
            .then(() => doc.get('$.zz'))
            .catch((e: unknown) => e);
          expect(error).toBeInstanceOf(JsonSyntaxError);
          const e = error as JsonSyntaxError;
          expect([e.code, e.offset, e.line, e.column, e.message]).toEqual([
            expected.code,
            expected.offset,
            expected.line,
            expected.column,
            expected.message,
          ]);
        }
      }
    },
  );
});
