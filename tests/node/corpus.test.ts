// The real-world corpus (tests/corpus/jsonexamples): whatever the chunking, sluice gives what JSON.parse gives,
// both for the whole document and for its natural array; `text` and `bytes` are the exact source slices.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { firstDifference } from '../support/deep_equal.mjs';
import { fixedPieces, parseChunks, randomPieces, type ParserOptions } from '../support/feed.js';
import { createRng } from '../support/random_json.mjs';
import { reassemblyMismatch } from '../support/reassemble.js';

const CORPUS = new URL('../corpus/jsonexamples/', import.meta.url);
const utf8 = new TextDecoder('utf-8', { fatal: true });
const CHUNK = 64 * 1024;

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary parsed documents

interface Case {
  /** Selects the elements. */
  path: string;
  /** Selects their container (an array, or an object for `.*`). */
  container: string;
  /** The container, found in JSON.parse's result independently of the path. */
  select: (root: Json) => Json;
}

// The path to each file's main array (the largest member, see corpus/jsonexamples/README.md), some written in
// the other path forms, and nested paths where the top-level array holds a single element.
const NATURAL: Record<string, Case> = {
  'apache_builds.json': { path: '$.jobs[*]', container: '$.jobs', select: (root) => root.jobs },
  'canada.json': {
    path: '$.features[0].geometry.coordinates[*]',
    container: '$.features[0].geometry.coordinates',
    select: (root) => root.features[0].geometry.coordinates,
  },
  'citm_catalog.json': {
    path: "$['performances'][*]",
    container: '$.performances',
    select: (root) => root.performances,
  },
  'github_events.json': { path: '$[*]', container: '$', select: (root) => root },
  'gsoc-2018.json': { path: '$.*', container: '$', select: (root) => root },
  'instruments.json': { path: '$.instruments[*]', container: '$.instruments', select: (root) => root.instruments },
  'marine_ik.json': {
    path: '$.geometries[0]["data"].vertices[*]',
    container: '$.geometries[0].data.vertices',
    select: (root) => root.geometries[0].data.vertices,
  },
  'mesh.json': { path: '$.indices[*]', container: '$.indices', select: (root) => root.indices },
  'numbers.json': { path: '$[*]', container: '$', select: (root) => root },
  'random.json': { path: '$.result[*]', container: '$.result', select: (root) => root.result },
  'twitter.json': { path: '$.statuses[*]', container: '$.statuses', select: (root) => root.statuses },
  'twitterescaped.json': { path: '$.statuses[*]', container: '$.statuses', select: (root) => root.statuses },
  'update-center.json': { path: '$.plugins.*', container: '$.plugins', select: (root) => root.plugins },
};

const files = readdirSync(CORPUS)
  .filter((name) => /\.(nd)?json$/.test(name))
  .sort();
const jsonFiles = files.filter((name) => name.endsWith('.json'));
const rng = createRng(0xc0de);

function chunkings(bytes: Uint8Array): [string, Uint8Array[]][] {
  return [
    ['64 KiB chunks', fixedPieces(bytes, CHUNK)],
    ['random chunks', randomPieces(bytes, rng, 16 * 1024)],
  ];
}

function parseOne(bytes: Uint8Array, options: ParserOptions): unknown[] {
  const outcome = parseChunks(randomPieces(bytes, rng, 16 * 1024), options);
  expect(outcome.error).toBeNull();
  return outcome.values;
}

test('every corpus file has a natural path', () => {
  expect(jsonFiles).toEqual(Object.keys(NATURAL).sort());
  expect(files.filter((name) => name.endsWith('.ndjson'))).toEqual(['amazon_cellphones.ndjson']);
});

describe.each(jsonFiles)('%s', (name) => {
  const bytes = new Uint8Array(readFileSync(new URL(name, CORPUS)));
  const source = utf8.decode(bytes);
  const root = JSON.parse(source);
  const natural = NATURAL[name];

  test.each(chunkings(bytes))('$ in %s equals JSON.parse', (_, chunks) => {
    const outcome = parseChunks(chunks, { path: '$' });
    expect(outcome.error).toBeNull();
    expect(firstDifference(outcome.values, [root])).toBeNull();
  });

  test.each(chunkings(bytes))(`${natural.path} in %s equals JSON.parse`, (_, chunks) => {
    const container = natural.select(root);
    const outcome = parseChunks(chunks, { path: natural.path, withPath: true });
    expect(outcome.error).toBeNull();
    const items = outcome.values as { key: string | number; value: unknown }[];
    if (Array.isArray(container)) {
      expect(items.map((item) => item.key)).toEqual(container.map((_, index) => index));
      expect(
        firstDifference(
          items.map((item) => item.value),
          container,
        ),
      ).toBeNull();
    } else {
      expect(firstDifference(Object.fromEntries(items.map((item) => [item.key, item.value])), container)).toBeNull();
    }
    expect(items.length).toBeGreaterThan(0);
  });

  test(`${natural.path}: text and bytes are the exact source slices`, () => {
    const [containerText] = parseOne(bytes, { path: natural.container, output: 'text' }) as string[];
    // The container's own text is a slice of the source equal in value to JSON.parse's container...
    expect(source.includes(containerText)).toBe(true);
    expect(firstDifference(JSON.parse(containerText), natural.select(root))).toBeNull();

    // ...and the elements' texts, joined by the separators, are exactly that container.
    const texts = parseOne(bytes, { path: natural.path, output: 'text', withPath: true }) as {
      key: string | number;
      value: string;
    }[];
    const kind = Array.isArray(natural.select(root)) ? 'array' : 'object';
    const items = texts.map(({ key, value }) => ({ key: typeof key === 'string' ? key : undefined, text: value }));
    expect(reassemblyMismatch(containerText, kind, items)).toBeNull();

    const bytesOut = parseOne(bytes, { path: natural.path, output: 'bytes' }) as Uint8Array[];
    expect(bytesOut.every((item) => item instanceof Uint8Array)).toBe(true);
    expect(bytesOut.map((item) => utf8.decode(item))).toEqual(texts.map((item) => item.value));
  });
});

describe('amazon_cellphones.ndjson', () => {
  const bytes = new Uint8Array(readFileSync(new URL('amazon_cellphones.ndjson', CORPUS)));
  const source = utf8.decode(bytes);
  const lines = source
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));

  test.each(chunkings(bytes))('ndjson in %s equals JSON.parse of each line', (_, chunks) => {
    const outcome = parseChunks(chunks, { ndjson: true });
    expect(outcome.error).toBeNull();
    expect(outcome.values.length).toBe(793);
    expect(firstDifference(outcome.values, lines)).toBeNull();
  });

  test('text and bytes are the exact lines', () => {
    const texts = parseOne(bytes, { ndjson: true, output: 'text' }) as string[];
    expect(
      reassemblyMismatch(
        source,
        'ndjson',
        texts.map((text) => ({ text })),
      ),
    ).toBeNull();
    const bytesOut = parseOne(bytes, { ndjson: true, output: 'bytes' }) as Uint8Array[];
    expect(bytesOut.map((item) => utf8.decode(item))).toEqual(texts);
  });
});
