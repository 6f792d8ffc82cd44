// isComplete(): after every push of varied documents (one character at a time and in random deltas, both number
// modes, plain snapshots and views, shallow and deep), every member whose last character was pushed (a number's:
// the character after it) is reported complete, and a member reported complete never changes: it is, at its path,
// the final value itself (the same object for a container), in that snapshot and in every held older one. Where each
// value ends comes from a scanner of the whole text written here, independent of the parser.
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createPartialParser,
  isComplete,
  type ModelSnapshot,
  type PartialJsonOptions,
  readModelStream,
} from '../../dist/index.js';
import { treeTuning } from '../../dist/partial/tree.js';
import { randomTextPieces } from '../support/feed.js';
import { allEvents, fixtures } from '../support/model_streams.js';
import {
  HAND_WRITTEN,
  hasDuplicateKeys,
  longArrays,
  randomDocuments,
  wideObjects,
} from '../support/partial_documents.js';
import { createRng } from '../support/random_json.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 32);
type Path = (string | number)[];
type Container = Record<string, unknown>;

/** Each value's path (as JSON) and the index of the character whose push completes it. */
function endsOf(text: string): Map<string, number> {
  const ends = new Map<string, number>();
  let i = 0;
  const space = () => {
    while (i < text.length && ' \t\n\r\ufeff'.includes(text[i]!)) i++;
  };
  const stringEnd = (from: number) => {
    let j = from + 1;
    while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    return j + 1;
  };
  const value = (path: Path): void => {
    space();
    const c = text[i]!;
    const at = JSON.stringify(path);
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      space();
      for (let index = 0; text[i] !== close; index++) {
        space();
        let key: string | number = index;
        if (c === '{') {
          const start = i;
          i = stringEnd(i);
          key = JSON.parse(text.slice(start, i)) as string;
          space();
          i++; // the colon
        }
        value([...path, key]);
        space();
        if (text[i] === ',') i++;
      }
      ends.set(at, i++);
    } else if (c === '"') {
      i = stringEnd(i);
      ends.set(at, i - 1);
    } else if (c === 't' || c === 'n' || c === 'f') {
      i += c === 'f' ? 5 : 4;
      ends.set(at, i - 1);
    } else {
      while (i < text.length && /[-+.eE\d]/.test(text[i]!)) i++;
      ends.set(at, i); // the character after the number
    }
  };
  value([]);
  return ends;
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function at(root: unknown, path: Path): unknown {
  let value = root;
  for (const key of path) value = isContainer(value) ? value[key as string] : undefined;
  return value;
}

/** Calls `member` for every member of every container of the snapshot. */
function visit(root: unknown, member: (path: Path, parent: Container, key: string, value: unknown) => void): void {
  const walk = (value: unknown, path: Path) => {
    if (!isContainer(value)) return;
    for (const key of Object.keys(value)) {
      const index = Array.isArray(value) ? Number(key) : key;
      member([...path, index], value, key, value[key]);
      walk(value[key], [...path, index]);
    }
  };
  walk(root, []);
}

/** Pushes the pieces, checking isComplete after each; the first failure, described, or null. */
function check(text: string, pieces: readonly string[], options?: PartialJsonOptions): string | null {
  const ends = endsOf(text);
  const parser = createPartialParser(options);
  const reported = new Map<string, unknown>();
  const held: unknown[] = [];
  let pushed = 0;
  for (const piece of pieces) {
    const root = parser.push(piece);
    pushed += piece.length;
    if (!isContainer(root)) continue;
    held.push(root);
    let failure: string | null = null;
    visit(root, (path, parent, key, value) => {
      const where = JSON.stringify(path);
      const complete = isComplete(parent, key);
      if (isContainer(value) && isComplete(value) !== complete) failure ??= `${where}: container and member disagree`;
      if (complete) {
        if (reported.has(where) && !Object.is(reported.get(where), value)) failure ??= `${where} changed`;
        reported.set(where, value);
      } else if (reported.has(where)) {
        failure ??= `${where} was complete, is not`;
      }
    });
    for (const [where, end] of ends) {
      if (end >= pushed) continue;
      const path = JSON.parse(where) as Path;
      const done =
        path.length === 0
          ? isComplete(root)
          : isComplete(at(root, path.slice(0, -1)) as Container, path[path.length - 1]!);
      if (!done) failure ??= `${where} not complete after ${JSON.stringify(text.slice(0, pushed))}`;
    }
    if (failure !== null) return failure;
  }
  const final = parser.end();
  for (const [where, value] of reported) {
    if (!Object.is(at(final, JSON.parse(where) as Path), value)) return `${where} reported complete, ended otherwise`;
  }
  // Older snapshots, asked now: what they report complete is what the value ended as.
  let failure: string | null = null;
  for (const root of held) {
    visit(root, (path, parent, key, value) => {
      if (isComplete(parent, key) && !Object.is(at(final, path), value)) failure ??= `old ${JSON.stringify(path)}`;
    });
  }
  return failure;
}

const DOCUMENTS = [...HAND_WRITTEN, ...randomDocuments(60, SEED), longArrays(70), wideObjects(70)].filter(
  (text) => !hasDuplicateKeys(text),
);
const TUNINGS = {
  default: {},
  'views and deep levels': { viewMinLength: 2, objectViewMinKeys: 2, lazyDepth: 2 },
};
const saved = { ...treeTuning };
afterEach(() => {
  Object.assign(treeTuning, saved);
});

describe.each(Object.entries(TUNINGS))('isComplete, %s', (_, tuning) => {
  for (const numbers of ['complete', 'partial'] as const) {
    test(`every prefix, one character at a time, numbers: ${numbers}`, () => {
      Object.assign(treeTuning, tuning);
      for (const text of DOCUMENTS) {
        if (text.length > 600) continue;
        expect(check(text, [...text].join('\u0000').split('\u0000'), { numbers }), text.slice(0, 120)).toBeNull();
      }
    });

    test(`random deltas, numbers: ${numbers}`, () => {
      Object.assign(treeTuning, tuning);
      const rng = createRng(SEED);
      for (const text of DOCUMENTS) {
        const pieces = randomTextPieces(text, rng, 6, 0) as string[];
        expect(check(text, pieces, { numbers }), text.slice(0, 120)).toBeNull();
      }
    });
  }
});

describe('isComplete', () => {
  test('a duplicate key replaces a complete member, as JSON.parse does', () => {
    const parser = createPartialParser();
    const first = parser.push('{"a":"x","b":1,"a":"y') as Container;
    expect([first.a, isComplete(first, 'a'), isComplete(first, 'b')]).toEqual(['y', false, true]);
    const done = parser.push('"}') as Container;
    expect([isComplete(done), isComplete(done, 'a')]).toEqual([true, true]);
  });

  test('a member not shown yet, and the root: pending', () => {
    const parser = createPartialParser<{ n: number }>();
    expect([parser.push(' '), isComplete(parser.value, 'n')]).toEqual([undefined, false]);
    const root = parser.push('{"n":12') as Container;
    expect([isComplete(root, 'n'), isComplete(root, 'x'), parser.pending]).toEqual([false, false, ['n']]);
    parser.push('}');
    expect(parser.pending).toBeNull();
  });

  // Parsers register for isComplete through a WeakRef, which keeps its target until the job ends: it must not be
  // the parser, or a synchronous loop of parses would hold every tree until then.
  test('a synchronous loop of parses keeps none of their trees', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const text = longArrays(20_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 20; i++) {
      const parser = createPartialParser();
      for (let at = 0; at < text.length; at += 4096) parser.push(text.slice(at, at + 4096));
      parser.end();
    }
    gc();
    // Each tree is about 3 MB: 20 of them held would be some 60 MB.
    expect((process.memoryUsage().heapUsed - before) / 1e6).toBeLessThan(15);
  });

  test('misuse is a TypeError naming the argument', () => {
    expect(() => isComplete('x' as never)).toThrow(
      new TypeError('isComplete(): container must be an object or an array of a partial JSON snapshot, got "x"'),
    );
    expect(() => isComplete({}, null as never)).toThrow(
      new TypeError('isComplete(): key must be a string or a number, got null'),
    );
  });

  // readModelStream's tool call arguments and JSON text: what a snapshot reports complete, asked as it comes, is
  // what the call's arguments end as; at the end every member is complete.
  test.each(fixtures().filter((f) => f.name !== 'error'))('readModelStream $format/$name', async (fixture) => {
    const options = {
      format: fixture.format,
      ...(fixture.name === 'structured_text' ? { text: 'json' as const } : {}),
    };
    const events = allEvents(fixture.bytes).map((e) => ({ event: e.event, data: e.data }));
    const reported: [number, Path, unknown][] = [];
    let last: ModelSnapshot | undefined;
    for await (const snapshot of readModelStream(events, options)) {
      last = snapshot;
      [...snapshot.toolCalls.map((c) => c.arguments), snapshot.value].forEach((value, i) => {
        visit(value, (path, parent, key, member) => {
          if (isComplete(parent, key)) reported.push([i, path, member]);
        });
      });
    }
    const finals = [...last!.toolCalls.map((c) => c.arguments), last!.value];
    for (const [i, path, member] of reported) expect(Object.is(at(finals[i], path), member)).toBe(true);
    let members = 0;
    for (const value of finals) {
      if (!isContainer(value)) continue;
      expect(isComplete(value)).toBe(true);
      visit(value, (_path, parent, key) => {
        members++;
        expect(isComplete(parent, key)).toBe(true);
      });
    }
    // Members were reported complete before the end (each fixture's arguments come in several deltas).
    expect(reported.length > members || members === 0).toBe(true);
  });
});
