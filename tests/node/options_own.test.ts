// Options are the caller's own properties only: with Object.prototype polluted with every option name of every API
// (values that would change the result if read: a path, an output, limits of 1...), each API called with no
// options, or with an empty object, gives exactly what it gives unpolluted. The pollution is enumerable, as an
// assignment `Object.prototype.path = ...` makes it, and is removed before any assertion runs.
import { describe, expect, test } from 'vitest';
import {
  createParser,
  createPartialParser,
  init,
  JsonArrayStream,
  JsonArrayStringifyStream,
  JsonLinesStringifyStream,
  lazyParse,
  openJson,
  parseJsonArray,
  partialJson,
  StreamedJsonResponse,
  stringifyStream,
} from '../../dist/index.js';
import * as parserOptions from '../../dist/parse/options.js';
import * as stringifyOptions from '../../dist/encode/options.js';
import { parseCommandLine } from '../../dist/cli/args.js';
import { readAll } from '../support/stringify_read.js';
import { asyncIterableOf, collect, collectStream } from '../support/sources.js';

// A value for every option name of every API (parser, streams, encoder, openJson, lazyParse, partial, init), each
// one that a reader of inherited properties would notice.
const POLLUTION: Record<string, unknown> = {
  path: '$.x[*]',
  paths: ['$.y'],
  order: 'arrival',
  output: 'text',
  reviver: () => 'revived',
  withPath: true,
  withOffset: true,
  withNormalizedPath: true,
  ndjson: true,
  onInvalidLine: () => {
    throw new Error('an inherited onInvalidLine was called');
  },
  maxDepth: 1,
  maxElementBytes: 1,
  numbers: 'partial',
  integers: 'string',
  transient: true,
  expand: ['a'],
  lazyModule: 42,
  space: 2,
  replacer: ['none'],
  bigint: 'string',
  chunkBytes: 16,
  // StreamedJsonResponse's ResponseInit.
  status: 299,
};

test('the pollution names every option of the parsers and the encoders', () => {
  // The lists the checks name in their messages (internal: not in the .d.ts).
  const { PARSER_OPTIONS } = parserOptions as unknown as { PARSER_OPTIONS: string[] };
  const { STRINGIFY_OPTIONS } = stringifyOptions as unknown as { STRINGIFY_OPTIONS: string[] };
  expect(PARSER_OPTIONS.length).toBeGreaterThan(0);
  for (const name of [...PARSER_OPTIONS, ...STRINGIFY_OPTIONS]) expect(POLLUTION).toHaveProperty(name);
});

/** Runs `run` with Object.prototype polluted, and removes the pollution whatever happens. */
async function polluted<T>(run: () => Promise<T>): Promise<T> {
  const proto = Object.prototype as Record<string, unknown>;
  for (const [name, value] of Object.entries(POLLUTION)) {
    Object.defineProperty(proto, name, { value, writable: true, enumerable: true, configurable: true });
  }
  try {
    return await run();
  } finally {
    for (const name of Object.keys(POLLUTION)) delete proto[name];
  }
}

/** What `run` gives (its value, or the error's name and message) as plain data, compared after the cleanup. */
async function outcome(run: () => unknown): Promise<unknown> {
  try {
    return { value: JSON.parse(JSON.stringify((await run()) ?? null)) };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

const TEXT = '[5,6,{"x":[1.5,[[2]]],"y":"z"}]';
const VALUE = { x: [1, { none: 'y', a: [[[3]]] }], big: 'b' };
const valuesOf = (...values: unknown[]) =>
  new ReadableStream<unknown>({
    start(controller) {
      for (const value of values) controller.enqueue(value);
      controller.close();
    },
  });
const chunkSizes = async (stream: ReadableStream<Uint8Array>) => {
  const { chunks, text, error } = await readAll(stream);
  if (error !== undefined) throw error;
  return { text, sizes: chunks.map((c) => c.length) };
};

const CASES: [string, () => unknown][] = [
  [
    'createParser()',
    () => {
      const parser = createParser();
      return [...parser.push(TEXT), ...parser.end()];
    },
  ],
  [
    'createParser({})',
    () => {
      const parser = createParser({});
      return [...parser.push(TEXT), ...parser.end()];
    },
  ],
  ['parseJsonArray()', async () => (await collect(parseJsonArray(asyncIterableOf([TEXT])))).values],
  [
    'new JsonArrayStream()',
    async () => (await collectStream(new Response(TEXT).body!.pipeThrough(new JsonArrayStream()))).values,
  ],
  [
    'createPartialParser()',
    () => {
      const parser = createPartialParser();
      return [parser.push('[1.5'), parser.push(',[[2]]'), parser.push(']'), parser.end()];
    },
  ],
  ['partialJson()', async () => (await collect(partialJson(asyncIterableOf(['[1.5', ',[[2]]]'])))).values],
  [
    'openJson()',
    async () => {
      const doc = openJson(asyncIterableOf([TEXT]));
      const first = await doc.get('$[0]');
      const items = [];
      for await (const item of doc.iterate('$[2].x[*]')) items.push(item);
      return [first, items];
    },
  ],
  ['lazyParse()', () => JSON.stringify(lazyParse(TEXT))],
  ['init()', async () => init()],
  ['stringifyStream()', () => chunkSizes(stringifyStream(VALUE))],
  ['stringifyStream(value, {})', () => chunkSizes(stringifyStream(VALUE, {}))],
  [
    'new StreamedJsonResponse()',
    async () => {
      const response = new StreamedJsonResponse(VALUE);
      return [response.status, await response.text()];
    },
  ],
  [
    'new JsonArrayStringifyStream()',
    () => chunkSizes(valuesOf(VALUE, VALUE).pipeThrough(new JsonArrayStringifyStream())),
  ],
  [
    'new JsonLinesStringifyStream()',
    () => chunkSizes(valuesOf(VALUE, VALUE).pipeThrough(new JsonLinesStringifyStream())),
  ],
  ['sluice select (arguments)', () => parseCommandLine('select', ['$[*]', 'in.json'])],
];

describe('an option inherited from Object.prototype is ignored', () => {
  test.each(CASES)('%s', async (_name, run) => {
    const clean = await outcome(run);
    const dirty = await polluted(() => outcome(run));
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(dirty).toEqual(clean);
    // The clean run worked: a failure on both sides would compare equal.
    expect(clean).toHaveProperty('value');
  });
});
