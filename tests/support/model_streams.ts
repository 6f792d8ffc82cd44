// The model-stream fixtures (tests/data/model-streams/<format>/*.sse) and what the tests check them against: the
// events as eventsource-parser (an independent SSE parser) reads them, delivered from the file's bytes cut at
// seeded random positions, and an oracle that reads each format's documented fields the simplest way (every
// argument delta concatenated, then JSON.parse): no code shared with js/model.
import { readdirSync, readFileSync } from 'node:fs';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { createRng } from './random_json.mjs';

export type Format = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';
export const FORMATS: readonly Format[] = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'];

const DIR = new URL('../data/model-streams/', import.meta.url);

export interface Fixture {
  readonly format: Format;
  readonly name: string;
  readonly bytes: Uint8Array<ArrayBuffer>;
}

export function fixtures(): Fixture[] {
  const out: Fixture[] = [];
  for (const format of FORMATS) {
    for (const file of readdirSync(new URL(`${format}/`, DIR)).sort()) {
      if (!file.endsWith('.sse')) continue;
      out.push({
        format,
        name: file.slice(0, -4),
        bytes: new Uint8Array(readFileSync(new URL(`${format}/${file}`, DIR))),
      });
    }
  }
  return out;
}

export interface SseEvent {
  readonly event?: string;
  readonly data: string;
}

/** The file's bytes cut at random positions (1 to 64 bytes a piece; seeded). */
export function randomCuts(bytes: Uint8Array, seed: number): Uint8Array[] {
  const rng = createRng(seed);
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = Math.min(bytes.length - at, rng.range(1, 64));
    pieces.push(bytes.subarray(at, at + n));
    at += n;
  }
  return pieces;
}

/** Bytes to events through eventsource-parser, delivered as the bytes arrive (an async iterable). */
export async function* eventsOf(pieces: Iterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const ready: SseEvent[] = [];
  const parser = createParser({
    onEvent: (e: EventSourceMessage) => ready.push(e.event === undefined ? { data: e.data } : e),
  });
  for (const piece of pieces) {
    parser.feed(decoder.decode(piece, { stream: true }));
    while (ready.length > 0) yield ready.shift()!;
    // Another turn between pieces, as a network stream has.
    await Promise.resolve();
  }
  parser.feed(decoder.decode());
  parser.reset({ consume: true });
  yield* ready;
}

/** All the events of a whole file. */
export function allEvents(bytes: Uint8Array): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  parser.feed(new TextDecoder().decode(bytes));
  return events;
}

export interface ExpectedCall {
  id: string | undefined;
  name: string;
  /** The concatenated argument deltas (a JSON text), or the value where the provider sends it whole (Gemini). */
  text: string | undefined;
  value: unknown;
}

export interface Expected {
  text: string;
  calls: ExpectedCall[];
}

type Obj = Record<string, any>;

/** What the stream says, read the simplest way from the documented fields. */
export function oracle(format: Format, events: readonly SseEvent[]): Expected {
  const out: Expected = { text: '', calls: [] };
  const byKey = new Map<unknown, ExpectedCall>();
  const call = (key: unknown, id: string | undefined, name: string, text: string | undefined, value?: unknown) => {
    const c: ExpectedCall = { id, name, text, value };
    out.calls.push(c);
    byKey.set(key, c);
  };
  for (const e of events) {
    if (e.data === '[DONE]') continue;
    const d = JSON.parse(e.data) as Obj;
    if (format === 'openai-chat') {
      const delta = d.choices?.[0]?.delta;
      if (typeof delta?.content === 'string') out.text += delta.content;
      for (const t of delta?.tool_calls ?? []) {
        if (!byKey.has(t.index)) call(t.index, t.id, t.function.name, '');
        byKey.get(t.index)!.text += t.function?.arguments ?? '';
      }
    } else if (format === 'openai-responses') {
      if (d.type === 'response.output_text.delta') out.text += d.delta;
      if (d.type === 'response.output_item.added' && d.item.type === 'function_call') {
        call(d.item.id, d.item.call_id, d.item.name, d.item.arguments);
      }
      if (d.type === 'response.function_call_arguments.delta') byKey.get(d.item_id)!.text += d.delta;
    } else if (format === 'anthropic') {
      if (d.type === 'content_block_start' && d.content_block.type === 'tool_use') {
        call(d.index, d.content_block.id, d.content_block.name, '');
      }
      if (d.type === 'content_block_delta' && d.delta.type === 'text_delta') out.text += d.delta.text;
      if (d.type === 'content_block_delta' && d.delta.type === 'input_json_delta') {
        byKey.get(d.index)!.text += d.delta.partial_json;
      }
    } else {
      for (const part of d.candidates?.[0]?.content?.parts ?? []) {
        if (typeof part.text === 'string') out.text += part.text;
        if (part.functionCall)
          call(out.calls.length, part.functionCall.id, part.functionCall.name, undefined, part.functionCall.args);
      }
    }
  }
  for (const c of out.calls) {
    if (c.text !== undefined) c.value = c.text.trim() === '' ? {} : JSON.parse(c.text);
  }
  return out;
}
