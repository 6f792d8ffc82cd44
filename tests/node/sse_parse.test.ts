// parseEventStream and EventStreamParser against the WHATWG HTML standard's event stream interpretation: its own
// examples, one case per rule, every chunking of those streams (split at every byte, every code unit, CR and LF in
// different chunks), invalid UTF-8, and a differential test against eventsource-parser on seeded random streams.
import { createParser } from 'eventsource-parser';
import { describe, expect, test } from 'vitest';
import { EventStreamParser, parseEventStream, type ServerSentEvent } from '../../dist/index.js';
import { createRng } from '../support/random_json.mjs';
import { asyncIterableOf } from '../support/sources.js';
import { ev, RULES, SPEC_EXAMPLES, type SseCase } from '../support/sse_cases.js';

const encoder = new TextEncoder();
type Chunk = Uint8Array | string;

async function parse(chunks: readonly Chunk[]): Promise<ServerSentEvent[]> {
  const out: ServerSentEvent[] = [];
  for await (const event of parseEventStream(asyncIterableOf(chunks))) out.push(event);
  return out;
}

async function parseThroughStream(chunks: readonly Chunk[]): Promise<ServerSentEvent[]> {
  const out: ServerSentEvent[] = [];
  let next = 0;
  const source = new ReadableStream<Chunk>({
    pull: (controller) => (next < chunks.length ? controller.enqueue(chunks[next++]!) : controller.close()),
  });
  const stream = source.pipeThrough(new EventStreamParser());
  for await (const event of stream) out.push(event);
  return out;
}

/** `input` cut at `cuts` (ascending positions). */
function cut<T extends Chunk>(input: T, cuts: readonly number[]): T[] {
  const pieces: T[] = [];
  let at = 0;
  for (const to of [...cuts, input.length]) {
    pieces.push(input.slice(at, to) as T);
    at = to;
  }
  return pieces;
}

const CASES: readonly SseCase[] = [...SPEC_EXAMPLES, ...RULES];

describe('the examples of the standard', () => {
  test.each(SPEC_EXAMPLES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    expect(await parse([c.input])).toEqual(c.events);
    expect(await parse([encoder.encode(c.input)])).toEqual(c.events);
    expect(await parseThroughStream([encoder.encode(c.input)])).toEqual(c.events);
  });
});

describe('the rules of the interpretation', () => {
  test.each(RULES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    expect(await parse([c.input])).toEqual(c.events);
    expect(await parse([encoder.encode(c.input)])).toEqual(c.events);
  });

  test('a CR ending one chunk and an LF starting the next are one line end, empty chunks between or not', async () => {
    const expected = [ev('a\nb'), ev('c')];
    expect(await parse(['data: a\r', '\ndata: b\r', '\n\r', '\ndata: c\r\n\r', '\n'])).toEqual(expected);
    expect(await parse(['data: a\r', '', '\ndata: b\r', new Uint8Array(0), '\n\r\ndata: c\r\n\r\n'])).toEqual(expected);
    // A CR, then the first byte of a character (no text yet), then its second byte: CR alone was the line end.
    const e = encoder.encode('é');
    expect(await parse(['data: a\r', e.subarray(0, 1), e.subarray(1), ': x\n\n'])).toEqual([ev('a')]);
    // Not a CR before: each LF is a line end.
    expect(await parse(['data: a\n', '\ndata: b\n\n'])).toEqual([ev('a'), ev('b')]);
  });

  test("invalid UTF-8 is decoded with U+FFFD, as the standard's UTF-8 decode does", async () => {
    const bytes = new Uint8Array([
      ...encoder.encode('data: a'),
      0xff,
      0x62,
      0xe2,
      0x82,
      0x0a,
      ...encoder.encode('data: '),
      0xc3,
      0x0a,
      0x0a,
    ]);
    const expected = [ev('a\uFFFDb\uFFFD\n\uFFFD')];
    expect(await parse([bytes])).toEqual(expected);
    for (let i = 1; i < bytes.length; i++) expect(await parse(cut(bytes, [i]))).toEqual(expected);
  });

  test('a BOM split over chunks, or after an empty chunk, is stripped once', async () => {
    const bytes = encoder.encode('\uFEFFdata: a\n\n');
    expect(await parse([new Uint8Array(0), bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)])).toEqual([
      ev('a'),
    ]);
    expect(await parse(['', '\uFEFF', 'data: a\n\n'])).toEqual([ev('a')]);
    expect(await parse(['\uFEFF', '\uFEFFdata: a\n\n'])).toEqual([]);
  });
});

describe('every chunking gives the same events', () => {
  test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const bytes = encoder.encode(c.input);
    for (let i = 0; i <= bytes.length; i++) {
      expect(await parse(cut(bytes, [i])), `bytes cut at ${i}`).toEqual(c.events);
    }
    for (let i = 0; i <= c.input.length; i++) {
      expect(await parse(cut(c.input, [i])), `string cut at ${i}`).toEqual(c.events);
    }
    const ones = Array.from({ length: bytes.length }, (_, i) => i);
    expect(await parse(cut(bytes, ones)), 'one byte a chunk').toEqual(c.events);
    expect(await parseThroughStream(cut(bytes, ones)), 'one byte a chunk, EventStreamParser').toEqual(c.events);
    if (bytes.length > 48) return;
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j++) {
        expect(await parse(cut(bytes, [i, j])), `bytes cut at ${i} and ${j}`).toEqual(c.events);
      }
    }
  });
});

// The differential test. eventsource-parser (4.1.3) dispatches the same events with its own naming: `event`
// undefined for 'message', and `id` only the id set in the event's own block (it resets it after each dispatch),
// where the standard's last event ID buffer persists until the next `id` field; `retry` comes through onRetry.
// The adapter below keeps the standard's state from its callbacks (onId runs at each dispatch with the block's id,
// before onEvent), so that every field compares; tests/support/sse_cases.ts asserts the persistence itself.
function reference(pieces: readonly Uint8Array[]): ServerSentEvent[] {
  const out: ServerSentEvent[] = [];
  let id = '';
  let retry: number | undefined;
  const parser = createParser({
    onId: (value) => {
      id = value;
    },
    onRetry: (value) => {
      retry = value;
    },
    onEvent: (e) => out.push({ event: e.event ?? 'message', data: e.data, id, retry }),
  });
  // ignoreBOM: it strips one leading BOM itself, as the standard says.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for (const piece of pieces) parser.feed(decoder.decode(piece, { stream: true }));
  return out;
}

const VALUE_PIECES = ['a', 'bc', ' ', ':', ': ', '\t', '\u0000', 'é', '日本', '😀', '\uFEFF', '0', '42', 'data', 'x y'];
const LINE_ENDS = ['\n', '\r', '\r\n'];

function randomValue(rng: ReturnType<typeof createRng>): string {
  let value = '';
  for (let n = rng.int(5); n > 0; n--) value += VALUE_PIECES[rng.int(VALUE_PIECES.length)];
  return value;
}

function randomLine(rng: ReturnType<typeof createRng>): string {
  const value = randomValue(rng);
  const colon = [':', ': ', ':  ', ''][rng.int(4)]!;
  switch (rng.int(10)) {
    case 0:
      return `event${colon}${colon === '' ? '' : value}`;
    case 1:
      return `id${colon}${colon === '' ? '' : value}`;
    case 2:
      return `retry${colon}${['', '0', '15', '007', '1e3', '-1', ' 5', '99999999999999999999', value][rng.int(9)]}`;
    case 3:
      return `:${value}`;
    case 4:
      return [`foo${colon}${value}`, `Data: ${value}`, `data : ${value}`, `dat: ${value}`, value][rng.int(5)]!;
    default:
      return `data${colon}${colon === '' ? '' : value}`;
  }
}

/** Blocks of random lines with random line ends, blank lines between (sometimes two, sometimes none). */
function randomStream(seed: number): string {
  const rng = createRng(seed);
  let text = ['', '', '', '\uFEFF', '\uFEFF\uFEFF'][rng.int(5)]!;
  for (let blocks = 1 + rng.int(6); blocks > 0; blocks--) {
    for (let lines = rng.int(5); lines > 0; lines--) text += randomLine(rng) + LINE_ENDS[rng.int(3)];
    for (let blanks = [0, 1, 1, 1, 2][rng.int(5)]!; blanks > 0; blanks--) text += LINE_ENDS[rng.int(3)];
  }
  // Sometimes an unfinished event or line at the end.
  if (rng.int(3) === 0) text += randomLine(rng) + (rng.int(2) === 0 ? LINE_ENDS[rng.int(3)] : '');
  return text;
}

function randomCuts(seed: number, length: number): number[] {
  const rng = createRng(seed ^ 0x5bd1e995);
  if (rng.int(8) === 0) return Array.from({ length }, (_, i) => i);
  const cuts = Array.from({ length: rng.int(8) }, () => rng.int(length + 1));
  return cuts.sort((a, b) => a - b);
}

describe('the same events as eventsource-parser', () => {
  test('2,000 seeded random streams, each cut at random places for both', async () => {
    let events = 0;
    for (let seed = 1; seed <= 2000; seed++) {
      const text = randomStream(seed);
      const bytes = encoder.encode(text);
      const expected = reference(cut(bytes, randomCuts(seed + 1, bytes.length)));
      const mine = await parse(cut(bytes, randomCuts(seed, bytes.length)));
      expect(mine, `seed ${seed}: ${JSON.stringify(text)}`).toEqual(expected);
      if (seed % 4 === 0) {
        const fromText = await parse(cut(text, randomCuts(seed, text.length)));
        expect(fromText, `seed ${seed}, string chunks: ${JSON.stringify(text)}`).toEqual(expected);
      }
      events += expected.length;
    }
    // The streams dispatch events often enough to compare something.
    expect(events).toBeGreaterThan(2000);
  });
});
