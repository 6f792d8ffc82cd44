// Properties of the encoder over seeded random values, random options and random consumers. Every source in a
// value is instrumented (ReadableStreams, async and sync generators, Node streams, rawJson streams; each element a
// source produces is built when produced, so every source that exists is in the value: a Node stream reads ahead
// into a buffer of its own, so its elements hold no instrumented sources), values may be promises,
// and the consumer reads with random pauses, may cancel at a random point, and one source may fail at a random
// element. Whatever happens:
// - a run that ends normally wrote exactly JSON.stringify of the materialised value, in chunks of at most
//   chunkBytes, and every source was read to its end;
// - a cancelled or failed run leaves no source open: each one ended, failed, or was closed (cancelled, returned,
//   destroyed), reached or not; a failed run errors with the source's error and never ends normally.
// A failure names the seed and the run; SLUICE_TEST_SEED explores other values.
import { describe, expect, test } from 'vitest';
import { Readable } from 'node:stream';
import { rawJson, stringifyStream } from '../../dist/encode/index.js';
import {
  createRng,
  expectedText,
  randomCorpusValue,
  testReplacer,
  type CorpusValue,
  type Rng,
} from '../support/stringify_corpus.js';
import { settle } from '../support/stringify_read.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x9e0f);
const RUNS = 400;
const MARKER = '\u0000raw:';
const encoder = new TextEncoder();
// Lone surrogates are escaped by JSON.stringify: the output is well-formed UTF-8.
const decoder = new TextDecoder('utf-8', { fatal: true });

type State = 'idle' | 'started' | 'ended' | 'failed' | 'closed';

interface Tracked {
  readonly name: string;
  state: State;
}

interface Build {
  readonly rng: Rng;
  readonly value: CorpusValue;
  readonly sources: Tracked[];
  /** The members of objects that are written (an array replacer's), or all. */
  readonly listed: ReadonlySet<string> | undefined;
  /** A replacer function drops this member: no source under it (it would never be read). */
  readonly dropped: string | undefined;
  /** The error a failing source throws, and whether one was chosen yet. */
  readonly failure: Error;
  failing: boolean;
}

function track(build: Build, kind: string): Tracked {
  const tracked: Tracked = { name: `${kind} ${build.sources.length}`, state: 'idle' };
  build.sources.push(tracked);
  return tracked;
}

/** At which element a new source fails (one source per value at most), or -1. */
function failAt(build: Build, length: number): number {
  if (build.failing || !build.rng.chance(0.08)) return -1;
  build.failing = true;
  return build.rng.int(length + 1);
}

/** A source of `plain`'s items, each sourced in turn when produced. */
function arraySource(build: Build, plain: readonly unknown[]): unknown {
  const { rng } = build;
  const items = Array.from(plain);
  const fail = failAt(build, items.length);
  const nullish = items.some((item) => item === null || item === undefined);
  const kind = rng.int(nullish ? 3 : 4);
  const make = (i: number) => sourced(build, items[i], kind !== 3);
  switch (kind) {
    case 0: {
      const tracked = track(build, 'stream');
      let i = 0;
      return new ReadableStream(
        {
          pull(controller) {
            tracked.state = 'started';
            if (i === fail) {
              tracked.state = 'failed';
              throw build.failure;
            }
            if (i < items.length) controller.enqueue(make(i++));
            else {
              tracked.state = 'ended';
              controller.close();
            }
          },
          cancel() {
            tracked.state = 'closed';
          },
        },
        { highWaterMark: 0 },
      );
    }
    case 1:
    case 2: {
      const tracked = track(build, 'generator');
      const asynchronous = rng.chance(0.5);
      function* body() {
        tracked.state = 'started';
        try {
          for (let i = 0; i < items.length; i++) {
            if (i === fail) {
              tracked.state = 'failed';
              throw build.failure;
            }
            yield make(i);
          }
          if (fail === items.length) {
            tracked.state = 'failed';
            throw build.failure;
          }
          tracked.state = 'ended';
        } finally {
          if (tracked.state === 'started') tracked.state = 'closed';
        }
      }
      const generator = asynchronous
        ? (async function* asyncBody() {
            for (const item of body()) {
              await null;
              yield item;
            }
          })()
        : body();
      const original = generator.return.bind(generator);
      // A generator returned before it started never runs its body: closed all the same.
      (generator as { return: unknown }).return = (value: never) => {
        if (tracked.state === 'idle') tracked.state = 'closed';
        return original(value);
      };
      return generator;
    }
    default: {
      const tracked = track(build, 'node stream');
      let i = 0;
      return new Readable({
        objectMode: true,
        highWaterMark: 1,
        read() {
          tracked.state = 'started';
          if (i === fail) {
            tracked.state = 'failed';
            this.destroy(build.failure);
          } else if (i < items.length) this.push(make(i++));
          else {
            tracked.state = 'ended';
            this.push(null);
          }
        },
        destroy(error, callback) {
          if (tracked.state === 'idle' || tracked.state === 'started') tracked.state = 'closed';
          callback(error);
        },
      });
    }
  }
}

function rawSource(build: Build, text: string, instrumented: boolean): unknown {
  const bytes = encoder.encode(text);
  if (!instrumented || build.rng.chance(0.5)) return build.rng.chance(0.5) ? rawJson(text) : rawJson(bytes);
  const tracked = track(build, 'raw stream');
  let at = 0;
  return rawJson(
    new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          tracked.state = 'started';
          if (at < bytes.length) {
            const n = build.rng.range(1, 9);
            controller.enqueue(bytes.slice(at, at + n));
            at += n;
          } else {
            tracked.state = 'ended';
            controller.close();
          }
        },
        cancel() {
          tracked.state = 'closed';
        },
      },
      { highWaterMark: 0 },
    ),
  );
}

/**
 * `plain` with sources: arrays as instrumented sources, raw markers as rawJson, values as promises. Not `tracked`:
 * no instrumented source (raw markers as rawJson of text or bytes, arrays as arrays).
 */
function sourced(build: Build, plain: unknown, tracked = true): unknown {
  const { rng } = build;
  let out = plain;
  if (typeof plain === 'string' && plain.startsWith(MARKER)) {
    out = rawSource(build, build.value.raws[Number(plain.slice(MARKER.length, -1))]!, tracked);
  } else if (Array.isArray(plain) && !('toJSON' in plain)) {
    out =
      tracked && rng.chance(0.5)
        ? arraySource(build, plain)
        : Array.from(plain, (item) => sourced(build, item, tracked));
  } else if (
    typeof plain === 'object' &&
    plain !== null &&
    Object.getPrototypeOf(plain) === Object.prototype &&
    !('toJSON' in plain)
  ) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(plain)) {
      const item = (plain as Record<string, unknown>)[key];
      const written = (build.listed === undefined || build.listed.has(key)) && key !== build.dropped;
      Object.defineProperty(copy, key, {
        value: written ? sourced(build, item, tracked) : item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    out = copy;
  }
  if (!rng.chance(0.1)) return out;
  const settled = out;
  return rng.chance(0.7) ? Promise.resolve(settled) : new Promise((resolve) => setTimeout(() => resolve(settled), 0));
}

interface Outcome {
  bytes: Uint8Array;
  chunks: Uint8Array[];
  error: unknown;
  done: boolean;
  cancelled: boolean;
}

/** Reads with random pauses; cancels after a random number of chunks when `cancelAt` >= 0. */
async function consume(rng: Rng, stream: ReadableStream<Uint8Array>, cancelAt: number): Promise<Outcome> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  const outcome: Outcome = { bytes: new Uint8Array(0), chunks, error: undefined, done: false, cancelled: false };
  try {
    for (;;) {
      if (chunks.length === cancelAt) {
        await reader.cancel(new Error('consumer left'));
        outcome.cancelled = true;
        break;
      }
      const { done, value } = await reader.read();
      if (done) {
        outcome.done = true;
        break;
      }
      chunks.push(value);
      const pause = rng.int(4);
      if (pause === 1) await null;
      else if (pause === 2) await new Promise((resolve) => setTimeout(resolve, 0));
    }
  } catch (error) {
    outcome.error = error;
  }
  outcome.bytes = Buffer.concat(chunks);
  return outcome;
}

const SPACES: unknown[] = [undefined, 2, '\t', '\n', ' \n-', 11];
const REPLACERS: unknown[] = [undefined, undefined, testReplacer, ['a', 'b', '0', 'c', '', 'hidden', 'key']];
const CHUNK_BYTES = [16, 17, 40, 256, 4096];

describe(`properties over random values, consumers and failures (seed ${SEED})`, () => {
  test('the output is JSON.stringify of the materialised value, and no source is left open', async () => {
    const rng = createRng(SEED);
    const counts = { complete: 0, cancelled: 0, failed: 0 };
    for (let n = 0; n < RUNS; n++) {
      const value = randomCorpusValue(rng, rng.range(1, 6));
      const space = rng.pick(SPACES);
      const replacer = rng.pick(REPLACERS);
      const chunkBytes = rng.pick(CHUNK_BYTES);
      let expected: string | undefined;
      try {
        expected = expectedText(value, replacer, space);
      } catch {
        continue; // JSON.stringify throws (see stringify_differential.test.ts for that case)
      }
      if (expected === undefined) continue;
      const build: Build = {
        rng,
        value,
        sources: [],
        listed: Array.isArray(replacer) ? new Set(replacer.map(String)) : undefined,
        dropped: typeof replacer === 'function' ? 'drop' : undefined,
        failure: new Error(`source failed in run ${n}`),
        failing: false,
      };
      const input = sourced(build, value.plain);
      const cancelAt = rng.chance(0.25) ? rng.int(12) : -1;
      const name = `run ${n} (space ${JSON.stringify(space)}, chunkBytes ${chunkBytes}, cancel at ${cancelAt})`;
      const outcome = await consume(rng, stringifyStream(input, { space, replacer, chunkBytes } as never), cancelAt);
      // What the consumer left is closed a few turns of the event loop later (a source's own timers come between),
      // later still on a loaded machine: waited for, up to a second, before any source may be called left open.
      await settle(5);
      const open = () => build.sources.some((source) => source.state === 'idle' || source.state === 'started');
      for (let waited = 5; waited < 1000 && !outcome.done && open(); waited += 5) await settle(5);
      for (const chunk of outcome.chunks) expect(chunk.length, name).toBeLessThanOrEqual(chunkBytes);
      const states = build.sources.map((source) => `${source.name}: ${source.state}`);
      if (outcome.done) {
        counts.complete++;
        expect(outcome.error, name).toBeUndefined();
        // Inside objects and arrays with a toJSON (kept as they are: toJSON may return the object itself) raw
        // markers stay strings; JSON.stringify writes them as such and expectedText() puts the raw text in.
        const text = decoder
          .decode(outcome.bytes)
          .replace(/"\\u0000raw:(\d+)\\u0000"/g, (_, index: string) => value.raws[Number(index)]!);
        expect(text, name).toBe(expected);
        expect(
          states.filter((state) => !state.endsWith(': ended')),
          name,
        ).toEqual([]);
      } else {
        if (outcome.cancelled) counts.cancelled++;
        else {
          counts.failed++;
          expect(outcome.error, name).toBe(build.failure);
          expect(
            build.sources.some((source) => source.state === 'failed'),
            `${name}: ${states.join(', ')}`,
          ).toBe(true);
        }
        expect(
          states.filter((state) => /: (idle|started)$/.test(state)),
          name,
        ).toEqual([]);
      }
    }
    // The runs cover each outcome.
    expect(counts.complete).toBeGreaterThan(RUNS / 2);
    expect(counts.cancelled).toBeGreaterThan(RUNS / 20);
    expect(counts.failed).toBeGreaterThan(RUNS / 50);
  });
});
