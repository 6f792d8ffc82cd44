// readModelStream's errors: the provider's error events (each format's error.sse) as ModelStreamError with the
// provider's type, code and words; data that is not JSON and arguments that are not as JsonSyntaxError naming the
// event and the call; a stream cut before its last event; invalid options and sources at the call; the source
// cancelled when the loop stops early.
import { describe, expect, test } from 'vitest';
import {
  JsonLimitError,
  JsonSyntaxError,
  ModelStreamError,
  readModelStream,
  type ModelSnapshot,
  type ModelStreamOptions,
} from '../../dist/index.js';
import { allEvents, fixtures, oracle, type SseEvent } from '../support/model_streams.js';

async function drain(
  source: Parameters<typeof readModelStream>[0],
  options: ModelStreamOptions,
): Promise<{ snapshots: ModelSnapshot[]; error: unknown }> {
  const snapshots: ModelSnapshot[] = [];
  try {
    for await (const s of readModelStream(source, options)) snapshots.push(s);
  } catch (error) {
    return { snapshots, error };
  }
  return { snapshots, error: undefined };
}

const byName = (format: string, name: string) => fixtures().find((f) => f.format === format && f.name === name)!;

describe('the provider error events', () => {
  test.each(fixtures().filter((f) => f.name === 'error'))('$format', async (fixture) => {
    const events = allEvents(fixture.bytes);
    const { snapshots, error } = await drain(new Response(fixture.bytes), { format: fixture.format });
    expect(error).toBeInstanceOf(ModelStreamError);
    const e = error as ModelStreamError;
    // The provider's words, from the last event's data, wherever the format keeps them.
    const data = JSON.parse(events[events.length - 1]!.data);
    const reported = data.error ?? data;
    expect(e.message).toContain(reported.message);
    expect([reported.type, reported.status, reported.code]).toContain(e.type);
    expect(e.format).toBe(fixture.format);
    expect(e.event).toBe(events.length);
    expect(e.message).toContain(`event ${events.length}`);
    // What came before the error was delivered.
    expect(snapshots[snapshots.length - 1]?.text).toBe(oracle(fixture.format, events.slice(0, -1)).text);
    expect(snapshots.every((s) => !s.done)).toBe(true);
  });

  test('openai-responses response.failed and incomplete, gemini a blocked prompt', async () => {
    const failed = {
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'server_error', message: 'Boom.' } },
    };
    let r = await drain([{ event: failed.type, data: JSON.stringify(failed) }], { format: 'openai-responses' });
    expect(r.error).toMatchObject({ name: 'ModelStreamError', type: 'server_error', code: 'server_error' });
    expect((r.error as Error).message).toContain('Boom.');
    const incomplete = {
      type: 'response.incomplete',
      response: { incomplete_details: { reason: 'max_output_tokens' } },
    };
    r = await drain([{ data: JSON.stringify(incomplete) }], { format: 'openai-responses' });
    expect(r.error).toMatchObject({ type: 'incomplete', code: 'max_output_tokens' });
    r = await drain([{ data: '{"promptFeedback":{"blockReason":"SAFETY"}}' }], { format: 'gemini' });
    expect(r.error).toMatchObject({ type: 'blocked', code: 'SAFETY', event: 1 });
  });
});

describe('invalid data', () => {
  test('data that is not JSON: a JsonSyntaxError naming the event, at its byte', async () => {
    const events: SseEvent[] = [
      { event: 'message_start', data: '{"type":"message_start","message":{}}' },
      {
        event: 'content_block_start',
        data: '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hi"}}',
      },
      { event: 'ping', data: '{"type": pong}' },
    ];
    const { snapshots, error } = await drain(events, { format: 'anthropic' });
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect(error).toMatchObject({ code: 'EXPECTED_VALUE', offset: events[2]!.data.indexOf('pong') });
    expect((error as Error).message).toMatch(/^readModelStream\(\): the data of event 3 \("ping"\): /);
    expect(snapshots.map((s) => s.text)).toEqual(['Hi']);
    const cut = await drain([{ data: '{"choices":[' }], { format: 'openai-chat' });
    expect(cut.error).toMatchObject({ name: 'JsonSyntaxError', code: 'UNEXPECTED_END', offset: 12 });
    expect((cut.error as Error).message).toContain('event 1 ("message")');
  });

  const start = (index: number, name: string) =>
    JSON.stringify({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: `toolu_${index}`, name, input: {} },
    });
  const json = (index: number, partial_json: string) =>
    JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });

  test('arguments that are not JSON: a JsonSyntaxError naming the call and the event', async () => {
    const events = [
      { data: start(0, 'lookup') },
      { data: json(0, '{"q":') },
      { data: json(0, '"x"}') },
      { data: json(0, ' }') },
    ];
    const { snapshots, error } = await drain(events, { format: 'anthropic' });
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect(error).toMatchObject({ code: 'TRAILING_DATA', offset: 10 });
    expect((error as Error).message).toContain('the arguments of tool call 0 ("lookup") at event 4');
    expect(snapshots[snapshots.length - 1]!.toolCalls[0]).toMatchObject({ arguments: { q: 'x' }, complete: true });
  });

  test('arguments cut short when the call ends: UNEXPECTED_END', async () => {
    const events = [
      { data: start(0, 'f') },
      { data: json(0, '{"q":"ab') },
      { data: '{"type":"content_block_stop","index":0}' },
    ];
    const { error } = await drain(events, { format: 'anthropic' });
    expect(error).toMatchObject({ name: 'JsonSyntaxError', code: 'UNEXPECTED_END', offset: 8 });
    expect((error as Error).message).toContain('tool call 0 ("f") at event 3');
  });

  test('maxDepth and maxElementBytes hold for arguments', async () => {
    const deep = [{ data: start(0, 'f') }, { data: json(0, '{"a":{"b":{"c":1}}}') }];
    const { error } = await drain(deep, { format: 'anthropic', maxDepth: 2 });
    expect(error).toBeInstanceOf(JsonLimitError);
    expect(error).toMatchObject({ code: 'DEPTH_LIMIT' });
    const big = [{ data: start(0, 'f') }, { data: json(0, `{"a":"${'x'.repeat(100)}"}`) }];
    expect((await drain(big, { format: 'anthropic', maxElementBytes: 50 })).error).toMatchObject({
      code: 'ELEMENT_TOO_LARGE',
    });
  });
});

describe('the end of the stream', () => {
  test('cut before its last event: ModelStreamError truncated', async () => {
    const events = allEvents(byName('anthropic', 'text_and_tools').bytes);
    const cut = events.filter((e) => e.event !== 'message_delta' && e.event !== 'message_stop');
    const { snapshots, error } = await drain(cut, { format: 'anthropic' });
    expect(error).toMatchObject({ name: 'ModelStreamError', type: 'truncated', event: cut.length });
    expect((error as Error).message).toContain('before message_stop');
    expect(snapshots.length).toBeGreaterThan(0);
  });

  test('a finish reason without [DONE]: the last snapshot is done', async () => {
    const events = allEvents(byName('openai-chat', 'parallel_tools').bytes).filter((e) => e.data !== '[DONE]');
    const { snapshots, error } = await drain(events, { format: 'openai-chat' });
    expect(error).toBeUndefined();
    expect(snapshots[snapshots.length - 1]!.done).toBe(true);
  });

  test('breaking out cancels the body; the last event stops the reading', async () => {
    const fixture = byName('gemini', 'text_and_tools');
    let cancelled: unknown = 'no';
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(fixture.bytes.slice());
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    for await (const s of readModelStream(body, { format: 'gemini' })) {
      expect(s.text).not.toBe('');
      break;
    }
    expect(cancelled).toBeUndefined();
    let returned = false;
    const after = allEvents(byName('anthropic', 'empty_input').bytes);
    const events = (function* () {
      try {
        yield* after;
        yield { data: '{"type":"error","error":{"type":"late","message":"after message_stop"}}' };
      } finally {
        returned = true;
      }
    })();
    const { error } = await drain(events, { format: 'anthropic' });
    expect(error).toBeUndefined();
    expect(returned).toBe(true);
  });
});

test('the source kinds: an array (of promises too), an async iterable of events or of chunks, a body', async () => {
  const fixture = byName('anthropic', 'text_and_tools');
  const events = allEvents(fixture.bytes);
  const seen = async (source: Parameters<typeof readModelStream>[0]) =>
    JSON.stringify((await drain(source, { format: 'anthropic' })).snapshots);
  const expected = await seen(new Response(fixture.bytes));
  expect(JSON.parse(expected).length).toBeGreaterThan(3);
  async function* items<T>(list: readonly T[]) {
    for (const item of list) yield item;
  }
  expect(await seen(events)).toBe(expected);
  // A synchronous iterable's items are awaited, as for await reads one.
  expect(await seen(events.map((e) => Promise.resolve(e)) as never)).toBe(expected);
  expect(await seen(items(events))).toBe(expected);
  expect(await seen(items([fixture.bytes.slice(0, 7), fixture.bytes.slice(7)]))).toBe(expected);
  const text = new TextDecoder().decode(fixture.bytes);
  expect(await seen(items([text.slice(0, 100), text.slice(100)]))).toBe(expected);
  expect(await seen(fixture.bytes)).toBe(expected);
});

test('invalid options and sources: a TypeError at the call', () => {
  const call = (source: unknown, options: unknown) => () => readModelStream(source as never, options as never);
  expect(call([], undefined)).toThrow(/^readModelStream\(\): options.format is required$/);
  expect(call([], {})).toThrow(/options.format is required/);
  expect(call([], { format: 'openai' })).toThrow(
    `readModelStream(): options.format must be 'openai-chat', 'openai-responses', 'anthropic' or 'gemini', got "openai"`,
  );
  expect(call([], { format: 'gemini', txt: 'json' })).toThrow(
    /options.txt is not an option; the options are format, text/,
  );
  expect(call([], { format: 'gemini', text: 'yes' })).toThrow(/options.text must be 'string' or 'json'/);
  expect(call([], { format: 'gemini', maxDepth: 0 })).toThrow(
    /readModelStream\(\): options.maxDepth must be an integer/,
  );
  expect(call([], { format: 'gemini', maxEventBytes: -1 })).toThrow(/options.maxEventBytes must be an integer/);
  expect(call(42, { format: 'gemini' })).toThrow(TypeError);
  expect(call(42, { format: 'gemini' })).toThrow(/^readModelStream\(\): source must be/);
});

test('an event that is not { data: string }: a TypeError naming it', async () => {
  const { error } = await drain([{ data: '{}' }, { data: 7 }] as never, { format: 'gemini' });
  expect(error).toBeInstanceOf(TypeError);
  expect((error as Error).message).toBe('readModelStream(): event 2 must be an object with a string data, got object');
});

test('every source kind gives the same snapshots: body, text, chunks, events sync and async', async () => {
  const fixture = byName('openai-chat', 'parallel_tools');
  const text = new TextDecoder().decode(fixture.bytes);
  const events = allEvents(fixture.bytes);
  async function* chunks() {
    for (let i = 0; i < text.length; i += 7) yield text.slice(i, i + 7);
  }
  async function* asyncEvents() {
    yield* events;
  }
  const runs = await Promise.all(
    [new Response(fixture.bytes), text, fixture.bytes, chunks(), events, asyncEvents()].map((source) =>
      drain(source as never, { format: 'openai-chat' }),
    ),
  );
  const reference = JSON.stringify(runs[0]!.snapshots);
  expect(runs[0]!.snapshots[runs[0]!.snapshots.length - 1]!.done).toBe(true);
  for (const run of runs) {
    expect(run.error).toBeUndefined();
    expect(JSON.stringify(run.snapshots)).toBe(reference);
  }
});

test("options are the caller's own: inherited ones are not read", () => {
  const proto = Object.prototype as Record<string, unknown>;
  proto.format = 'gemini';
  proto.text = 'json';
  let thrown: unknown;
  try {
    readModelStream([], {} as never);
  } catch (error) {
    thrown = error;
  } finally {
    delete proto.format;
    delete proto.text;
  }
  expect(thrown).toBeInstanceOf(TypeError);
  expect((thrown as Error).message).toBe('readModelStream(): options.format is required');
});

test('what an event said before its error is delivered first', async () => {
  const chunk = {
    choices: [
      {
        index: 0,
        delta: { content: 'Hi', tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{]' } }] },
      },
    ],
  };
  const { snapshots, error } = await drain([{ data: JSON.stringify(chunk) }], { format: 'openai-chat' });
  expect(error).toMatchObject({ name: 'JsonSyntaxError', code: 'EXPECTED_KEY', offset: 1 });
  expect((error as Error).message).toContain('the arguments of tool call 0 ("f") at event 1');
  expect(snapshots).toHaveLength(1);
  expect(snapshots[0]).toMatchObject({ text: 'Hi', toolCalls: [{ id: 'call_1', name: 'f', arguments: undefined }] });
});
