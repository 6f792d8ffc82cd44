// JSONTestSuite through the public API: y_ accepted with JSON.parse's values, n_ rejected with a positioned
// error, i_ as tests/README.md documents, and every file's outcome independent of how its bytes are chunked.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { firstDifference } from '../support/deep_equal.mjs';
import {
  lineAndColumn,
  oneByteChunks,
  parseChunks,
  splitAt,
  type Outcome,
  type ParserOptions,
} from '../support/feed.js';

// A path, not a URL: one file name holds a `#`.
const SUITE = fileURLToPath(new URL('../corpus/JSONTestSuite/', import.meta.url));
const files = readdirSync(SUITE)
  .filter((name) => /^[yni]_.*\.json$/.test(name))
  .sort();
const named = (prefix: string) => files.filter((name) => name.startsWith(prefix));
const read = (name: string) => new Uint8Array(readFileSync(join(SUITE, name)));
// fatal: a y_ file that is not UTF-8 must fail loudly here, not be compared after U+FFFD replacement. The
// default ignoreBOM: false drops a leading BOM, as sluice does.
const utf8 = new TextDecoder('utf-8', { fatal: true });

// Past this size, two-chunk splits are tried at every position up to 1 KiB past the error and sampled beyond it:
// once the first chunk holds the error, the second chunk is never read. Every position of the two big n_ files
// (250 KB and 100 KB, errors near their start) took 21 s + 7 s per path and build; this takes well under 1 s.
const EVERY_SPLIT_UP_TO = 4096;

function expectSameOutcome(actual: Outcome, expected: Outcome, how: string) {
  expect(actual.error, how).toEqual(expected.error);
  const difference = firstDifference(actual.values, expected.values);
  expect(difference, how).toBeNull();
}

function splitPoints(length: number, errorOffset: number | undefined): number[] {
  const points: number[] = [];
  const dense = length <= EVERY_SPLIT_UP_TO ? length : Math.min(length, (errorOffset ?? length) + 1024);
  for (let at = 0; at <= dense; at++) points.push(at);
  for (let at = dense + 1; at <= length; at += 997) points.push(at);
  if (points[points.length - 1] !== length) points.push(length);
  return points;
}

/** One-byte chunks and every two-chunk split give the one-shot outcome. */
function expectChunkingInvariant(bytes: Uint8Array, options: ParserOptions, whole: Outcome) {
  expectSameOutcome(parseChunks(oneByteChunks(bytes), options), whole, 'one byte at a time');
  for (const at of splitPoints(bytes.length, whole.error?.offset)) {
    expectSameOutcome(parseChunks(splitAt(bytes, at), options), whole, `split at ${at}`);
  }
}

function expectPositionedError(outcome: Outcome, bytes: Uint8Array) {
  const { error } = outcome;
  expect(error).not.toBeNull();
  if (error === null) return;
  if (error.name === 'JsonLimitError') expect(error.code).toBe('DEPTH_LIMIT');
  else expect(error.name).toBe('JsonSyntaxError');
  expect(Number.isInteger(error.offset) && error.offset >= 0 && error.offset <= bytes.length).toBe(true);
  expect({ line: error.line, column: error.column }).toEqual(lineAndColumn(bytes, error.offset));
}

/** The path that selects the root's members, if it has any, and what it must give with withPath. */
function membersOf(root: unknown): { path: string; entries: [string | number, unknown][] } | null {
  if (Array.isArray(root)) return { path: '$[*]', entries: root.map((value, index) => [index, value]) };
  if (typeof root === 'object' && root !== null) return { path: '$.*', entries: Object.entries(root) };
  return null;
}

test('the copy of JSONTestSuite is complete', () => {
  expect([named('y_').length, named('n_').length, named('i_').length]).toEqual([95, 188, 35]);
});

describe('y_: accepted, equal to JSON.parse', () => {
  test.each(named('y_'))('%s', (name) => {
    const bytes = read(name);
    const expected = JSON.parse(utf8.decode(bytes));

    const root = parseChunks([bytes], { path: '$' });
    expect(root.error).toBeNull();
    expect(firstDifference(root.values, [expected])).toBeNull();
    expectChunkingInvariant(bytes, { path: '$' }, root);

    const members = membersOf(expected);
    if (members === null) return;
    const options = { path: members.path, withPath: true };
    const found = parseChunks([bytes], options);
    expect(found.error).toBeNull();
    const entries = found.values.map((item) => {
      const { path, key, value } = item as { path: string; key: string | number; value: unknown };
      expect(path).toBe(members.path);
      return [key, value] as [string | number, unknown];
    });
    if (Array.isArray(expected)) {
      expect(firstDifference(entries, members.entries)).toBeNull();
    } else {
      // Every member arrives, duplicates included; folded like JSON.parse folds them (the last one wins, in the
      // position of the first), they must rebuild the object. fromEntries keeps `__proto__` an own property.
      expect(firstDifference(Object.fromEntries(entries), expected)).toBeNull();
    }
    expectChunkingInvariant(bytes, options, found);
  });
});

describe('n_: rejected with a positioned error', () => {
  test.each(named('n_'))('%s', (name) => {
    const bytes = read(name);
    const root = parseChunks([bytes], { path: '$' });
    expectPositionedError(root, bytes);
    // The root itself when the error is trailing data after it (delivered before the error), else nothing.
    expect(root.values.length).toBeLessThanOrEqual(1);
    expectChunkingInvariant(bytes, { path: '$' }, root);

    // Validation does not depend on what is selected: same error with members selected.
    const members = parseChunks([bytes], { path: '$[*]' });
    expect(members.error).toEqual(root.error);
    expectChunkingInvariant(bytes, { path: '$[*]' }, members);
  });
});

// The i_ table of tests/README.md, so that the documentation and the behaviour cannot drift apart.
function readOutcomeTable(): Map<string, { accepted: boolean; code?: string }> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const table = new Map<string, { accepted: boolean; code?: string }>();
  for (const match of readme.matchAll(/^\| `(i_[^`]+)` \| (accepted|rejected \(([A-Z0-9_]+)\)) \|/gm)) {
    expect(table.has(match[1]), `${match[1]} is listed twice`).toBe(false);
    table.set(match[1], match[2] === 'accepted' ? { accepted: true } : { accepted: false, code: match[3] });
  }
  return table;
}

describe('i_: the outcome documented in tests/README.md', () => {
  const table = readOutcomeTable();

  test('the table lists exactly the i_ files', () => {
    expect([...table.keys()].sort()).toEqual(named('i_'));
  });

  test.each(named('i_'))('%s', (name) => {
    const documented = table.get(name);
    expect(documented, 'missing from the table in tests/README.md').toBeDefined();
    const bytes = read(name);
    const root = parseChunks([bytes], { path: '$' });
    if (documented?.accepted) {
      expect(root.error).toBeNull();
      expect(firstDifference(root.values, [JSON.parse(utf8.decode(bytes))])).toBeNull();
    } else {
      expectPositionedError(root, bytes);
      expect(root.error?.code).toBe(documented?.code);
    }
    expectChunkingInvariant(bytes, { path: '$' }, root);
  });
});
