// The envelope fast path of readModelStream's openai-chat reader (js/model/envelope.ts): an event's data read as
// the previous event's value with another string in its delta's place, without JSON.parse. Checked against
// JSON.parse: the string token scanner on random token-like text, the envelope on random edits of real and
// generated chunks (whenever it answers, its answer is JSON.parse's), and readModelStream end to end on generated
// streams cut at random bytes against the same events with the fast path defeated (a different whitespace prefix
// on every event: JSON.parse reads them all).
import { isDeepStrictEqual } from 'node:util';
import { expect, test } from 'vitest';
import { readModelStream, type ModelSnapshot } from '../../dist/index.js';
import { envelopeOf, parseInEnvelope, stringToken } from '../../dist/model/envelope.js';
import { deltaSlot } from '../../dist/model/openai_chat.js';
import { allEvents, fixtures, randomCuts } from '../support/model_streams.js';
import { createRng } from '../support/random_json.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 32);

/** JSON.parse's answer for a whole string token: its value, or undefined if `text` is not exactly one. */
function parsedToken(text: string): string | undefined {
  if (text.length < 2 || text[0] !== '"' || text[text.length - 1] !== '"') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

const PIECES = [
  '"',
  '\\',
  'u',
  '0',
  '7',
  'a',
  'F',
  'g',
  'n',
  't',
  '/',
  'b',
  'x',
  ' ',
  '\n',
  '\u0001',
  '\u001f',
  'é',
  '\ud83d',
  '\ude00',
  '\u2028',
  '\\"',
  '\\u00e9',
  '\\ud83d\\ude00',
];

test('stringToken: exactly JSON.parse on random token-like text', () => {
  const rng = createRng(SEED);
  let tokens = 0;
  for (let n = 0; n < 40_000; n++) {
    let inner = '';
    for (let k = rng.int(8); k > 0; k--) inner += rng.pick(PIECES);
    const text = rng.chance(0.9) ? `"${inner}"` : inner;
    // Inside a longer string too: only [from, to) is read.
    const pad = rng.chance(0.5) ? 'x"\\' : '';
    const expected = parsedToken(text);
    expect(stringToken(pad + text + pad, pad.length, pad.length + text.length), JSON.stringify(text)).toBe(expected);
    if (expected !== undefined) tokens++;
  }
  expect(tokens).toBeGreaterThan(5_000);
  for (const bad of ['"', '"\\"', '"\\u12"', '"\\u12g4"', '"a"b"', '"\t"', '"\\x"'])
    expect(stringToken(bad, 0, bad.length)).toBe(undefined);
  expect(stringToken('"a\\u0041\\n"', 0, 11)).toBe('aA\n');
});

/** A generated chunk's data as the text before its delta's string token, the token, and the text after it. */
function chunkParts(rng: ReturnType<typeof createRng>): [string, string, string] {
  const str = () => JSON.stringify(Array.from({ length: rng.int(6) }, () => rng.pick(PIECES)).join(''));
  const ws = () => (rng.chance(0.2) ? rng.pick([' ', '\n ', '\t']) : '');
  const tool = rng.chance(0.6);
  const open = tool
    ? `{"tool_calls":[{"index":${rng.int(2)},${ws()}"function":{${rng.chance(0.2) ? `"arguments":${str()},` : ''}"arguments"${ws()}:${ws()}`
    : `{${rng.chance(0.2) ? `"content":${str()},` : ''}"content":`;
  const close = tool ? `}}]}` : '}';
  const before = [
    `"id":"chatcmpl-${rng.int(3)}"`,
    `"note":${JSON.stringify('"arguments":"x"')}`,
    `"choices":[{"index":0,"delta":${open}`,
  ].join(`,${ws()}`);
  const after = [`${close},"finish_reason":${rng.chance(0.1) ? '"stop"' : 'null'}}]`];
  if (rng.chance(0.3)) after.push(`"obfuscation":${str()}`);
  if (rng.chance(0.1)) after.push(`"choices":[]`);
  return [`${ws()}{${before}`, str(), `${after.join(`,${ws()}`)}}${ws()}`];
}

const EDITS = ['"', '\\', ',', ':', '}', ']', '{', '[', ' ', 'a', '0', 'u', '"x"', '\\"', '"arguments":'];

test('parseInEnvelope: JSON.parse of the data whenever it answers, on random edits of chunks', () => {
  const rng = createRng(SEED + 1);
  const chat = fixtures().filter((f) => f.format === 'openai-chat');
  const real = chat.flatMap((f) => allEvents(f.bytes).map((e) => e.data)).filter((d) => d !== '[DONE]');
  let envelopes = 0;
  let answered = 0;
  for (let n = 0; n < 3_000; n++) {
    const parts = n < real.length ? null : chunkParts(rng);
    const data = parts === null ? real[n]! : parts.join('');
    const envelope = envelopeOf(data, JSON.parse(data), deltaSlot);
    if (envelope === null) continue;
    envelopes++;
    for (let k = 0; k < 20; k++) {
      let edited = data;
      if (k < 8 && parts !== null) {
        // Another delta in the slot: a string token, or text that may not be one.
        let inner = '';
        for (let i = rng.int(6); i > 0; i--) inner += rng.pick(PIECES);
        const token = rng.chance(0.6) ? JSON.stringify(inner) : `"${inner}"`;
        edited = parts[0] + token + parts[2];
      } else {
        for (let e = rng.range(1, 3); e > 0; e--) {
          const at = rng.int(edited.length + 1);
          edited = edited.slice(0, at) + (rng.chance(0.7) ? rng.pick(EDITS) : '') + edited.slice(at + rng.int(3));
        }
      }
      let expected: unknown;
      let parses = true;
      try {
        expected = JSON.parse(edited);
      } catch {
        parses = false;
      }
      const got = parseInEnvelope(envelope, edited);
      if (got === undefined) continue;
      answered++;
      expect(parses, edited).toBe(true);
      expect(isDeepStrictEqual(got, expected), edited).toBe(true);
    }
  }
  expect(envelopes).toBeGreaterThan(1_000);
  expect(answered).toBeGreaterThan(1_000);
});

test('envelopeOf: no envelope where the slot token is not proven', () => {
  const slot = (data: string) => envelopeOf(data, JSON.parse(data), deltaSlot);
  // The last "arguments": member is a different object's (the call's second function is not read).
  expect(
    slot('{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"a"}},{"function":{"arguments":"b"}}]}}]}'),
  ).toBe(null);
  // A key named like it inside a string, and an escaped key: no proof, no envelope.
  expect(slot('{"choices":[{"delta":{"tool_calls":[{"function":{"\\u0061rguments":"a"}}]}}]}')).toBe(null);
  expect(slot('{"choices":[{"delta":{"content":"\\u0001"}}]}')).toBe(null);
  const data = '{"choices":[{"delta":{"content":"a"}}],"x":"\\"content\\":\\"b\\""}';
  const envelope = slot(data);
  expect(envelope).not.toBe(null);
  expect(parseInEnvelope(envelope!, data.replace('"a"', '"\\"z"'))).toEqual({
    choices: [{ delta: { content: '"z' } }],
    x: '"content":"b"',
  });
});

/** A generated openai-chat body: text, then tool calls whose envelopes change now and then; its events' data. */
function streamOf(rng: ReturnType<typeof createRng>): string[] {
  const out: string[] = [];
  const envelope = (delta: object, extra: object = {}) =>
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: null }],
      ...extra,
    });
  const piece = () =>
    Array.from({ length: rng.range(1, 4) }, () => rng.pick(PIECES.filter((p) => !p.startsWith('\\')))).join('');
  for (let i = rng.int(20); i > 0; i--)
    out.push(envelope({ content: piece() }, rng.chance(0.1) ? { obfuscation: piece() } : {}));
  const calls = rng.range(1, 2);
  for (let c = 0; c < calls; c++) {
    const args = JSON.stringify({ q: `${piece()} "arguments": ${piece()}`, n: [1, -2.5e3, true, null], c });
    out.push(
      envelope({
        tool_calls: [{ index: c, id: `call_${c}`, type: 'function', function: { name: 'f', arguments: '' } }],
      }),
    );
    for (let at = 0; at < args.length; ) {
      const n = rng.range(1, 6);
      const extra = rng.chance(0.05) ? { obfuscation: piece() } : rng.chance(0.05) ? { usage: null } : {};
      out.push(envelope({ tool_calls: [{ index: c, function: { arguments: args.slice(at, at + n) } }] }, extra));
      at += n;
    }
  }
  out.push(JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }), '[DONE]');
  return out;
}

async function snapshotsOf(source: Parameters<typeof readModelStream>[0]): Promise<string[]> {
  const out: string[] = [];
  for await (const s of readModelStream(source, { format: 'openai-chat' }) as AsyncIterable<ModelSnapshot>) {
    out.push(JSON.stringify([s.text, s.toolCalls, s.done]));
  }
  return out;
}

test('readModelStream: the same snapshots with the fast path as through JSON.parse, bodies cut at random bytes', async () => {
  const rng = createRng(SEED + 2);
  for (let n = 0; n < 40; n++) {
    const datas = streamOf(rng);
    const body = new TextEncoder().encode(datas.map((d) => `data: ${d}\n\n`).join(''));
    const pieces = randomCuts(body, SEED + n);
    async function* chunks() {
      for (const piece of pieces) yield piece;
    }
    const fast = await snapshotsOf(chunks());
    // Every event's data behind its own whitespace: no envelope ever matches the next event.
    const plain = await snapshotsOf(datas.map((d, i) => ({ data: d === '[DONE]' ? d : ' '.repeat(i) + d })));
    expect(fast).toEqual(plain);
    expect(fast.length).toBeGreaterThan(10);
  }
});
