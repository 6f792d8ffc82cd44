// Sources the encoder never reached are closed when it stops early, as those it opened are: a ReadableStream
// cancelled (with the reason), a Node stream destroyed, an iterator returned (a generator that never started
// finishes without running its body), at every depth of the part of the value not written yet, in the order
// the encoder would have reached them and innermost first; without running a getter, toJSON or a thenable's
// then(). Both when the output is cancelled and when something fails.
import { describe, expect, test } from 'vitest';
import { Readable } from 'node:stream';
import { JsonArrayStringifyStream, parseJsonArray, rawJson, stringifyStream } from '../../dist/index.js';
import { readAll, settle } from '../support/stringify_read.js';

/** A source that records how it was closed. */
interface Probe {
  readonly name: string;
  readonly source: object;
  /** Closed as its kind is: cancelled, destroyed, returned. */
  closed(): boolean;
  /** What was given to cancel(), for streams. */
  reason?: unknown;
  /** The source produced something (a generator's body ran, a stream was pulled). */
  started: boolean;
}

type Kind = 'stream' | 'node' | 'async generator' | 'generator' | 'parseJsonArray' | 'rawJson stream';
const KINDS: Kind[] = ['stream', 'node', 'async generator', 'generator', 'parseJsonArray', 'rawJson stream'];

function makeProbe(kind: Kind, name: string, log: string[]): Probe {
  const probe: Probe = { name, source: {}, closed: () => false, started: false };
  switch (kind) {
    case 'stream':
    case 'rawJson stream':
    case 'parseJsonArray': {
      let cancelled = false;
      const stream = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            probe.started = true;
            controller.enqueue(new TextEncoder().encode('['));
          },
          cancel(reason) {
            cancelled = true;
            probe.reason = reason;
            log.push(name);
          },
        },
        { highWaterMark: 0 },
      );
      probe.closed = () => cancelled;
      (probe as { source: object }).source =
        kind === 'stream'
          ? stream
          : kind === 'rawJson stream'
            ? rawJson(stream)
            : parseJsonArray(stream, { path: '$[*]', output: 'bytes' });
      return probe;
    }
    case 'node': {
      const node = new Readable({
        objectMode: true,
        read() {
          probe.started = true;
          this.push(1);
        },
        destroy(error, callback) {
          log.push(name);
          callback(error);
        },
      });
      probe.closed = () => node.destroyed;
      (probe as { source: object }).source = node;
      return probe;
    }
    default: {
      const body = function* body() {
        probe.started = true;
        try {
          for (;;) yield 1;
        } finally {
          log.push(`${name} finally`);
        }
      };
      const generator =
        kind === 'generator'
          ? body()
          : (async function* asyncBody() {
              yield* body();
            })();
      let returned = false;
      const original = generator.return.bind(generator);
      (generator as { return: unknown }).return = (value: never) => {
        returned = true;
        log.push(name);
        return original(value);
      };
      probe.closed = () => returned;
      (probe as { source: object }).source = generator;
      return probe;
    }
  }
}

/** `inner` nested `depth` levels deep in fresh objects and arrays. */
function nest(inner: unknown, depth: number): unknown {
  let value = inner;
  for (let d = 0; d < depth; d++) value = d % 2 === 0 ? { level: d, value, after: 'x' } : [d, value, null];
  return value;
}

/** A stream that answers its first pull with one row, then never: the encoder waits on it. */
function stalling(log: string[]): ReadableStream<unknown> {
  let pulls = 0;
  return new ReadableStream(
    {
      pull(controller) {
        if (pulls++ === 0) controller.enqueue({ row: 1 });
        return new Promise(() => {});
      },
      cancel() {
        log.push('stalling');
      },
    },
    { highWaterMark: 0 },
  );
}

/** Reads until the encoder waits on `stalling`, then cancels with `reason`. */
async function cancelWhileStalled(value: unknown, reason: unknown, options?: object): Promise<void> {
  const reader = stringifyStream(value, options).getReader();
  const first = reader.read();
  await settle();
  await reader.cancel(reason);
  await first;
}

describe('cancelling closes the sources not reached', () => {
  test.each(KINDS)(
    '%s at depths 0 to 4: after the current member, in later elements, deep in later objects',
    async (kind) => {
      const log: string[] = [];
      const probes = [0, 1, 2, 3, 4].flatMap((depth) => [
        makeProbe(kind, `member ${depth}`, log),
        makeProbe(kind, `element ${depth}`, log),
      ]);
      const value = {
        head: [1, stalling(log)],
        later: probes.filter((_, i) => i % 2 === 0).map((probe, depth) => nest(probe.source, depth)),
        elements: [
          stalling(log),
          ...probes.filter((_, i) => i % 2 === 1).map((probe, depth) => nest(probe.source, depth)),
        ],
      };
      const reason = new Error('client went away');
      await cancelWhileStalled(value, reason);
      for (const probe of probes) {
        expect(probe.closed(), probe.name).toBe(true);
        expect(probe.started, `${probe.name} produced nothing`).toBe(false);
        if (kind === 'stream' || kind === 'rawJson stream') expect(probe.reason, probe.name).toBe(reason);
      }
      // In the order the encoder would have reached them (the second stalling stream among them), after the one
      // it was reading.
      expect(log).toEqual([
        'stalling',
        ...probes.filter((_, i) => i % 2 === 0).map((probe) => probe.name),
        'stalling',
        ...probes.filter((_, i) => i % 2 === 1).map((probe) => probe.name),
      ]);
    },
  );

  test('cancelled before the first read: nothing was written, every source in the value is closed', async () => {
    const log: string[] = [];
    const probes = KINDS.map((kind) => makeProbe(kind, kind, log));
    await stringifyStream({
      all: nest(
        probes.map((probe) => probe.source),
        3,
      ),
    }).cancel('never read');
    for (const probe of probes) expect(probe.closed(), probe.name).toBe(true);
    expect(log).toEqual(KINDS);
  });

  test('a generator that never started finishes without running its body', async () => {
    const log: string[] = [];
    const probe = makeProbe('async generator', 'g', log);
    await cancelWhileStalled({ head: stalling(log), tail: { g: probe.source } }, undefined);
    expect(probe.started).toBe(false);
    expect(await (probe.source as AsyncGenerator).next()).toEqual({ done: true, value: undefined });
    expect(log).toEqual(['stalling', 'g']);
  });

  test('innermost first: what an open frame has not reached, then its source, then the frame around it', async () => {
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => makeProbe('stream', name, log));
    async function* outer() {
      try {
        yield { inner: stalling(log), afterInner: a!.source, deeper: { more: [b!.source] } };
      } finally {
        log.push('outer finally');
      }
    }
    await cancelWhileStalled({ rows: outer(), afterRows: c!.source }, 'stop');
    expect(log).toEqual(['stalling', 'a', 'b', 'outer finally', 'c']);
  });

  test('siblings in the element a source yielded, a source shared with an open frame closed once', async () => {
    const log: string[] = [];
    const shared = makeProbe('stream', 'shared', log);
    const sibling = makeProbe('node', 'sibling', log);
    async function* rows() {
      yield { now: shared.source, then: [sibling.source, shared.source] };
    }
    const reader = stringifyStream({ rows: rows() }, { chunkBytes: 16 }).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(shared.closed() && sibling.closed()).toBe(true);
    expect(log.filter((name) => name === 'shared')).toEqual(['shared']);
  });

  test('a promise not reached: the sources in its value are closed once it fulfils', async () => {
    const log: string[] = [];
    const probe = makeProbe('stream', 'promised', log);
    let resolve!: (value: unknown) => void;
    const later = new Promise((settle) => {
      resolve = settle;
    });
    await cancelWhileStalled({ head: stalling(log), tail: [later, Promise.resolve({ x: probe.source })] }, 'stop');
    expect(probe.closed()).toBe(true);
    const another = makeProbe('node', 'later', log);
    resolve({ deep: [another.source] });
    await settle();
    expect(another.closed()).toBe(true);
  });

  test('a value or element that arrives after the cancellation is closed when it arrives', async () => {
    const log: string[] = [];
    const [viaPromise, viaElement] = [makeProbe('stream', 'via promise', log), makeProbe('node', 'via element', log)];
    let resolve!: (value: unknown) => void;
    const pending = new Promise((settle) => {
      resolve = settle;
    });
    const reader = stringifyStream({ a: pending }).getReader();
    const first = reader.read();
    await settle();
    await reader.cancel();
    await first;
    resolve({ s: viaPromise.source });
    await settle();
    expect(viaPromise.closed()).toBe(true);

    let release!: () => void;
    async function* slowRows() {
      await new Promise<void>((go) => {
        release = go;
      });
      yield { s: viaElement.source };
    }
    const second = stringifyStream({ rows: slowRows() }).getReader();
    const read = second.read();
    await settle();
    const cancelling = second.cancel();
    release();
    await cancelling;
    await read;
    await settle();
    expect(viaElement.closed()).toBe(true);
  });
});

describe('stopping on an error closes the sources not reached', () => {
  test.each(KINDS)('%s, after a source threw, a cycle and a BigInt', async (kind) => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const failures: [string, unknown][] = [
      [
        'a source threw',
        (async function* failing() {
          yield 1;
          throw new Error('cursor broke');
        })(),
      ],
      ['a cycle', cycle],
      ['a BigInt', 1n],
    ];
    for (const [name, failing] of failures) {
      const log: string[] = [];
      const probe = makeProbe(kind, 'unreached', log);
      const output = await readAll(stringifyStream({ rows: [1, failing], tail: nest(probe.source, 3) }));
      expect(output.error, name).toBeDefined();
      expect(probe.closed(), name).toBe(true);
      if (kind === 'stream') expect(probe.reason, name).toBe(output.error);
    }
  });
});

describe('a source opened and not read yet is closed as its kind is', () => {
  // The depth limit throws with the source's frame pushed, before its first read. A Node stream's iterator is an
  // async generator whose return() skips its body: the stream itself must be destroyed.
  // A rawJson stream opens no frame of values: its text is validated, not nested.
  test.each(KINDS.filter((kind) => kind !== 'rawJson stream'))('%s, opened at the depth limit', async (kind) => {
    const log: string[] = [];
    const probe = makeProbe(kind, 'opened', log);
    const output = await readAll(stringifyStream({ rows: [probe.source] }, { maxDepth: 2 }));
    expect(String(output.error)).toBe(
      'JsonStringifyLimitError: Cannot write JSON: nesting deeper than maxDepth (2) at $.rows[0]',
    );
    await settle();
    expect(probe.started).toBe(false);
    expect(probe.closed()).toBe(true);
  });
});

describe('what the walk does not do', () => {
  test('no getter, toJSON, replacer or then() runs; no iterable is asked for an iterator', async () => {
    const log: string[] = [];
    const calls: string[] = [];
    const hidden = makeProbe('stream', 'behind a getter', log);
    const found = makeProbe('stream', 'found', log);
    const value = {
      head: stalling(log),
      tail: {
        get getter() {
          calls.push('getter');
          return hidden.source;
        },
        withToJSON: { toJSON: () => calls.push('toJSON'), data: found.source },
        thenable: { then: () => calls.push('then') },
        iterable: { [Symbol.asyncIterator]: () => calls.push('asyncIterator') },
        map: new Map([['k', hidden.source]]),
        typed: new Uint8Array(1 << 20),
        string: new String('x'.repeat(1 << 16)),
      },
    };
    await cancelWhileStalled(value, 'stop', {
      replacer: (key: string, item: unknown) => {
        if (key === 'tail') calls.push('replacer');
        return item;
      },
    });
    expect(calls).toEqual([]);
    expect(found.closed()).toBe(true);
    expect(hidden.closed()).toBe(false);
  });

  test('a locked stream is not ours to cancel; an array replacer limits the members followed', async () => {
    const log: string[] = [];
    const locked = makeProbe('stream', 'locked', log);
    const reader = (locked.source as ReadableStream).getReader();
    const listed = makeProbe('stream', 'listed', log);
    const unlisted = makeProbe('stream', 'unlisted', log);
    await cancelWhileStalled(
      { a: stalling(log), b: { a: [locked.source, listed.source], b: unlisted.source } },
      'stop',
      { replacer: ['a', 'b'] },
    );
    expect(listed.closed()).toBe(true);
    expect(locked.closed()).toBe(false);
    reader.releaseLock();
    const other = makeProbe('stream', 'other', log);
    await cancelWhileStalled({ a: stalling(log), c: other.source }, 'stop', { replacer: ['a'] });
    expect(other.closed()).toBe(false);
    expect(unlisted.closed()).toBe(true);
  });

  test('a cycle in the part not reached ends the walk; each member is read once, by its descriptor', async () => {
    const log: string[] = [];
    const probe = makeProbe('stream', 'end', log);
    let descriptors = 0;
    let gets = 0;
    const rows = Array.from(
      { length: 1000 },
      (_, i) =>
        new Proxy(
          { i, a: 'x', b: [i], c: null, d: {} },
          {
            getOwnPropertyDescriptor(target, key) {
              descriptors++;
              return Reflect.getOwnPropertyDescriptor(target, key);
            },
            get(target, key, receiver) {
              if (typeof key === 'string' && key in target) gets++;
              return Reflect.get(target, key, receiver);
            },
          },
        ),
    );
    const cyclic: Record<string, unknown> = { rows };
    cyclic.again = cyclic;
    await cancelWhileStalled({ head: stalling(log), tail: cyclic, end: probe.source }, 'stop');
    expect(probe.closed()).toBe(true);
    // Once by the walk, once by for-in, which asks a Proxy whether each key is enumerable: linear, and no
    // member's value is read with [[Get]] (which would run a getter).
    expect(descriptors).toBe(2 * 5000);
    expect(gets).toBe(0);
  });

  test('JsonArrayStringifyStream: cancelling the readable side closes what the value being written holds', async () => {
    const log: string[] = [];
    const probe = makeProbe('async generator', 'tail', log);
    const stream = new JsonArrayStringifyStream();
    const writer = stream.writable.getWriter();
    void writer.write({ head: stalling(log), tail: [probe.source] }).catch(() => {});
    const reader = stream.readable.getReader();
    const first = reader.read();
    await settle();
    await reader.cancel('stop');
    await first;
    expect(log).toEqual(['stalling', 'tail']);
  });
});
