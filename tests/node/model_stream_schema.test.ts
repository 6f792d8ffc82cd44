// readModelStream's `tools` and `schema` options over each provider's fixture (tests/data/model-streams), its
// bytes cut at seeded random positions: a schema that accepts the stream changes no snapshot but the final
// arguments (the schema's output, transforms applied); one that refuses a value in the middle stops the stream with
// the partial parser's JsonSchemaError (its path, its offset in that call's arguments, the call named), no snapshot
// showing the refused value and every snapshot before it delivered; a name that comes after the arguments; misuse.
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import {
  createPartialParser,
  JsonSchemaError,
  readModelStream,
  type ModelSnapshot,
  type ModelStreamOptions,
} from '../../dist/index.js';
import { allEvents, fixtures, oracle, randomCuts, type Fixture, type SseEvent } from '../support/model_streams.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 32);
const CUTS = 4;

type Path = readonly (string | number)[];

/**
 * A zod schema that accepts every one of `values` (JSON values of one place), strings upper-cased by a transform
 * so that the output differs from the text; `refuse` replaces the schema at one path (from this place).
 */
function accepting(values: readonly unknown[], refuse?: { path: Path; schema: z.ZodType }, at: Path = []): z.ZodType {
  if (refuse !== undefined && JSON.stringify(refuse.path) === JSON.stringify(at)) return refuse.schema;
  const v = values[0];
  if (typeof v === 'string') return z.string().transform((s) => s.toUpperCase());
  if (typeof v === 'number') return z.number();
  if (typeof v === 'boolean') return z.boolean();
  if (Array.isArray(v)) {
    const elements = values.flatMap((a) => a as unknown[]);
    // An index in `refuse.path` names one element: a tuple-free schema applies it to all of them.
    const next = refuse !== undefined && typeof refuse.path[at.length] === 'number' ? refuse.path[at.length]! : 0;
    return z.array(accepting(elements, refuse, [...at, next]));
  }
  const keys = [...new Set(values.flatMap((o) => Object.keys(o as object)))];
  const shape: Record<string, z.ZodType> = {};
  for (const key of keys) {
    const present = values.filter((o) => key in (o as object)).map((o) => (o as Record<string, unknown>)[key]);
    const member = accepting(present, refuse, [...at, key]);
    shape[key] = present.length === values.length ? member : member.optional();
  }
  return z.object(shape);
}

function get(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], value);
}

/** Each fixture with values to check: its tool calls by name, or (structured_text) its text. */
const cases = fixtures().filter((f) => f.name !== 'error' && f.name !== 'empty_input');
const isText = (f: Fixture) => f.name === 'structured_text';

function toolSchemas(fixture: Fixture, refuse?: { name: string; path: Path; schema: z.ZodType }) {
  const calls = oracle(fixture.format, allEvents(fixture.bytes)).calls;
  const tools: Record<string, z.ZodType> = {};
  for (const name of new Set(calls.map((c) => c.name))) {
    const values = calls.filter((c) => c.name === name).map((c) => c.value);
    tools[name] = accepting(values, refuse?.name === name ? refuse : undefined);
  }
  return tools;
}

function optionsFor(fixture: Fixture, refuse?: { name: string; path: Path; schema: z.ZodType }) {
  const base = { format: fixture.format } as ModelStreamOptions;
  if (!isText(fixture)) return { ...base, tools: toolSchemas(fixture, refuse) };
  const text = JSON.parse(oracle(fixture.format, allEvents(fixture.bytes)).text);
  return { ...base, text: 'json' as const, schema: accepting([text], refuse) };
}

async function run(fixture: Fixture, options: ModelStreamOptions | undefined, seed: number) {
  const snapshots: ModelSnapshot[] = [];
  const opts = options ?? { format: fixture.format, ...(isText(fixture) ? { text: 'json' as const } : {}) };
  try {
    for await (const s of readModelStream(new Response(cutBody(fixture, seed)), opts)) snapshots.push(s);
  } catch (error) {
    return { snapshots, error };
  }
  return { snapshots, error: undefined as unknown };
}

function cutBody(fixture: Fixture, seed: number): ReadableStream<Uint8Array> {
  const pieces = randomCuts(fixture.bytes, seed);
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i < pieces.length) c.enqueue(pieces[i++]!.slice());
      else c.close();
    },
  });
}

/** The unchecked snapshots as a checked stream gives them: final values are the schema's output. */
function withOutputs(snapshots: readonly ModelSnapshot[], options: ModelStreamOptions) {
  return snapshots.map((s) => ({
    ...s,
    value: s.done && options.schema !== undefined ? (options.schema as z.ZodType).parse(s.value) : s.value,
    toolCalls: s.toolCalls.map((c) => ({
      ...c,
      arguments: c.complete ? (options.tools![c.name] as z.ZodType).parse(c.arguments) : c.arguments,
    })),
  }));
}

/** Where each fixture is refused: a value in the middle, whose closing byte comes in the delta holding its end. */
const REFUSED: Record<string, { name: string; path: Path; schema: z.ZodType }> = {
  'anthropic/text_and_tools': { name: 'get_weather', path: ['location'], schema: z.string().regex(/^(?!Zürich)/) },
  'openai-chat/parallel_tools': { name: 'get_forecast', path: ['days'], schema: z.number().max(2) },
  'openai-chat/text_and_tool': { name: 'get_weather', path: ['unit'], schema: z.enum(['fahrenheit']) },
  'openai-responses/text_and_tools': {
    name: 'get_weather',
    path: ['location'],
    schema: z.string().regex(/^(?!Zürich)/),
  },
  'openai-responses/structured_text': { name: '', path: ['items', 1, 'n'], schema: z.number().max(1) },
  'gemini/text_and_tools': { name: 'get_weather', path: ['days'], schema: z.number().max(2) },
  'gemini/structured_text': { name: '', path: ['ingredients', 1, 'qty'], schema: z.number().max(100) },
};

describe.each(cases.map((f) => [`${f.format}/${f.name}`, f] as const))('%s', (key, fixture) => {
  test('a schema that accepts: the same snapshots, final values the schema output', async () => {
    const plain = await run(fixture, undefined, SEED);
    expect(plain.error).toBeUndefined();
    const options = optionsFor(fixture);
    const expected = withOutputs(plain.snapshots, options);
    for (let k = 0; k < CUTS; k++) {
      const checked = await run(fixture, options, SEED * 100 + k);
      expect(checked.error).toBeUndefined();
      expect(checked.snapshots).toEqual(expected);
      const last = checked.snapshots[checked.snapshots.length - 1]!;
      // The transform ran: the final strings are upper-cased, and the output is frozen as snapshots are.
      expect(JSON.stringify(last)).not.toBe(JSON.stringify(plain.snapshots[plain.snapshots.length - 1]));
      for (const c of last.toolCalls) expect(Object.isFrozen(c.arguments)).toBe(true);
    }
  });

  test('a schema that refuses a value in the middle: JsonSchemaError there, nothing of it shown', async () => {
    const refuse = REFUSED[key]!;
    const plain = (await run(fixture, undefined, SEED)).snapshots;
    const shown = (s: ModelSnapshot): unknown[] =>
      isText(fixture)
        ? [get(s.value, refuse.path)]
        : s.toolCalls.filter((c) => c.name === refuse.name).map((c) => get(c.arguments, refuse.path));
    const refusedValue = (v: unknown) => refuse.schema.safeParse(v).success === false && v !== undefined;
    // The first snapshot of the unchecked stream that shows the refused value: the checked one stops before it.
    const j = plain.findIndex((s) => shown(s).some(refusedValue));
    expect(j).toBeGreaterThan(0);
    expect(j).toBeLessThan(plain.length - 1);
    const options = optionsFor(fixture, refuse);
    let message: string | undefined;
    for (let k = 0; k < CUTS; k++) {
      const { snapshots, error } = await run(fixture, options, SEED * 200 + k);
      expect(error).toBeInstanceOf(JsonSchemaError);
      const e = error as JsonSchemaError;
      expect(e.path).toEqual(refuse.path);
      expect(snapshots.some((s) => shown(s).some(refusedValue))).toBe(false);
      expect(snapshots.length === j || snapshots.length === j + 1).toBe(true);
      expect(JSON.stringify(snapshots.slice(0, j))).toBe(JSON.stringify(withOutputs(plain.slice(0, j), options)));
      message ??= e.message;
      expect(e.message).toBe(message);
      // Its offset within that call's arguments (the text's): where the partial parser fed them whole stops.
      const expected = oracle(fixture.format, allEvents(fixture.bytes));
      const index = isText(fixture)
        ? -1
        : plain[j]!.toolCalls.findIndex((c) => c.name === refuse.name && refusedValue(get(c.arguments, refuse.path)));
      const text = isText(fixture)
        ? expected.text
        : (expected.calls[index]!.text ?? JSON.stringify(expected.calls[index]!.value));
      const schema = isText(fixture) ? options.schema! : options.tools![refuse.name]!;
      const parser = createPartialParser({ schema });
      const whole = (() => {
        try {
          parser.push(text);
          parser.end();
        } catch (err) {
          return err as JsonSchemaError;
        }
      })();
      expect([e.offset, e.line, e.column]).toEqual([whole!.offset, whole!.line, whole!.column]);
      expect(e.message).toContain(
        isText(fixture) ? 'readModelStream(): the text at event' : `tool call ${index} ("${refuse.name}") at event`,
      );
      expect(e.message.endsWith(whole!.message)).toBe(true);
    }
  });
});

/** Chat Completions chunks: each `[index, id, name, arguments]` a tool-call delta, then finish_reason and [DONE]. */
function chatEvents(deltas: readonly [number, string | undefined, string | undefined, string][]): SseEvent[] {
  const chunk = (delta: object, finish: string | null = null) =>
    JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] });
  return [
    ...deltas.map(([index, id, name, args]) => ({
      data: chunk({
        tool_calls: [{ index, id, function: { ...(name === undefined ? {} : { name }), arguments: args } }],
      }),
    })),
    { data: chunk({}, 'tool_calls') },
    { data: '[DONE]' },
  ];
}

async function drain(events: SseEvent[], options: ModelStreamOptions) {
  const snapshots: ModelSnapshot[] = [];
  try {
    for await (const s of readModelStream(events, options)) snapshots.push(s);
  } catch (error) {
    return { snapshots, error };
  }
  return { snapshots, error: undefined as unknown };
}

const Weather = z.object({ city: z.string(), days: z.number().max(7) });

describe('which calls are checked', () => {
  test('a call of a tool not listed is not checked', async () => {
    const events = chatEvents([[0, 'c0', 'other', '{"city":"Oslo","days":30}']]);
    const { snapshots, error } = await drain(events, { format: 'openai-chat', tools: { get_weather: Weather } });
    expect(error).toBeUndefined();
    expect(snapshots[snapshots.length - 1]!.toolCalls[0]!.arguments).toEqual({ city: 'Oslo', days: 30 });
  });

  test('a name that comes after the arguments started: they are read again, checked, from the start', async () => {
    const late = chatEvents([
      [0, 'c0', undefined, '{"city":"Oslo",'],
      [0, undefined, 'get_weather', '"days":30'],
      [0, undefined, undefined, '}'],
    ]);
    const r = await drain(late, { format: 'openai-chat', tools: { get_weather: Weather } });
    expect(r.error).toBeInstanceOf(JsonSchemaError);
    expect((r.error as JsonSchemaError).path).toEqual(['days']);
    // `"days":30` ends at the `}` of the third delta: offset 24 of the arguments.
    expect((r.error as JsonSchemaError).offset).toBe('{"city":"Oslo","days":30'.length);
    expect(r.snapshots.every((s) => (s.toolCalls[0]?.arguments as { days?: number } | undefined)?.days !== 30)).toBe(
      true,
    );
    // Accepted, the final arguments are the schema's output though the name came late, even after the close.
    const upper = z.object({ city: z.string().transform((s) => s.toUpperCase()) });
    for (const events of [
      chatEvents([
        [0, 'c0', undefined, '{"city":'],
        [0, undefined, 'get_weather', '"Oslo"}'],
      ]),
      chatEvents([
        [0, 'c0', undefined, '{"city":"Oslo"}'],
        [0, undefined, 'get_weather', ' '],
      ]),
    ]) {
      const ok = await drain(events, { format: 'openai-chat', tools: { get_weather: upper } });
      expect(ok.error).toBeUndefined();
      const last = ok.snapshots[ok.snapshots.length - 1]!.toolCalls[0]!;
      expect([last.name, last.arguments, last.complete]).toEqual(['get_weather', { city: 'OSLO' }, true]);
    }
  });

  test('arguments left empty are checked as {} (at offset 0)', async () => {
    const empty = fixtures().find((f) => f.format === 'anthropic' && f.name === 'empty_input')!;
    const run = (tools: Record<string, z.ZodType>) =>
      drain(allEvents(empty.bytes), { format: 'anthropic', tools } as ModelStreamOptions);
    const ok = await run({ get_time: z.object({ zone: z.string().default('UTC') }) });
    expect(ok.snapshots[ok.snapshots.length - 1]!.toolCalls[0]!.arguments).toEqual({ zone: 'UTC' });
    const refused = await run({ get_time: z.object({ zone: z.string() }) });
    expect(refused.error).toBeInstanceOf(JsonSchemaError);
    expect(refused.error).toMatchObject({ path: ['zone'], offset: 0 });
    expect((refused.error as Error).message).toMatch(
      /^readModelStream\(\): the arguments of tool call 0 \("get_time"\)/,
    );
  });

  test('an asynchronous schema: a TypeError naming the call', async () => {
    const slow = z.object({ city: z.string() }).refine(async () => true);
    const events = chatEvents([[0, 'c0', 'get_weather', '{"city":"Oslo"}']]);
    const { error } = await drain(events, { format: 'openai-chat', tools: { get_weather: slow } });
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      'readModelStream(): the arguments of tool call 0 ("get_weather") at event 1: the schema validates ' +
        'asynchronously; readModelStream() needs a synchronous one',
    );
  });
});

test('option misuse: a TypeError at the call naming the option', () => {
  const misuse = (options: unknown) => () => readModelStream([], options as ModelStreamOptions);
  expect(misuse({ format: 'openai-chat', schema: Weather })).toThrow(
    new TypeError("readModelStream(): options.schema is the schema of the text read as JSON: it needs text: 'json'"),
  );
  expect(misuse({ format: 'openai-chat', text: 'json', schema: { parse() {} } })).toThrow(
    /^readModelStream\(\): options\.schema must be a Standard Schema \(an object with a "~standard" property, version 1\), got /,
  );
  expect(misuse({ format: 'openai-chat', tools: [Weather] })).toThrow(
    /^readModelStream\(\): options\.tools must be an object of Standard Schemas by tool name, got /,
  );
  expect(misuse({ format: 'openai-chat', tools: { get_weather: Weather, 'get time': 1 } })).toThrow(
    /^readModelStream\(\): options\.tools\["get time"\] must be a Standard Schema .*, got /,
  );
  expect(misuse({ format: 'openai-chat', tools: { get_weather: undefined } })).toThrow(
    'readModelStream(): options.tools.get_weather must be a Standard Schema, got undefined',
  );
});
