// readModelStream over each provider's fixture (tests/data/model-streams), its bytes cut at seeded random
// positions, given as a Response body (read by sluice's parseEventStream) or read into events by eventsource-parser
// (an independent SSE parser): the snapshots' invariants (text only grows, each tool
// call's arguments are always the partial value of a prefix of its argument text and end as JSON.parse of all of
// it, ids and names as the provider gave them, done only at the end), their structural sharing, and the same
// sequence whatever the cuts and whichever SSE parser.
import { describe, expect, test } from 'vitest';
import { createPartialParser, readModelStream, type ModelSnapshot } from '../../dist/index.js';
import { allEvents, eventsOf, fixtures, oracle, randomCuts, type Fixture } from '../support/model_streams.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 24);
const CUTS = 6;
const JSON_TEXT = new Set(['structured_text']);
const FAILING = new Set(['error']);

/** Every distinct snapshot of `text` pushed one character at a time, as JSON: the values a prefix can show. */
function prefixValues(text: string): string[] {
  // Arguments left empty read as {} (a tool without parameters).
  if (text.trim() === '') return ['{}'];
  const parser = createPartialParser();
  const seen: string[] = [];
  const add = (value: unknown) => {
    if (value === undefined) return;
    const json = JSON.stringify(value);
    if (seen[seen.length - 1] !== json) seen.push(json);
  };
  for (const ch of text) add(parser.push(ch));
  add(parser.end());
  return seen;
}

/** A Response whose body delivers `pieces`, one per pull. */
function responseOf(pieces: readonly Uint8Array[]): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (i < pieces.length) controller.enqueue(pieces[i++]!.slice());
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

async function collect(fixture: Fixture, seed: number, via: 'body' | 'events' = 'body'): Promise<ModelSnapshot[]> {
  const options = { format: fixture.format, ...(JSON_TEXT.has(fixture.name) ? { text: 'json' as const } : {}) };
  const pieces = randomCuts(fixture.bytes, seed);
  const source = via === 'body' ? responseOf(pieces) : eventsOf(pieces);
  const out: ModelSnapshot[] = [];
  for await (const s of readModelStream(source, options)) out.push(s);
  return out;
}

const ok = fixtures().filter((f) => !FAILING.has(f.name));

describe.each(ok.map((f) => [`${f.format}/${f.name}`, f] as const))('%s', (_, fixture) => {
  const expected = oracle(fixture.format, allEvents(fixture.bytes));

  test('snapshots: text grows, arguments are partial values of a prefix, the last is final', async () => {
    const snapshots = await collect(fixture, SEED);
    expect(snapshots.length).toBeGreaterThan(2);
    const last = snapshots[snapshots.length - 1]!;
    expect(last.done).toBe(true);
    expect(snapshots.slice(0, -1).every((s) => !s.done)).toBe(true);
    expect(last.text).toBe(expected.text);

    // Tool calls: ids, names, order and final arguments.
    expect(last.toolCalls.map((c) => [c.index, c.id, c.name, c.complete])).toEqual(
      expected.calls.map((c, i) => [i, c.id, c.name, true]),
    );
    expect(last.toolCalls.map((c) => c.arguments)).toEqual(expected.calls.map((c) => c.value));

    const prefixes = expected.calls.map((c) => (c.text === undefined ? null : prefixValues(c.text)));
    const reached = expected.calls.map(() => 0);
    let text = '';
    for (const s of snapshots) {
      expect(Object.isFrozen(s) && Object.isFrozen(s.toolCalls)).toBe(true);
      expect(s.text.startsWith(text)).toBe(true);
      expect(expected.text.startsWith(s.text)).toBe(true);
      text = s.text;
      for (const c of s.toolCalls) {
        expect(Object.isFrozen(c)).toBe(true);
        expect([c.id, c.name]).toEqual([expected.calls[c.index]!.id, expected.calls[c.index]!.name]);
        if (c.complete) expect(c.arguments).toEqual(expected.calls[c.index]!.value);
        const values = prefixes[c.index];
        if (values === null || c.arguments === undefined) continue;
        // The partial value of a prefix at least as long as the last one shown (never going back).
        const at = values!.indexOf(JSON.stringify(c.arguments), reached[c.index]);
        expect(at, `tool call ${c.index}: ${JSON.stringify(c.arguments)}`).toBeGreaterThanOrEqual(0);
        reached[c.index] = at;
      }
    }
    if (JSON_TEXT.has(fixture.name)) {
      expect(last.value).toEqual(JSON.parse(expected.text));
      const values = prefixValues(expected.text);
      let at = 0;
      for (const s of snapshots) {
        if (s.value === undefined) continue;
        at = values.indexOf(JSON.stringify(s.value), at);
        expect(at).toBeGreaterThanOrEqual(0);
      }
    } else expect(snapshots.every((s) => s.value === undefined)).toBe(true);
  });

  test('structural sharing: an unchanged tool call, and unchanged calls, keep their objects', async () => {
    const snapshots = await collect(fixture, SEED + 1);
    let shared = 0;
    for (let i = 1; i < snapshots.length; i++) {
      const [before, after] = [snapshots[i - 1]!, snapshots[i]!];
      expect(before).not.toBe(after);
      // Each snapshot says something new.
      expect(JSON.stringify(before)).not.toBe(JSON.stringify(after));
      let changed = false;
      before.toolCalls.forEach((c, k) => {
        const d = after.toolCalls[k]!;
        if (c.arguments === d.arguments && c.complete === d.complete && c.name === d.name && c.id === d.id) {
          expect(d).toBe(c);
          shared++;
        } else changed = true;
      });
      if (!changed && before.toolCalls.length === after.toolCalls.length)
        expect(after.toolCalls).toBe(before.toolCalls);
    }
    if (expected.calls.length > 1 && fixture.format !== 'gemini') expect(shared).toBeGreaterThan(0);
  });

  test(`the same snapshots whatever the cuts (${CUTS} seeds) and the SSE parser`, async () => {
    const reference = JSON.stringify(await collect(fixture, SEED, 'events'));
    for (let k = 1; k <= CUTS; k++) {
      expect(JSON.stringify(await collect(fixture, SEED * 1000 + k, 'body'))).toBe(reference);
      expect(JSON.stringify(await collect(fixture, SEED * 2000 + k, 'events'))).toBe(reference);
    }
  });
});

test('every format has a fixture with tool calls and one with an error', () => {
  for (const format of ['openai-chat', 'openai-responses', 'anthropic', 'gemini']) {
    const mine = fixtures().filter((f) => f.format === format);
    expect(
      mine.some((f) => oracle(format as never, allEvents(f.bytes)).calls.length > 1 || f.name.includes('tool')),
    ).toBe(true);
    expect(mine.some((f) => f.name === 'error')).toBe(true);
  }
});
