// The partial parser's cost per delta does not grow with the document (issue 29, item 3): text written 4
// characters at a time costs about as much per delta into an object of 20,000 members as into one of 20, into an
// array of 200,000 elements as into one of 20, at the end of a 10 MB string as of a short one, and 1,000 levels deep
// as 100 or 10. Each case streams two documents that differ only in the size of what is still open, times the same
// number of deltas of each, alternated in one process (the machine's load falls on both alike), and compares the
// medians.
import { describe, expect, test } from 'vitest';
import { createPartialParser } from '../../dist/index.js';

const DELTA = 4;
/** Deltas timed per round and document: milliseconds of work, well above the clock's resolution. */
const WINDOW = 1500;
const ROUNDS = 9;
const MAX_RATIO = 1.5;
/** Measurements of a ratio at most, while it is above its bound. */
const ATTEMPTS = 3;
/** The deep cases' garbage collection varies more from one window to the next: longer windows average it. */
const DEEP_WINDOW = 4 * WINDOW;
/** Pushing the big document's untimed prefix (linear: well under a second) may not take longer than this. */
const PREFIX_BUDGET_MS = 20_000;

/** A document still being written: its text so far is `prefix`, then `unit(i)` for i = first, first + 1, ... */
interface Stream {
  readonly name: string;
  readonly prefix: string;
  readonly unit: (i: number) => string;
  readonly first: number;
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Feeds a stream 4 characters at a time, with the text made as needed. */
class Feeder {
  private readonly parser = createPartialParser();
  private text: string;
  private at = 0;
  private next: number;
  private readonly stream: Stream;

  constructor(stream: Stream) {
    this.stream = stream;
    this.text = stream.prefix;
    this.next = stream.first;
  }

  /** Pushes the prefix: it must not take longer than PREFIX_BUDGET_MS (it does when each delta costs its size). */
  pushPrefix(): void {
    const start = cpuMs();
    const end = this.stream.prefix.length - (this.stream.prefix.length % DELTA);
    for (let pushed = 0; this.at < end; pushed++) {
      this.parser.push(this.text.slice(this.at, this.at + DELTA));
      this.at += DELTA;
      if ((pushed & 1023) === 0) {
        const spent = cpuMs() - start;
        expect(spent, `${this.stream.name}: ${this.at} characters of the prefix took ${spent} ms`).toBeLessThan(
          PREFIX_BUDGET_MS,
        );
      }
    }
    this.text = this.text.slice(this.at);
    this.at = 0;
  }

  /** Pushes `deltas` deltas; returns the CPU time in milliseconds. */
  timed(deltas: number): number {
    let text = this.text.slice(this.at);
    while (text.length < deltas * DELTA) text += this.stream.unit(this.next++);
    const pieces: string[] = [];
    for (let i = 0; i < deltas; i++) pieces.push(text.slice(i * DELTA, (i + 1) * DELTA));
    this.text = text.slice(deltas * DELTA);
    this.at = 0;
    const parser = this.parser;
    const start = cpuMs();
    for (const piece of pieces) parser.push(piece);
    return cpuMs() - start;
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/**
 * The big document's cost per delta over the small one's, measured again (fresh parsers) while it is above `bound`,
 * at most ATTEMPTS times: a burst of load on a shared machine can spoil one measurement, never the three of
 * quadratic code.
 */
function ratio(small: Stream, big: Stream, window = WINDOW, bound = MAX_RATIO): { ratio: number; report: string } {
  let best = measure(small, big, window);
  for (let attempt = 1; attempt < ATTEMPTS && best.ratio > bound; attempt++) {
    const next = measure(small, big, window);
    if (next.ratio < best.ratio) best = { ratio: next.ratio, report: `${next.report}, attempt ${attempt + 1}` };
  }
  return best;
}

/** The big document's cost per delta over the small one's: medians of alternated rounds after a warm-up. */
function measure(small: Stream, big: Stream, window: number): { ratio: number; report: string } {
  const feeders = [new Feeder(small), new Feeder(big)];
  for (const feeder of feeders) feeder.pushPrefix();
  for (const feeder of feeders) feeder.timed(window);
  const times: [number[], number[]] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so that neither always follows the other's garbage.
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) times[k as 0 | 1].push(feeders[k]!.timed(window));
    // Quadratic code takes seconds a round: 3 rounds tell.
    if (round >= 2 && median(times[1]) > 10 * MAX_RATIO * median(times[0])) break;
  }
  const [a, b] = [median(times[0]), median(times[1])];
  const perDelta = (ms: number) => `${((ms * 1000) / window).toFixed(2)} µs`;
  const report = `${small.name} ${perDelta(a)} a delta, ${big.name} ${perDelta(b)} (${(b / a).toFixed(2)}x)`;
  return { ratio: b / a, report };
}

const member = (i: number) => `"key${i}":"value ${i}",`;
const members = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => member(from + k)).join('');
const numbers = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `${from + k},`).join('');

describe('cost per delta, 4 characters at a time, whatever the size of what is open', () => {
  test('an object of 20 members and one of 20,000', () => {
    const { ratio: r, report } = ratio(
      { name: '20 members', prefix: '[', unit: () => `{${members(0, 19)}${member(19).slice(0, -1)}},`, first: 0 },
      { name: '20,000 members', prefix: `[{${members(0, 20_000)}`, unit: member, first: 20_000 },
    );
    console.log(report);
    expect(r, report).toBeLessThanOrEqual(MAX_RATIO);
  });

  test('an array of 20 elements and one of 200,000', () => {
    const { ratio: r, report } = ratio(
      { name: '20 elements', prefix: '[', unit: () => `[${numbers(0, 19)}19],`, first: 0 },
      { name: '200,000 elements', prefix: `[[${numbers(0, 200_000)}`, unit: (i) => `${i},`, first: 200_000 },
    );
    console.log(report);
    expect(r, report).toBeLessThanOrEqual(MAX_RATIO);
  });

  test('a short string and one of 10 MB', () => {
    const words = 'lorem ipsum dolor sit amet, consectetur adipiscing elit ';
    const { ratio: r, report } = ratio(
      { name: 'strings of 56 characters', prefix: '["', unit: () => `${words}","`, first: 0 },
      {
        name: 'a 10 MB string',
        prefix: `["${words.repeat(Math.ceil(10e6 / words.length))}`,
        unit: () => words,
        first: 0,
      },
    );
    console.log(report);
    expect(r, report).toBeLessThanOrEqual(MAX_RATIO);
  });

  test('depth 100 and depth 1,000; depth 10 and depth 1,000', () => {
    // Nine levels opened and closed again and again, below 1 level, 90 or 990.
    const unit = (i: number) => `{"a":[{"b":[{"c":[{"d":[{"e":"text ${i}"}]}]}]}]},`;
    const at = (levels: number) => `${'[{"a":'.repeat(levels / 2)}[`;
    const deep = ratio(
      { name: 'depth 100', prefix: at(90), unit, first: 0 },
      { name: 'depth 1,000', prefix: at(990), unit, first: 0 },
      DEEP_WINDOW,
    );
    console.log(deep.report);
    expect(deep.ratio, deep.report).toBeLessThanOrEqual(MAX_RATIO);
    // Past treeTuning.lazyDepth (16) snapshots are made when read, from depth 1 down (docs/partial.md, "Deep
    // containers"): 42x when every level was copied at each push, 1.5x to 2.6x when the 16 levels above lazyDepth
    // still were.
    const shallow = ratio(
      { name: 'depth 10', prefix: '[', unit, first: 0 },
      { name: 'depth 1,000', prefix: at(990), unit, first: 0 },
      DEEP_WINDOW,
    );
    console.log(shallow.report);
    expect(shallow.ratio, shallow.report).toBeLessThanOrEqual(MAX_RATIO);
  });
});
