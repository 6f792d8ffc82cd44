// Snapshots are structurally shared: a push that shows nothing new returns the same root; one that does returns new
// containers only along the path that changed (every subtree equal to its previous version is the same object);
// earlier snapshots never change; every finished container is frozen (with treeTuning.freezeOpen, every plain one);
// what an application writes into an open one never reaches the value; long arrays are read-only views that read
// like arrays.
import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createPartialParser } from '../../dist/index.js';
import { treeTuning } from '../../dist/partial/tree.js';
import { firstDifference } from '../support/deep_equal.mjs';
import {
  HAND_WRITTEN,
  hasDuplicateKeys,
  longArrays,
  randomDocuments,
  wideObjects,
} from '../support/partial_documents.js';
import { createRng } from '../support/random_json.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 21);
// Arrays of this many elements and more are published as views (js/partial/tree.ts, treeTuning.viewMinLength), and
// objects of this many members (treeTuning.objectViewMinKeys).
const VIEW_MIN = treeTuning.viewMinLength;
const OBJECT_VIEW_MIN = treeTuning.objectViewMinKeys;

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** A plain deep copy (views become arrays): what a snapshot showed, kept to compare with later. */
function copy(value: unknown): unknown {
  if (!isContainer(value)) return value;
  if (Array.isArray(value)) return Array.from(value, copy);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, key, {
      value: copy((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Proxies (views) cannot be told apart from arrays by the language; a view is an array that is not frozen. */
function isView(value: object): boolean {
  return Array.isArray(value) && !Object.isFrozen(value);
}

/** A view as a finished value: a long array, or a wide object, that is not frozen. */
function isLongView(value: object): boolean {
  if (Object.isFrozen(value)) return false;
  return Array.isArray(value) ? value.length >= VIEW_MIN : Object.keys(value).length >= OBJECT_VIEW_MIN;
}

/**
 * Every container is frozen, or (an array of VIEW_MIN elements or more, an object of OBJECT_VIEW_MIN members or more)
 * a view; but for those on `open`, the path of the value still being written (`parser.pending`): the containers open
 * at a snapshot are that path's.
 */
function unfrozen(value: unknown, open: readonly (string | number)[] | null = null, path = '$', at = 0): string | null {
  if (!isContainer(value)) return null;
  const isOpen = open !== null && at <= open.length;
  // In a document deeper than treeTuning.lazyDepth, the container at depth 1 that closes in a push after its last
  // change stays the proxy view a deep push showed (deeper ones are plain copies, frozen when they close).
  const deepView = at === Math.min(1, treeTuning.lazyDepth) && !Object.isFrozen(value);
  if (!isOpen && !Object.isFrozen(value) && !isLongView(value) && !deepView) return `${path} is not frozen`;
  for (const key of Object.keys(value)) {
    const onPath = isOpen && at < open.length && String(open[at]) === key;
    const found = unfrozen((value as Record<string, unknown>)[key], onPath ? open : null, `${path}.${key}`, at + 1);
    if (found !== null) return found;
  }
  return null;
}

/** Writes into every container of a snapshot that accepts writes (views throw); returns how many took. */
function scribble(value: unknown): number {
  if (!isContainer(value) || Object.isFrozen(value)) return 0;
  let written = 0;
  for (const key of Object.keys(value)) written += scribble((value as Record<string, unknown>)[key]);
  try {
    if (Array.isArray(value)) (value as unknown[]).push('scribbled');
    else {
      const object = value as Record<string, unknown>;
      const first = Object.keys(object)[0];
      if (first !== undefined) object[first] = 'scribbled';
      object.scribbled = true;
    }
    return written + 1;
  } catch {
    return written;
  }
}

/**
 * Sharing between consecutive snapshots: a subtree deep-equal to its previous version must be that very object.
 * Walks the containers of `after` at the paths `before` has too.
 */
function unshared(before: unknown, after: unknown, path = '$'): string | null {
  if (before === after || !isContainer(before) || !isContainer(after)) return null;
  if (Array.isArray(before) !== Array.isArray(after)) return null;
  if (firstDifference(after, before) === null) return `${path}: equal to its previous version but a new object`;
  for (const key of Object.keys(after)) {
    if (!Object.hasOwn(before, key)) continue;
    const found = unshared(
      (before as Record<string, unknown>)[key],
      (after as Record<string, unknown>)[key],
      `${path}.${key}`,
    );
    if (found !== null) return found;
  }
  return null;
}

function pieces(text: string, seed: number, max: number): string[] {
  const rng = createRng(seed);
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    const end = at + rng.range(1, max);
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/**
 * Streams the text; checks freezing (of every container with `openFrozen`, the tree's other setting
 * treeTuning.freezeOpen; of finished ones by default), sharing and that no snapshot ever changes.
 */
function checkSnapshots(text: string, chunks: readonly string[], openFrozen = false): void {
  const parser = createPartialParser();
  const kept: { snapshot: unknown; shown: unknown }[] = [];
  let previous: unknown;
  for (const chunk of chunks) {
    const snapshot = parser.push(chunk);
    expect(unfrozen(snapshot, openFrozen ? null : parser.pending), `${text} after ${chunk}`).toBeNull();
    if (snapshot === previous) {
      // Nothing new: then what it shows is what the previous one showed.
      expect(firstDifference(copy(snapshot), kept.at(-1)?.shown), text).toBeNull();
    } else {
      expect(unshared(previous, snapshot), `${JSON.stringify(text)} after ${JSON.stringify(chunk)}`).toBeNull();
      if (previous !== undefined) expect(firstDifference(copy(snapshot), kept.at(-1)!.shown)).not.toBeNull();
      kept.push({ snapshot, shown: copy(snapshot) });
    }
    previous = snapshot;
  }
  const final = parser.end();
  expect(firstDifference(final, JSON.parse(text.replace(/^\ufeff/, ''))), text).toBeNull();
  expect(parser.value).toBe(final);
  expect(unfrozen(final), text).toBeNull();
  for (const { snapshot, shown } of kept) expect(firstDifference(copy(snapshot), shown)).toBeNull();
}

describe('sharing, freezing and immutability', () => {
  const documents = [...HAND_WRITTEN, ...randomDocuments(60, SEED)].filter((text) => !hasDuplicateKeys(text));

  test(`${documents.length} documents without duplicate keys, one character and random deltas at a time`, () => {
    expect(documents.length).toBeGreaterThan(40);
    for (const text of documents) {
      checkSnapshots(text, [...text]);
      checkSnapshots(text, pieces(text, SEED + text.length, 8));
    }
  });

  test('with open containers frozen too (treeTuning.freezeOpen): the same values and sharing', () => {
    treeTuning.freezeOpen = true;
    try {
      for (const text of documents) {
        checkSnapshots(text, [...text], true);
        checkSnapshots(text, pieces(text, SEED + text.length, 8), true);
      }
    } finally {
      treeTuning.freezeOpen = false;
    }
  });

  test('writes into every open snapshot after every push never reach the final value', () => {
    let written = 0;
    for (const text of documents) {
      for (const chunks of [[...text], pieces(text, SEED + text.length, 8)]) {
        const parser = createPartialParser();
        for (const chunk of chunks) written += scribble(parser.push(chunk));
        const final = parser.end();
        expect(firstDifference(final, JSON.parse(text.replace(/^\ufeff/, ''))), text).toBeNull();
        expect(unfrozen(final), text).toBeNull();
      }
    }
    expect(written).toBeGreaterThan(1000);
  });

  test('an open snapshot left as it was becomes the value when it closes; one written into does not', () => {
    const untouched = createPartialParser();
    const open = untouched.push('{"a":[1,2],"b":{"c":"d"') as Record<string, Record<string, unknown>>;
    expect(Object.isFrozen(open) || Object.isFrozen(open.b)).toBe(false);
    expect(Object.isFrozen(open.a)).toBe(true);
    expect(untouched.push('}}')).toBe(open);
    expect(Object.isFrozen(open) && Object.isFrozen(open.b)).toBe(true);

    const written = createPartialParser();
    const shown = written.push('{"a":[1,2],"b":{"c":"d"') as Record<string, Record<string, unknown>>;
    shown.b.c = 'changed';
    shown.x = {};
    const root = written.push('}}') as Record<string, unknown>;
    expect(root).not.toBe(shown);
    expect(root).toEqual({ a: [1, 2], b: { c: 'd' } });
    expect(Object.isFrozen(root) && Object.isFrozen(root.b)).toBe(true);
    expect(written.end()).toBe(root);
  });

  test('a long string written over many pushes: each snapshot its prefix, unchanged once the string ends', () => {
    // A finished string is made flat when it ends (js/partial/tree.ts, flatten()): the snapshots that hold the
    // growing string, taken before, must still show what they showed.
    const body = Array.from({ length: 300 }, (_, i) => `wörd${i} 東京 😀 \\"q\\" \\u00e9`).join(' ');
    const text = `{"body":"${body}","list":["${body}","${body}"],"tail":1}`;
    const expected = JSON.parse(text) as { body: string };
    const parser = createPartialParser();
    const shown: { snapshot: Record<string, unknown>; copy: unknown }[] = [];
    let previous = '';
    for (const chunk of pieces(text, SEED, 6)) {
      const snapshot = parser.push(chunk) as Record<string, unknown> | undefined;
      if (snapshot === undefined) continue;
      const value = (snapshot.body ?? '') as string;
      expect(value.startsWith(previous) && expected.body.startsWith(value)).toBe(true);
      previous = value;
      shown.push({ snapshot, copy: copy(snapshot) });
    }
    expect(shown.length).toBeGreaterThan(1000);
    expect(firstDifference(parser.end(), expected)).toBeNull();
    for (const { snapshot, copy: was } of shown) expect(firstDifference(copy(snapshot), was)).toBeNull();
  });

  test('a push that completes nothing returns the same root', () => {
    const parser = createPartialParser();
    const root = parser.push('{"a":[1,{"b":"x"}],"c');
    for (const chunk of ['d', '"', ' ', ':', ' ', '1', '2', '.', '5', 'e', '-']) expect(parser.push(chunk)).toBe(root);
    expect(parser.push('3,')).not.toBe(root);
    expect(parser.value).toEqual({ a: [1, { b: 'x' }], cd: 12.5e-3 });
  });

  test('new objects only along the changed path: siblings and finished subtrees keep their identity', () => {
    const parser = createPartialParser();
    const first = parser.push('{"done":{"x":[1,2]},"list":[{"a":1},{"b":"te') as Record<string, Json>;
    const second = parser.push('xt"},{"c') as Record<string, Json>;
    expect(second).not.toBe(first);
    expect(second.done).toBe(first.done);
    expect(second.list).not.toBe(first.list);
    const [a1, b1] = first.list as readonly Json[];
    const [a2, b2, c2] = second.list as readonly Json[];
    expect(a2).toBe(a1);
    expect(b2).not.toBe(b1);
    expect(b1).toEqual({ b: 'te' });
    expect(b2).toEqual({ b: 'text' });
    expect(c2).toEqual({});
    const third = parser.push('":"y"}]}') as Record<string, Json>;
    expect(third.done).toBe(first.done);
    expect((third.list as readonly Json[])[1]).toBe(b2);
    expect(parser.end()).toBe(third);
  });

  test('snapshots are frozen: writes throw in strict mode and change nothing', () => {
    const parser = createPartialParser();
    const root = parser.push('{"a":[1,2],"b":{"c":"d"}}') as Record<string, unknown>;
    expect(Object.isFrozen(root) && Object.isFrozen(root.a) && Object.isFrozen(root.b)).toBe(true);
    expect(() => {
      root.x = 1;
    }).toThrow(TypeError);
    expect(() => {
      (root.a as unknown[]).push(3);
    }).toThrow(TypeError);
    expect(parser.end()).toEqual({ a: [1, 2], b: { c: 'd' } });
  });
});

describe('deep containers: snapshots made when read', () => {
  test('below treeTuning.lazyDepth (set to 1 and 3 here): the same values, sharing and immutability', () => {
    const deep = `${'[{"a":'.repeat(30)}[1,{"x":"yy","z":[true,{"w":null}]},[3,[4,[5]]],"zz"]${'}]'.repeat(30)}`;
    const documents = [deep, longArrays(VIEW_MIN + 3), wideObjects(OBJECT_VIEW_MIN + 3), ...HAND_WRITTEN];
    documents.push(...randomDocuments(40, SEED + 7).filter((text) => !hasDuplicateKeys(text)));
    const saved = treeTuning.lazyDepth;
    try {
      for (const lazyDepth of [1, 3]) {
        treeTuning.lazyDepth = lazyDepth;
        for (const text of documents) {
          if (text.length < 400) checkSnapshots(text, [...text]);
          checkSnapshots(text, pieces(text, SEED + text.length, 8));
        }
      }
    } finally {
      treeTuning.lazyDepth = saved;
    }
  });

  test('below treeTuning.lazyDepth: snapshots read late, out of order, keep what they showed', () => {
    const saved = treeTuning.lazyDepth;
    treeTuning.lazyDepth = 2;
    try {
      for (const text of [...HAND_WRITTEN, wideObjects(OBJECT_VIEW_MIN + 10, true), ...randomDocuments(30, SEED + 9)]) {
        const parser = createPartialParser();
        const snapshots: unknown[] = [];
        for (const chunk of pieces(text, SEED, 5)) snapshots.push(parser.push(chunk));
        const final = parser.end();
        expect(firstDifference(final, JSON.parse(text.replace(/^\ufeff/, ''))), text).toBeNull();
        // Read only now, newest first, then again: the same as another parser's snapshots read as they came.
        const shown = snapshots.reverse().map((snapshot) => copy(snapshot));
        for (const [i, snapshot] of snapshots.entries()) expect(firstDifference(copy(snapshot), shown[i])).toBeNull();
        const streamed = createPartialParser();
        const again = pieces(text, SEED, 5).map((chunk) => copy(streamed.push(chunk)));
        expect(firstDifference(shown.reverse(), again), text).toBeNull();
      }
    } finally {
      treeTuning.lazyDepth = saved;
    }
  });
});

describe('long arrays: views', () => {
  test(`an array that reaches ${VIEW_MIN} elements while open reads like an array, is read-only and never changes`, () => {
    const text = longArrays(300);
    const parser = createPartialParser();
    const views: { view: readonly unknown[]; shown: unknown }[] = [];
    for (const chunk of pieces(text, SEED, 5)) {
      const snapshot = parser.push(chunk) as Record<string, readonly unknown[]> | undefined;
      const numbers = snapshot?.numbers;
      if (numbers === undefined || numbers.length < VIEW_MIN) continue;
      if (views.at(-1)?.view !== numbers) views.push({ view: numbers, shown: Array.from(numbers) });
    }
    const final = parser.end() as Record<string, readonly unknown[]>;
    const expected = JSON.parse(text) as Record<string, unknown[]>;
    expect(views.length).toBeGreaterThan(100);
    for (const { view, shown } of views) expect(firstDifference(Array.from(view), shown)).toBeNull();

    const numbers = final.numbers!;
    expect(isView(numbers)).toBe(true);
    expect(Array.isArray(numbers)).toBe(true);
    expect(numbers.length).toBe(300);
    expect(numbers[299]).toBe(expected.numbers![299]);
    expect(numbers[300]).toBeUndefined();
    expect(Object.keys(numbers).length).toBe(300);
    expect([...numbers]).toEqual(expected.numbers);
    expect(numbers.map((n) => n)).toEqual(expected.numbers);
    expect(numbers.includes(expected.numbers![17])).toBe(true);
    expect(JSON.stringify(final)).toBe(JSON.stringify(expected));
    expect(firstDifference(final, expected)).toBeNull();
    expect(Object.getPrototypeOf(numbers)).toBe(Array.prototype);
    expect(inspect(numbers, { maxArrayLength: 3 })).toMatch(/^\[ -300, -293, -286, \.\.\. 297 more items \]$/);
    const writable = numbers as unknown[];
    expect(() => {
      writable[0] = 1;
    }).toThrow(TypeError);
    expect(() => writable.push(1)).toThrow(TypeError);
    expect(() => {
      delete writable[0];
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(writable, 'x', { value: 1 })).toThrow(TypeError);
    expect(() => Object.setPrototypeOf(writable, null)).toThrow(TypeError);
    // Their elements are frozen plain values, shared with the views before.
    const records = final.records!;
    expect(Object.isFrozen(records[5])).toBe(true);
    expect(records[5]).toEqual({ id: 5, name: 'n5', tags: ['t0'] });
  });

  test('arrays crossing the length from which they are views: copies below it, shared and unchanging', () => {
    const text = longArrays(VIEW_MIN + 3);
    for (const openFrozen of [false, true]) {
      treeTuning.freezeOpen = openFrozen;
      try {
        checkSnapshots(text, [...text], openFrozen);
        checkSnapshots(text, pieces(text, SEED, 7), openFrozen);
      } finally {
        treeTuning.freezeOpen = false;
      }
    }
  });

  test(`an array that closes within the push that reaches ${VIEW_MIN} elements is a frozen plain array`, () => {
    const parser = createPartialParser();
    const values = Array.from({ length: 200 }, (_, i) => i);
    const root = parser.push(`{"all":${JSON.stringify(values)},"open":[`) as Record<string, readonly number[]>;
    expect(Object.isFrozen(root.all)).toBe(true);
    expect(root.all).toEqual(values);
  });
});

describe('wide objects: views', () => {
  test(`an object that reaches ${OBJECT_VIEW_MIN} members while open reads like an object, is read-only and never changes`, () => {
    const text = wideObjects(300);
    const expected = JSON.parse(text) as Record<string, Record<string, unknown>>;
    const parser = createPartialParser();
    const views: { view: Record<string, unknown>; shown: unknown }[] = [];
    for (const chunk of pieces(text, SEED, 5)) {
      const wide = (parser.push(chunk) as Record<string, Record<string, unknown>> | undefined)?.wide;
      if (wide === undefined || Object.keys(wide).length < OBJECT_VIEW_MIN) continue;
      if (views.at(-1)?.view !== wide) views.push({ view: wide, shown: copy(wide) });
    }
    expect(views.length).toBeGreaterThan(100);
    for (const { view, shown } of views) expect(firstDifference(copy(view), shown)).toBeNull();
    const final = parser.end() as Record<string, Record<string, unknown>>;
    expect(firstDifference(final, expected)).toBeNull();
    expect(JSON.stringify(final)).toBe(JSON.stringify(expected));

    // A view of the open object: what a plain object of the same members does.
    const { view } = views[views.length >> 1]!;
    const keys = Object.keys(view);
    const plain = Object.fromEntries(keys.map((key) => [key, view[key]]));
    expect(isLongView(view)).toBe(true);
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
    expect(keys).toEqual(Object.keys(expected.wide!).filter((key) => Object.hasOwn(view, key)));
    expect(keys).toEqual(Object.keys(plain));
    expect(Reflect.ownKeys(view)).toEqual(Reflect.ownKeys(plain));
    expect(JSON.stringify(view)).toBe(JSON.stringify(plain));
    expect(Object.entries({ ...view })).toEqual(Object.entries(plain));
    const proto = '__proto__';
    expect(Object.hasOwn(view, proto) && view[proto] === expected.wide![proto]).toBe(true);
    expect('k1' in view && !('k9999' in view) && 'toString' in view).toBe(true);
    expect(view.k9999).toBeUndefined();
    const forIn: string[] = [];
    for (const key in view) forIn.push(key);
    expect(forIn).toEqual(keys);
    expect(inspect(view)).toMatch(/^\{\n {2}'\d+': /);
    expect(() => structuredClone(view)).toThrow();
    expect(() => {
      view.k1 = 1;
    }).toThrow(TypeError);
    expect(() => {
      delete view.k1;
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(view, 'x', { value: 1 })).toThrow(TypeError);
    expect(() => Object.setPrototypeOf(view, null)).toThrow(TypeError);
    expect(() => Object.freeze(view)).toThrow(TypeError);
    // Its members are frozen plain values, shared with the final value.
    expect(Object.isFrozen(view.k0)).toBe(true);
    expect(view.k0).toBe(final.wide!.k0);
  });

  test('objects crossing the member count from which they are views: copies below it, shared and unchanging', () => {
    const text = wideObjects(OBJECT_VIEW_MIN + 3);
    for (const openFrozen of [false, true]) {
      treeTuning.freezeOpen = openFrozen;
      try {
        checkSnapshots(text, [...text], openFrozen);
        checkSnapshots(text, pieces(text, SEED, 7), openFrozen);
      } finally {
        treeTuning.freezeOpen = false;
      }
    }
  });

  test('keys written again in a view: earlier snapshots keep what they showed, the value is JSON.parse', () => {
    const text = wideObjects(OBJECT_VIEW_MIN + 10, true);
    for (const chunks of [[...text], pieces(text, SEED, 6)]) {
      const parser = createPartialParser();
      const kept: { snapshot: unknown; shown: unknown }[] = [];
      for (const chunk of chunks) {
        const snapshot = parser.push(chunk);
        if (snapshot !== kept.at(-1)?.snapshot) kept.push({ snapshot, shown: copy(snapshot) });
      }
      expect(firstDifference(parser.end(), JSON.parse(text))).toBeNull();
      for (const { snapshot, shown } of kept) expect(firstDifference(copy(snapshot), shown)).toBeNull();
    }
  });

  test('a view that changes in the push that closes it becomes a frozen plain object', () => {
    const parser = createPartialParser();
    const members = Array.from({ length: OBJECT_VIEW_MIN * 2 }, (_, i) => `"k${i}":${i}`).join(',');
    const open = parser.push(`{"wide":{${members}`) as Record<string, Record<string, number>>;
    expect(isLongView(open.wide!)).toBe(true);
    const root = parser.push(',"last":0},"after":1}') as Record<string, Record<string, number>>;
    expect(Object.isFrozen(root.wide) && Object.isFrozen(root)).toBe(true);
    // The last number shows once something ends it.
    expect(Object.keys(open.wide!).length).toBe(OBJECT_VIEW_MIN * 2 - 1);
    expect(Object.keys(root.wide!).length).toBe(OBJECT_VIEW_MIN * 2 + 1);
    expect(parser.end()).toBe(root);
  });
});
